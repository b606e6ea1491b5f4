/**
 * `npm run demo`, against a running `npm start`: players buy tickets in both raffles of both chains, the round rotates,
 * and the winner claims the prize; then, in the three-winner raffle, the players buy bundles, the round is drawn with
 * three winners, the draw is verified from its VRF word with the SDK's `verifyDraw`, and every prize the players won
 * is claimed in one transaction each; last, in the item raffle, the winners claim a sword and potions escrowed when
 * the round started. Every step prints amounts, transaction hashes and ticket counts.
 *
 *   npm run demo [-- --rotate-now]   (--rotate-now: rotate with the merchant key instead of waiting for the worker)
 */
import { Wallet, formatUnits } from "ethers";
import { Raffle__factory, assetFromChain } from "@raffle/chain";
import { rpcProvider } from "@raffle/chain/testing";
import { RaffleApi, buyTicket, claimPrizes, type Claim } from "@raffle/sdk";

import { readStackFile } from "../stack/stack-file";
import { itemPrizeDemo } from "./item-prizes";
import { threeWinnerDemo } from "./three-winners";
import { startDemoWebhookReceiver } from "./webhook-receiver";

const say = (line: string) => process.stdout.write(`${line}\n`);

async function until<T>(what: string, check: () => Promise<T | null>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastNote = 0;
  for (;;) {
    const value = await check().catch(() => null);
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    if (Date.now() - lastNote > 10_000) {
      say(`   … waiting for ${what}`);
      lastNote = Date.now();
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/**
 * A scheduled rotation can close the round between reading it and buying: the voucher is then refused (roundEnded)
 * or the purchase reverts (NoActiveRound). A client simply buys again in the new round.
 */
async function buyWithRetry<T>(buy: () => Promise<T>, attempts = 4): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await buy();
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      const roundMoved = /roundEnded|roundNotFound|NoActiveRound|PriceMismatch|0x[0-9a-f]{8}|revert/i.test(text);
      if (!roundMoved || attempt >= attempts) throw error;
      say("   … the round rotated meanwhile; buying in the new round");
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }
}

async function main(): Promise<void> {
  const stack = readStackFile();
  const providers = new Map(stack.chains.map((chain) => [chain.chainId, rpcProvider(chain.rpcUrl)]));
  const provider = providers.get(stack.chainId)!;
  const api = new RaffleApi({ baseUrl: stack.apiUrl, apiKey: stack.apiKey });
  const players = stack.players.slice(0, 2).map((player) => new Wallet(player.privateKey, provider));
  const webhooks = await startDemoWebhookReceiver(stack.apiUrl, stack.apiKey, say);
  try {
    say(`1. Players buy tickets in both raffles of each chain (${stack.chains.map((chain) => chain.chainId).join(", ")})`);
    const rounds = new Map<number, string>();
    for (const chain of stack.chains) {
      // The same players, on this chain: one API signs for every chain, each voucher under its own chain's Exchange.
      const buyers = players.map((player) => player.connect(providers.get(chain.chainId)!));
      // The one-winner raffles here; the three-winner and the item raffles have their own steps (4, 5).
      for (const raffle of chain.raffles.filter((listed) => listed.kind === "ERC20" || listed.kind === "NATIVE")) {
        const contractId = raffle.contractId!;
        const boughtInRound = new Map<string, number>();
        for (const player of buyers) {
          const bought = await buyWithRetry(() => buyTicket({ api, signer: player, contractId, exchange: chain.exchange }));
          const price = bought.round.price.components[0];
          const unit = price.tokenType === "NATIVE" ? "ETH" : price.contract.symbol;
          say(
            `   chain ${chain.chainId} ${raffle.kind} raffle #${contractId}: ${player.address} bought ticket ${bought.ticketId} of round ` +
              `${bought.round.roundId} for ${formatUnits(price.amount, price.contract.decimals || 18)} ${unit} (tx ${bought.txHash})`,
          );
          rounds.set(contractId, bought.round.roundId);
          boughtInRound.set(bought.round.roundId, (boughtInRound.get(bought.round.roundId) ?? 0) + 1);
        }
        const lastRound = rounds.get(contractId)!;
        const count = await until(
          "the indexer to count the tickets",
          async () => {
            const round = await api.currentRound(contractId);
            // A scheduled rotation may already have closed the round: then its tickets are counted in its last state.
            if (round.roundId !== lastRound) return boughtInRound.get(lastRound)!;
            return round.ticketCount >= boughtInRound.get(lastRound)! ? round.ticketCount : null;
          },
          30_000,
        );
        say(`   chain ${chain.chainId} ${raffle.kind} raffle #${contractId}: round ${lastRound} has ${count} tickets`);
      }
    }

    say("2. The round rotates");
    const erc20 = stack.contracts.raffles.find((raffle) => raffle.kind === "ERC20")!;
    const endedRoundId = rounds.get(erc20.contractId!)!;
    if (process.argv.includes("--rotate-now")) {
      const raffle = Raffle__factory.connect(erc20.raffle, new Wallet(stack.merchant.privateKey, provider));
      const ended = await (await raffle.endRound()).wait();
      const info = await raffle.getCurrentRoundInfo();
      const started = await (await raffle.startRound(assetFromChain(info.ticketAsset), assetFromChain(info.acceptedAsset), info.maxTicket)).wait();
      say(`   the merchant ended round ${endedRoundId} (tx ${ended!.hash}) and started the next (tx ${started!.hash})`);
    } else {
      say("   waiting for the merchant worker's next scheduled rotation");
    }
    const next = await until(
      "the next round",
      async () => {
        const round = await api.currentRound(erc20.contractId!);
        return round.roundId !== endedRoundId ? round : null;
      },
      150_000,
    );
    say(`   ERC20 raffle #${erc20.contractId}: round ${endedRoundId} ended, round ${next.roundId} is open with ${next.ticketCount} tickets`);

    say("3. The winner claims the prize");
    const prize = await until(
      "the draw (VRF) and the prize claim",
      async () => {
        for (const player of players) {
          const claims = await api.listClaims({ account: player.address, claimStatus: "NEW" });
          const claim = claims.rows.find((row: Claim) => row.contractId === erc20.contractId && String(row.parameters.roundId) === endedRoundId);
          if (claim) return { player, claim };
        }
        return null;
      },
      60_000,
    );
    const item = prize.claim.items[0];
    say(`   ${prize.player.address} won ticket ${prize.claim.tokenId}: ${formatUnits(item.amount, 18)} GOLD after commission`);
    const claimed = await claimPrizes(erc20.raffle, [{ roundId: endedRoundId, ticketId: prize.claim.tokenId! }], prize.player);
    say(`   claimed on-chain (tx ${claimed.txHashes[0]})`);
    await until(
      "the claim to be marked REDEEMED",
      async () => {
        const claims = await api.listClaims({ account: prize.player.address, claimStatus: "REDEEMED" });
        return claims.rows.some((row) => row.id === prize.claim.id) ? true : null;
      },
      30_000,
    );
    say("   the API lists the claim as REDEEMED");

    await threeWinnerDemo({ api, stack, players, say, until, buyWithRetry });
    await itemPrizeDemo({ api, stack, players, say, until, buyWithRetry });
    say("demo complete");
  } finally {
    await webhooks.stop();
    for (const chainProvider of providers.values()) chainProvider.destroy();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`demo failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
