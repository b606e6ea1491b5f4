import type { Provider } from "ethers";
import { DemoItem721__factory, DemoItems1155__factory, RaffleTicket__factory, Raffle__factory, TokenType } from "@raffle/chain";
import { rpcProvider } from "@raffle/chain/testing";
import { buyTicket, claimPrizes } from "@raffle/sdk";

import type { DemoStepOptions } from "./three-winners";

/** `getRoundItems`' status of an item its winner received (`ItemStatus.Claimed`). */
const CLAIMED = 2;

/** An item's name from its token's metadata (`tokenURI` / `uri`, a `data:` URI on the demo items), with its amount. */
export async function itemName(asset: { tokenType: bigint; token: string; tokenId: bigint; amount: bigint }, provider: Provider): Promise<string> {
  const uri =
    Number(asset.tokenType) === TokenType.ERC721
      ? await DemoItem721__factory.connect(asset.token, provider).tokenURI(asset.tokenId)
      : await DemoItems1155__factory.connect(asset.token, provider).uri(asset.tokenId);
  const prefix = "data:application/json;base64,";
  const name = uri.startsWith(prefix)
    ? (JSON.parse(Buffer.from(uri.slice(prefix.length), "base64").toString("utf8")) as { name: string }).name
    : null;
  const label = name ?? `token ${asset.tokenId} of ${asset.token}`;
  return Number(asset.tokenType) === TokenType.ERC721 ? label : `${asset.amount} x ${label}`;
}

/**
 * The item raffle of the stack (issue #53): the first prize is 70% of the pot and a Legendary Sword (ERC721), the
 * second 30% and a stack of Healing Potions (ERC1155), both items escrowed when the round started. A player buys two tickets and another one,
 * the round is drawn, and each winning player claims with `claimPrizes`, which sends the items to the ticket's holder.
 */
export async function itemPrizeDemo({ api, stack, players, say, until, buyWithRetry }: DemoStepOptions): Promise<void> {
  const listed = stack.contracts.raffles.find((raffle) => raffle.kind === "ITEMS");
  if (!listed?.contractId || !listed.items) throw new Error("the stack has no item raffle: restart it with `npm start`");
  const contractId = listed.contractId;
  const provider = rpcProvider(stack.rpcUrl);
  try {
    const raffle = Raffle__factory.connect(listed.raffle, provider);
    const ticket = RaffleTicket__factory.connect(listed.ticket, provider);
    say(
      `5. Item prizes: raffle #${contractId} pays 70% of the pot and a Legendary Sword (ERC721) to the first prize, 30% and Healing Potions (ERC1155) to the second`,
    );

    // Two tickets in one purchase: their round has the two tickets it needs to be drawn, whenever the rotation comes.
    let roundId = 0n;
    for (const [index, quantity] of [2, 1].entries()) {
      const player = players[index % players.length];
      const bought = await buyWithRetry(() => buyTicket({ api, signer: player, contractId, exchange: stack.contracts.exchange, quantity }));
      const round = await raffle.roundOfTicket(bought.ticketId);
      if (quantity === 2) roundId = round;
      say(`   ${player.address} bought ${quantity} item raffle ticket(s) (${bought.ticketIds.join(", ")}) of round ${round} (tx ${bought.txHash})`);
    }
    const [merchant, escrowed] = await raffle.getRoundItems(roundId);
    for (const item of escrowed) {
      say(`   round ${roundId} holds in escrow for prize ${item.position}: ${await itemName(item.asset, provider)} (from ${merchant})`);
    }

    const winners = await until(
      `item raffle round ${roundId} to be drawn (the worker ends it at its next rotation, then VRF answers)`,
      async () => {
        const drawn = await raffle.getWinners(roundId);
        return drawn.length > 0 ? drawn : null;
      },
      150_000,
    );
    const holders = await Promise.all(winners.map((winner) => ticket.ownerOf(winner.ticketId)));
    winners.forEach((winner, index) => say(`     prize ${index + 1}: ticket ${winner.ticketId} of ${holders[index]}`));

    for (const player of players) {
      const mine = winners.filter((_, index) => holders[index].toLowerCase() === player.address.toLowerCase());
      if (mine.length === 0) continue;
      const settled = await claimPrizes(
        listed.raffle,
        mine.map((winner) => ({ roundId: roundId.toString(), ticketId: winner.ticketId.toString() })),
        player,
      );
      say(`   ${player.address} claimed ${mine.length} prize(s) in one transaction (tx ${settled.txHashes.join(", ")})`);
    }

    // What the chain says now: each item claimed, and held by its winner.
    const [, after] = await raffle.getRoundItems(roundId);
    for (const item of after) {
      const winner = holders[Number(item.position) - 1];
      if (!players.some((player) => player.address.toLowerCase() === winner.toLowerCase())) {
        say(`   prize ${item.position}'s winner ${winner} is not a demo player: its item waits in escrow for them`);
        continue;
      }
      const held =
        Number(item.asset.tokenType) === TokenType.ERC721
          ? (await DemoItem721__factory.connect(item.asset.token, provider).ownerOf(item.asset.tokenId)).toLowerCase() === winner.toLowerCase()
          : (await DemoItems1155__factory.connect(item.asset.token, provider).balanceOf(winner, item.asset.tokenId)) >= item.asset.amount;
      if (Number(item.status) !== CLAIMED || !held)
        throw new Error(`round ${roundId}: prize ${item.position}'s item did not reach its winner ${winner}`);
      say(`   claimed item prize ${item.position}: ${await itemName(item.asset, provider)} went to ${winner}`);
    }
  } finally {
    provider.destroy();
  }
}
