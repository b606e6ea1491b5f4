import { formatUnits, type Wallet } from "ethers";
import { rpcProvider } from "@raffle/chain/testing";
import { RaffleApi, buyTicket, claimPrizes, raffleContract, readDrawRecord, verifyDraw, type RoundWithDraw } from "@raffle/sdk";

import type { StackFile } from "../stack/stack-file";

/** What each of the demo's steps gets from the demo: its API client, the stack's facts, its players and helpers. */
export interface DemoStepOptions {
  api: RaffleApi;
  stack: StackFile;
  /** The demo's players, on the first chain. */
  players: Wallet[];
  say: (line: string) => void;
  until: <T>(what: string, check: () => Promise<T | null>, timeoutMs: number) => Promise<T>;
  buyWithRetry: <T>(buy: () => Promise<T>) => Promise<T>;
}

const gold = (amount: bigint | string) => `${formatUnits(amount, 18)} GOLD`;

/**
 * The three-winner raffle of the stack (raffle v2): each player buys a bundle (5 for 45, 10 for 80), the round is
 * drawn with three winners, the draw is checked from its VRF word by `verifyDraw` against the chain's own record and
 * the API's, and each player claims every prize it won in one `claimPrizes` transaction.
 */
export async function threeWinnerDemo({ api, stack, players, say, until, buyWithRetry }: DemoStepOptions): Promise<void> {
  const listed = stack.contracts.raffles.find((raffle) => raffle.kind === "THREE_WINNERS");
  if (!listed?.contractId || !listed.rules) throw new Error("the stack has no three-winner raffle: restart it with `npm start`");
  const contractId = listed.contractId;
  const provider = rpcProvider(stack.rpcUrl);
  try {
    const onChain = raffleContract(listed.raffle, provider);
    const shares = listed.rules.prizeShares.map((share) => `${share / 100}%`).join(" / ");
    say(`4. Three winners: raffle #${contractId} pays ${shares} of the pot, and needs ${listed.rules.minTickets} tickets to be drawn`);

    const rounds = new Set<string>();
    for (const [index, quantity] of [5, 10].entries()) {
      const player = players[index % players.length];
      const bought = await buyWithRetry(() => buyTicket({ api, signer: player, contractId, exchange: stack.contracts.exchange, quantity }));
      // The round the tickets are in, from the chain: a rotation may have come between reading the round and buying.
      const roundId = String(await onChain.roundOfTicket(bought.ticketId));
      rounds.add(roundId);
      say(
        `   ${player.address} bought a bundle of ${quantity} tickets (${bought.ticketIds[0]} to ${bought.ticketIds.at(-1)}) of round ${roundId} ` +
          `for ${gold(bought.voucher.price.amount)} (tx ${bought.txHash})`,
      );
    }

    const drawn: RoundWithDraw[] = [];
    for (const roundId of rounds) {
      const round = await until(
        `round ${roundId} to be drawn (the worker ends it at its next rotation, then VRF answers)`,
        async () => {
          const page = await api.listRounds({ contractId, take: 20 });
          const found = page.rows.find((row) => row.roundId === roundId);
          return found && found.winners.length > 0 && found.randomWord !== null ? found : null;
        },
        150_000,
      );
      say(`   round ${roundId} drawn from VRF word ${round.randomWord}: pot ${gold(round.pot)}`);
      for (const winner of [...round.winners].sort((a, b) => a.position - b.position)) {
        say(`     prize ${winner.position + 1} (${winner.share / 100}%): ticket ${winner.ticketId} of ${winner.account}, ${gold(winner.amount)}`);
      }

      // The check needs no trust in the API: the record is read from the chain, and the API must agree with it.
      const record = await readDrawRecord(listed.raffle, roundId, provider);
      const verification = verifyDraw(record);
      const apiWinners = [...round.winners].sort((a, b) => a.position - b.position).map((winner) => BigInt(winner.ticketId));
      const apiAgrees =
        BigInt(round.randomWord!) === BigInt(record.randomWord) &&
        apiWinners.join() === verification.recorded.join() &&
        verifyDraw({ ...record, winners: round.winners }).valid;
      if (!verification.valid || !apiAgrees) {
        throw new Error(
          `round ${roundId}: the draw does not verify (expected ${verification.expected.join(", ")}, chain ${verification.recorded.join(", ")}, API ${apiWinners.join(", ")})`,
        );
      }
      say(
        `   verifyDraw: the word draws tickets ${verification.expected.join(", ")} from ${record.ticketCount} tickets, as recorded on-chain and by the API`,
      );
      drawn.push(round);
    }

    for (const player of players) {
      const mine = drawn.flatMap((round) =>
        round.winners
          .filter((winner) => winner.account.toLowerCase() === player.address.toLowerCase() && winner.claimStatus === "UNCLAIMED")
          .map((winner) => ({ roundId: round.roundId, ticketId: winner.ticketId })),
      );
      if (mine.length === 0) {
        say(`   ${player.address} won no prize`);
        continue;
      }
      const settled = await claimPrizes(listed.raffle, mine, player);
      const paid = settled.tickets.reduce((sum, ticket) => sum + ticket.amount, 0n);
      say(
        `   ${player.address} claimed ${settled.tickets.length} prizes in one transaction: ${gold(paid)} after commission (tx ${settled.txHashes.join(", ")})`,
      );
    }
    await until(
      "the API to list every prize as CLAIMED",
      async () => {
        const page = await api.listRounds({ contractId, take: 20 });
        const claimedAll = drawn.every((round) => {
          const now = page.rows.find((row) => row.roundId === round.roundId);
          const ours = round.winners.filter((winner) => players.some((player) => player.address.toLowerCase() === winner.account.toLowerCase()));
          return ours.every((winner) => now?.winners.find((row) => row.position === winner.position)?.claimStatus === "CLAIMED");
        });
        return claimedAll ? true : null;
      },
      30_000,
    );
    say("   the API lists the players' prizes as CLAIMED");
  } finally {
    provider.destroy();
  }
}
