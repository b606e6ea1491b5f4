import {
  ItemWinnerWallet__factory,
  PausableItem721__factory,
  RaffleTicket__factory,
  Raffle__factory,
  TestItems1155__factory,
  TokenType,
  type ItemWinnerWallet,
  type PausableItem721,
  type TestItems1155,
} from "@raffle/chain";
import { deployTestRaffle, type TestRaffle } from "@raffle/chain/testing";
import { eventually } from "@raffle/testing";

import { fastWebhooks, startApiHarness, type ApiHarness } from "./support/api-harness";
import { indexedRaffleId } from "./support/indexed-raffle";
import { WebhookReceiver } from "./support/webhook-receiver";
import { buyTickets, claimPrizes, endAndDraw, restartRound, setRules } from "../../../libs/indexer/test/support/v2-world";

const POTION_ID = 7n;
const POTIONS = 50n;
const TX_HASH = /^0x[0-9a-f]{64}$/;

interface ItemPrize {
  position: number;
  kind: string;
  token: string;
  tokenId: string | null;
  amount: string;
  status: string;
  ticketId: string | null;
  claimedBy: string | null;
  merchant: string;
  txHash: string;
  transferFailure: { to: string; reason: string; txHash: string } | null;
}

interface Claim {
  id: number;
  claimType: string;
  claimStatus: string;
  tokenId: string;
  items: unknown[];
  redeemedTxHash: string | null;
  parameters: Record<string, unknown>;
}

/**
 * Item prizes (issue #53) through the indexer, the API and its webhooks, on a real chain with the contracts' test
 * tokens: a round with an ERC721 first prize and an ERC1155 second prize (a position past the pot's one share, so it
 * carries only its item) sold, drawn and claimed; a round below its minimum whose items go back to the merchant; and
 * a winner wallet that refuses its item, whose failed transfer shows on the round without holding up the other
 * position, until it accepts and claims again; and a paused item token, whose item stays in escrow when the round's
 * items go back to the merchant, until the token resumes.
 */
describe("item prizes through the API", () => {
  let harness: ApiHarness;
  let key: string;
  let raffle: TestRaffle;
  let contractId: number;
  let sword: PausableItem721;
  let potions: TestItems1155;
  let merchant: string;
  const receiver = new WebhookReceiver();
  const auth = () => ({ Authorization: `Bearer ${key}` });

  beforeAll(async () => {
    harness = await startApiHarness("item_prizes", { webhooks: fastWebhooks({ pollIntervalMs: 50, retryBaseMs: 100, timeoutMs: 2000 }) });
    const { world } = harness;
    merchant = await world.merchant.getAddress();
    key = await harness.apiKey(merchant);
    await receiver.start();
    const { body: endpoint } = await harness.http.post("/webhooks").set(auth()).send({ url: receiver.url }).expect(201);
    receiver.secrets = [endpoint.secret];

    raffle = await deployTestRaffle(world, "ERC20");
    contractId = await indexedRaffleId(harness, key, raffle.raffle);
    await harness.http.put(`/raffle/contracts/${contractId}/public-sale`).set(auth()).send({ publicSale: true }).expect(200);
    sword = await new PausableItem721__factory(world.admin).deploy();
    potions = await new TestItems1155__factory(world.admin).deploy();
    await Promise.all([sword.waitForDeployment(), potions.waitForDeployment()]);
    await (await potions.mint(merchant, POTION_ID, 10n * POTIONS)).wait();
    // The merchant approves the raffle once; each round's startRound pulls that round's items.
    await (await sword.connect(world.merchant).setApprovalForAll(raffle.raffle, true)).wait();
    await (await potions.connect(world.merchant).setApprovalForAll(raffle.raffle, true)).wait();
  });

  afterAll(async () => {
    await receiver.close();
    await harness?.close();
  });

  const onChain = () => Raffle__factory.connect(raffle.raffle, harness.world.merchant);
  const current = async () => (await harness.http.get("/rounds/current").query({ contractId }).set(auth()).expect(200)).body;
  const claimsOf = async (account: string): Promise<Claim[]> =>
    (await harness.http.get("/claims").query({ account }).set(auth()).expect(200)).body.rows;
  const delivered = (type: string) => receiver.delivered().filter((message) => message.body.type === type);

  /** A fresh sword for the first position and 50 potions for the second, for the rounds started from now on. */
  async function setSwordAndPotions(): Promise<bigint> {
    const swordId = (await sword.mint.staticCall(merchant)) as bigint;
    await (await sword.mint(merchant)).wait();
    const swordAsset = { tokenType: TokenType.ERC721, token: await sword.getAddress(), tokenId: swordId, amount: 1n };
    const potionAsset = { tokenType: TokenType.ERC1155, token: await potions.getAddress(), tokenId: POTION_ID, amount: POTIONS };
    await (
      await onChain().setItemPrizes([
        { position: 1, asset: swordAsset },
        { position: 2, asset: potionAsset },
      ])
    ).wait();
    return swordId;
  }

  /** The round's two items as the API shows them while escrowed. */
  async function escrowedItems(swordId: bigint, txHash: string): Promise<ItemPrize[]> {
    const base = { status: "escrowed", ticketId: null, claimedBy: null, merchant, txHash, transferFailure: null };
    return [
      { position: 1, kind: "erc721", token: await sword.getAddress(), tokenId: swordId.toString(), amount: "1", ...base },
      { position: 2, kind: "erc1155", token: await potions.getAddress(), tokenId: POTION_ID.toString(), amount: POTIONS.toString(), ...base },
    ];
  }

  /** Starts the next round (ending the active one) and returns its startRound transaction's hash. */
  async function nextRound(): Promise<string> {
    await restartRound(harness.world, raffle);
    const { roundId } = await onChain().getCurrentRoundInfo();
    const [escrowed] = await onChain().queryFilter(onChain().filters.ItemsEscrowed(roundId));
    return escrowed.transactionHash;
  }

  it("escrows an ERC721 first prize and an ERC1155 second prize at startRound, and every round read shows them", async () => {
    const swordId = await setSwordAndPotions();
    const startTx = await nextRound();
    expect(startTx).toMatch(TX_HASH);
    const expected = await escrowedItems(swordId, startTx);
    const round = await eventually(async () => {
      const body = await current();
      expect(body).toMatchObject({ roundId: "2", status: "ACTIVE" });
      return body;
    });
    expect(round.itemPrizes).toEqual(expected);
    expect(await sword.ownerOf(swordId)).toBe(raffle.raffle);
    expect(await potions.balanceOf(raffle.raffle, POTION_ID)).toBe(POTIONS);

    expect((await harness.http.get(`/rounds/${round.id}`).set(auth()).expect(200)).body.itemPrizes).toEqual(expected);
    const list = (await harness.http.get("/rounds").query({ contractId }).set(auth()).expect(200)).body;
    expect(list.rows.map((row: { roundId: string; itemPrizes: ItemPrize[] }) => [row.roundId, row.itemPrizes])).toEqual([
      ["2", expected],
      ["1", []],
    ]);
    // The player app's reads carry the same field.
    await eventually(async () => {
      const publicRaffle = (await harness.http.get(`/player/raffles/${contractId}`).expect(200)).body;
      expect(publicRaffle.round.itemPrizes).toEqual(expected);
    });
    const history = (await harness.http.get(`/player/raffles/${contractId}/rounds`).expect(200)).body;
    expect(history.rows[0].itemPrizes).toEqual(expected);
    // The raffle's parameters name the items the next rounds escrow (ItemPrizesSet).
    const { body: raffles } = await harness.http.get("/raffle/contracts").query({ take: 100 }).set(auth()).expect(200);
    const parameters = raffles.rows.find((row: { id: number }) => row.id === contractId).parameters;
    expect(parameters.itemPrizes).toEqual({
      merchant,
      items: expected.map(({ position, kind, token, tokenId, amount }) => ({ position, tokenType: kind.toUpperCase(), token, tokenId, amount })),
    });
  });

  it("draws and claims both items: round.drawn carries each position's item, /claims an item claim per position, item.claimed each", async () => {
    const { world } = harness;
    const [alice, bob] = world.players;
    await buyTickets(world, raffle, alice, 2);
    await buyTickets(world, raffle, bob, 2);
    const roundId = await endAndDraw(world, raffle);
    const winners = await onChain().getWinners(roundId);
    // One share of the pot: the second position carries only its item and is paid 0.
    expect(winners.map((winner) => winner.amount > 0n)).toEqual([true, false]);
    const ticket = RaffleTicket__factory.connect(raffle.ticket, world.provider);
    const holders = await Promise.all(winners.map((winner) => ticket.ownerOf(winner.ticketId)));
    const ticketIds = winners.map((winner) => winner.ticketId.toString());

    const round = await eventually(async () => {
      const body = await current();
      expect(body.status).toBe("DRAWN");
      return body;
    });
    expect(round.winners.map((winner: { share: number; amount: string }) => [winner.share, winner.amount])).toEqual([
      [10000, winners[0].amount.toString()],
      [0, "0"],
    ]);
    expect(round.itemPrizes.map((item: ItemPrize) => [item.position, item.status, item.ticketId])).toEqual([
      [1, "escrowed", ticketIds[0]],
      [2, "escrowed", ticketIds[1]],
    ]);

    // Per position: a RAFFLE_ITEM claim for its item; a RAFFLE_PRIZE claim only where a share is owed.
    const claimsByPosition = await Promise.all(
      holders.map(async (holder, position) => (await claimsOf(holder)).filter((claim) => claim.tokenId === ticketIds[position])),
    );
    const kinds = claimsByPosition.map((claims) => claims.map((claim) => claim.claimType).sort());
    expect(kinds).toEqual([["RAFFLE_ITEM", "RAFFLE_PRIZE"], ["RAFFLE_ITEM"]]);
    const itemClaims = claimsByPosition.map((claims) => claims.find((claim) => claim.claimType === "RAFFLE_ITEM")!);
    expect(itemClaims.map((claim) => [claim.claimStatus, claim.items, claim.parameters])).toEqual([
      [
        "NEW",
        [{ tokenType: "ERC721", token: round.itemPrizes[0].token, tokenId: round.itemPrizes[0].tokenId, amount: "1" }],
        { raffle: raffle.raffle, roundId: roundId.toString(), ticketId: ticketIds[0], position: 0 },
      ],
      [
        "NEW",
        [{ tokenType: "ERC1155", token: await potions.getAddress(), tokenId: POTION_ID.toString(), amount: POTIONS.toString() }],
        { raffle: raffle.raffle, roundId: roundId.toString(), ticketId: ticketIds[1], position: 1 },
      ],
    ]);

    const [drawn] = await eventually(async () => {
      const messages = delivered("round.drawn").filter((message) => message.body.roundId === roundId.toString());
      expect(messages).toHaveLength(1);
      return messages;
    });
    expect(drawn.verified).toBe(true);
    expect(drawn.body.data.winners).toEqual([
      expect.objectContaining({ position: 0, ticketId: ticketIds[0], item: itemClaims[0].items[0], itemClaimId: itemClaims[0].id }),
      expect.objectContaining({ position: 1, ticketId: ticketIds[1], share: 0, prize: null, claimId: null, item: itemClaims[1].items[0] }),
    ]);

    await claimPrizes(
      world,
      raffle,
      roundId,
      winners.map((winner) => winner.ticketId),
    );
    const claimed = await eventually(async () => {
      const body = await current();
      expect(body.status).toBe("CLAIMED");
      return body;
    });
    const swordId = BigInt(claimed.itemPrizes[0].tokenId);
    expect(await sword.ownerOf(swordId)).toBe(holders[0]);
    expect(claimed.itemPrizes.map((item: ItemPrize) => [item.status, item.claimedBy, item.transferFailure])).toEqual([
      ["claimed", holders[0], null],
      ["claimed", holders[1], null],
    ]);
    const redeemed = await Promise.all(
      holders.map(async (holder, position) => (await claimsOf(holder)).find((claim) => claim.id === itemClaims[position].id)!),
    );
    expect(redeemed.map((claim) => claim.claimStatus)).toEqual(["REDEEMED", "REDEEMED"]);
    expect(claimed.itemPrizes.map((item: ItemPrize) => item.txHash)).toEqual(redeemed.map((claim) => claim.redeemedTxHash));

    // An item.claimed per item, with its claim; a prize.claimed only for the position that paid money.
    const messages = await eventually(async () => {
      const items = delivered("item.claimed");
      expect(items).toHaveLength(2);
      return items;
    });
    expect(messages.map((message) => [message.body.data.position, message.body.data.winner, message.body.data.claimId])).toEqual([
      ["1", holders[0], itemClaims[0].id],
      ["2", holders[1], itemClaims[1].id],
    ]);
    expect(messages[0].body.data.asset).toEqual(itemClaims[0].items[0]);
    const prizes = delivered("prize.claimed").filter((message) => message.body.roundId === roundId.toString());
    expect(prizes.map((message) => message.body.data.ticketId)).toEqual([ticketIds[0]]);
  });

  it("returns both items of a round that ended below its minimum to the merchant, and says so", async () => {
    const { world } = harness;
    await setRules(world, raffle, { prizeShares: [10000], minTickets: 3 });
    const swordId = await setSwordAndPotions();
    const startTx = await nextRound();
    const potionsBefore = await potions.balanceOf(merchant, POTION_ID);
    await buyTickets(world, raffle, world.players[0], 1);
    await (await onChain().endRound()).wait();
    const { roundId } = await onChain().getCurrentRoundInfo();
    const refundable = await eventually(async () => {
      const body = await current();
      expect(body).toMatchObject({ status: "REFUNDABLE", refundReason: "MINIMUM_NOT_REACHED" });
      return body;
    });
    expect(refundable.itemPrizes).toEqual(await escrowedItems(swordId, startTx));

    // Anyone may send them back; they go to the merchant only.
    const returned = await (await Raffle__factory.connect(raffle.raffle, world.players[3]).returnItems(roundId)).wait();
    expect(await sword.ownerOf(swordId)).toBe(merchant);
    expect(await potions.balanceOf(merchant, POTION_ID)).toBe(potionsBefore + POTIONS);
    const round = await eventually(async () => {
      const body = await current();
      expect(body.itemPrizes.map((item: ItemPrize) => item.status)).toEqual(["returned", "returned"]);
      return body;
    });
    expect(round.itemPrizes.map((item: ItemPrize) => [item.txHash, item.claimedBy, item.ticketId])).toEqual([
      [returned!.hash, null, null],
      [returned!.hash, null, null],
    ]);
    const messages = await eventually(async () => {
      const items = delivered("item.returned");
      expect(items).toHaveLength(2);
      return items;
    });
    expect(
      messages.map((message) => [message.body.roundId, message.body.data.position, message.body.data.merchant, message.body.data.claimId]),
    ).toEqual([
      [roundId.toString(), "1", merchant, null],
      [roundId.toString(), "2", merchant, null],
    ]);
    // No winner, so no item claim: the refund claim is the ticket's only one.
    const claims = (await claimsOf(await world.players[0].getAddress())).filter((claim) => claim.parameters.roundId === roundId.toString());
    expect(claims.map((claim) => claim.claimType)).toEqual(["RAFFLE_REFUND"]);
  });

  it("shows a winner wallet's refused item as a failed transfer, without holding up the other position, until it accepts and claims again", async () => {
    const { world } = harness;
    const [alice, bob] = world.players;
    await setRules(world, raffle, { prizeShares: [10000] });
    await setSwordAndPotions();
    await nextRound();
    const wallet: ItemWinnerWallet = await new ItemWinnerWallet__factory(alice).deploy(raffle.ticket);
    await wallet.waitForDeployment();
    const walletAddress = await wallet.getAddress();
    // Two tickets for two positions: both win. Alice's goes to her contract wallet, which refuses items.
    const [aliceTicket] = await buyTickets(world, raffle, alice, 1);
    await buyTickets(world, raffle, bob, 1);
    await (await RaffleTicket__factory.connect(raffle.ticket, alice).transferFrom(await alice.getAddress(), walletAddress, aliceTicket)).wait();
    await (await wallet.setOnItem(1, walletAddress, "0x")).wait();
    const roundId = await endAndDraw(world, raffle);
    const winners = await onChain().getWinners(roundId);
    const walletPosition = winners.findIndex((winner) => winner.ticketId === aliceTicket);
    const bobPosition = 1 - walletPosition;

    const claimCall = (ticketId: bigint) => Raffle__factory.createInterface().encodeFunctionData("claimPrizes", [[{ roundId, ticketId }]]);
    const refused = await (await wallet.execute(raffle.raffle, claimCall(aliceTicket))).wait();
    await claimPrizes(world, raffle, roundId, [winners[bobPosition].ticketId]);

    const round = await eventually(async () => {
      const body = await current();
      expect(body.itemPrizes[bobPosition].status).toBe("claimed");
      expect(body.itemPrizes[walletPosition].transferFailure).not.toBeNull();
      return body;
    });
    // The refused item stays in escrow, claimable again; the round is not settled while it is there.
    expect(round.status).toBe("DRAWN");
    expect(round.winners.map((winner: { claimStatus: string }) => winner.claimStatus)).toEqual(["CLAIMED", "CLAIMED"]);
    const failed: ItemPrize = round.itemPrizes[walletPosition];
    const refusal = wallet.interface.encodeErrorResult("WalletRefusesItem", [failed.token, BigInt(failed.tokenId!)]);
    expect(failed).toMatchObject({
      status: "escrowed",
      claimedBy: null,
      transferFailure: { to: walletAddress, reason: refusal, txHash: refused!.hash },
    });
    expect(round.itemPrizes[bobPosition]).toMatchObject({ status: "claimed", claimedBy: await bob.getAddress(), transferFailure: null });
    const failures = await eventually(async () => {
      const messages = delivered("item.transferFailed");
      expect(messages).toHaveLength(1);
      return messages;
    });
    expect(failures[0].body.data).toMatchObject({
      roundId: roundId.toString(),
      position: String(walletPosition + 1),
      to: walletAddress,
      reason: refusal,
    });
    const walletClaim = (await claimsOf(walletAddress)).find((claim) => claim.claimType === "RAFFLE_ITEM")!;
    expect(walletClaim.claimStatus).toBe("NEW");

    // The wallet accepts items again and claims: the item is its, the failure gone, the round settled.
    await (await wallet.setOnItem(0, walletAddress, "0x")).wait();
    const accepted = await (await wallet.execute(raffle.raffle, claimCall(aliceTicket))).wait();
    const settled = await eventually(async () => {
      const body = await current();
      expect(body.status).toBe("CLAIMED");
      return body;
    });
    expect(settled.itemPrizes[walletPosition]).toMatchObject({
      status: "claimed",
      claimedBy: walletAddress,
      txHash: accepted!.hash,
      transferFailure: null,
    });
    expect((await claimsOf(walletAddress)).find((claim) => claim.id === walletClaim.id)).toMatchObject({
      claimStatus: "REDEEMED",
      redeemedTxHash: accepted!.hash,
    });
  });
  it("returns the items of a closed round one by one: a paused token's item stays in escrow, shown as failed, and goes back once resumed", async () => {
    const { world } = harness;
    await setRules(world, raffle, { prizeShares: [10000], minTickets: 3 });
    const swordId = await setSwordAndPotions();
    await nextRound();
    await (await onChain().endRound()).wait(); // no ticket: the round closes and can pay no winner
    const { roundId } = await onChain().getCurrentRoundInfo();
    await (await sword.setPaused(true)).wait();
    const first = await (await Raffle__factory.connect(raffle.raffle, world.players[2]).returnItems(roundId)).wait();

    const round = await eventually(async () => {
      const body = await current();
      expect(body.itemPrizes[0].transferFailure).not.toBeNull();
      return body;
    });
    expect(round.status).toBe("CLOSED");
    const paused = sword.interface.encodeErrorResult("ItemTransfersPaused", []);
    expect(round.itemPrizes.map((item: ItemPrize) => [item.status, item.transferFailure])).toEqual([
      ["escrowed", { to: merchant, reason: paused, txHash: first!.hash }],
      ["returned", null],
    ]);
    expect(await sword.ownerOf(swordId)).toBe(raffle.raffle);

    await (await sword.setPaused(false)).wait();
    const second = await (await Raffle__factory.connect(raffle.raffle, world.players[2]).returnItems(roundId)).wait();
    expect(await sword.ownerOf(swordId)).toBe(merchant);
    await eventually(async () => {
      const body = await current();
      expect(body.itemPrizes[0]).toMatchObject({ status: "returned", txHash: second!.hash, transferFailure: null });
    });
  });
});
