import { Wallet, ZeroAddress, parseUnits, type Signer } from "ethers";
import {
  LOCAL_DEV_KEYS,
  LookAlikeFactory__factory,
  NonceSequence,
  PausableItem721__factory,
  RAFFLE_PURCHASE_EXTRA,
  Raffle__factory,
  RaffleFactory__factory,
  RaffleTicket__factory,
  RoundStatus,
  TestItems1155__factory,
  TestToken__factory,
  TicketStatus,
  TokenType,
  assetFromChain,
  paramsToJson,
  assetToJson,
  signPurchaseVoucher,
} from "@raffle/chain";
import {
  buyTickets,
  deployTestRaffle,
  endAndDraw,
  setUpWorld,
  startHardhatNode,
  startNextRound,
  type HardhatNode,
  type TestRaffle,
  type TestWorld,
} from "@raffle/chain/testing";

import { RaffleApi, type FetchLike } from "./api-client";
import { buyTicket } from "./buy-ticket";
import { readDrawRecord, verifyDraw } from "./draw";
import { claimPrizes, refundTickets } from "./raffle-calls";
import { readTicketState } from "./ticket-state";

const GOLD = (amount: string) => parseUnits(amount, 18);
/** The local stack's demo rules: three winners 50/30/20, at least 3 tickets, 5 for 45 and 10 for 80 at a price of 10. */
const THREE_WINNERS = {
  prizeShares: [5_000, 3_000, 2_000],
  minTickets: 3,
  maxTicketsPerWallet: 0,
  bundles: [
    { quantity: 5, price: GOLD("45") },
    { quantity: 10, price: GOLD("80") },
  ],
};

/** Real three-winner rounds on Hardhat, drawn by the VRF coordinator mock, settled through the SDK's helpers. */
describe("the SDK against raffle v2 on a Hardhat chain", () => {
  let node: HardhatNode;
  let world: TestWorld;
  let raffle: TestRaffle;

  beforeAll(async () => {
    node = await startHardhatNode();
    world = await setUpWorld(node.provider);
    raffle = await deployTestRaffle(world, "ERC20", 100n, THREE_WINNERS);
  }, 120_000);

  afterAll(async () => {
    await node?.stop();
  });

  const contract = () => Raffle__factory.connect(raffle.raffle, world.admin);
  const currentRoundId = async () => (await contract().getCurrentRoundInfo()).roundId;

  it("verifyDraw recomputes the winners of real three-winner draws exactly as the chain drew them", async () => {
    // 3 tickets (every ticket wins: the re-hashing skips repeats), then 7 and 16 across players and bundles.
    for (const purchases of [
      [1, 1, 1],
      [5, 1, 1],
      [10, 5, 1],
    ]) {
      const roundId = await currentRoundId();
      for (const [index, quantity] of purchases.entries()) await buyTickets(world, raffle, world.players[index], quantity);
      await endAndDraw(world, raffle);
      const round = await contract().getRound(roundId);
      expect(Number(round.status)).toBe(RoundStatus.Drawn);
      expect(round.randomWord).not.toBe(0n);

      const record = await readDrawRecord(raffle.raffle, roundId, node.provider);
      const verification = verifyDraw(record);
      const chainWinners = (await contract().getWinners(roundId)).map((winner) => winner.ticketId);
      expect(chainWinners).toHaveLength(3);
      expect(verification).toEqual({ valid: true, expected: chainWinners, recorded: chainWinners });
      expect(new Set(chainWinners).size).toBe(3);
      // A record with another word does not verify: the check is not a formality.
      expect(verifyDraw({ ...record, randomWord: BigInt(record.randomWord) + 1n }).valid).toBe(false);
      await startNextRound(world, raffle);
    }
  }, 120_000);

  it("readDrawRecord, given the platform's factory, says a look-alike raffle is not genuine however its draw went", async () => {
    const factory = world.deployment.raffleFactory;
    const genuine = verifyDraw(await readDrawRecord(raffle.raffle, 1n, node.provider, { factory }));
    expect(genuine).toMatchObject({ valid: true, genuine: true });

    // The genuine bytecode with an attacker's "factory" (it says the raffle has a merchant) and an Exchange the
    // attacker plays itself: a lone ticket wins outright, so the draw follows the rule to the letter.
    const attacker = world.players[world.players.length - 1];
    const fakeFactory = await new LookAlikeFactory__factory(attacker).deploy();
    const lookAlike = await new Raffle__factory(attacker).deploy({
      admin: await attacker.getAddress(),
      factory: await fakeFactory.getAddress(),
      exchange: await attacker.getAddress(),
      ticketDeployer: await RaffleFactory__factory.connect(factory, attacker).ticketDeployer(),
      commission: 0n,
      timeLagBeforeRelease: 86_400n,
      ticketName: "ERC20 Ticket",
      ticketSymbol: "TERC20",
    });
    const item = { tokenType: TokenType.ERC721, token: await lookAlike.ticketContract(), tokenId: 0n, amount: 1n };
    const price = { tokenType: TokenType.NATIVE, token: ZeroAddress, tokenId: 0n, amount: 1n };
    await (await lookAlike.startRound(item, price, 0n)).wait();
    await (await lookAlike.printTicket(await attacker.getAddress(), item, price, 1n, { value: 1n })).wait();
    await (await lookAlike.endRound()).wait();

    const record = await readDrawRecord(await lookAlike.getAddress(), 1n, node.provider, { factory });
    expect(record.genuine).toBe(false);
    const { randomWord, firstTicketId, ticketCount, winners } = record;
    expect(verifyDraw({ randomWord, firstTicketId, ticketCount, winners }).valid).toBe(true);
    expect(verifyDraw(record)).toMatchObject({ valid: false, genuine: false, expected: record.winners.map((w) => w.ticketId) });
  }, 60_000);

  it("claimPrizes claims every prize a player won in one transaction: the pot's shares less commission", async () => {
    const roundId = await currentRoundId();
    const player = world.players[3];
    await buyTickets(world, raffle, player, 10); // 10 for 80: the pot; the player holds every winning ticket
    await endAndDraw(world, raffle);
    const winners = await contract().getWinners(roundId);
    expect(winners.map((winner) => winner.amount)).toEqual([GOLD("40"), GOLD("24"), GOLD("16")]);

    const second = winners[1].ticketId;
    expect(await readTicketState(raffle.ticket, second, node.provider)).toEqual({
      roundId,
      tier: 2n,
      price: GOLD("8"),
      status: TicketStatus.Won,
      won: true,
      position: 1,
    });

    const token = TestToken__factory.connect(world.token, world.admin);
    const before = await token.balanceOf(await player.getAddress());
    const refs = winners.map((winner) => ({ roundId, ticketId: winner.ticketId }));
    const settled = await claimPrizes(raffle.raffle, refs, player);
    expect((await readTicketState(raffle.ticket, second, node.provider)).status).toBe(TicketStatus.PrizeClaimed);
    expect(settled.txHashes).toHaveLength(1);
    // Commission of 10% is taken off each prize.
    expect(settled.tickets.map((ticket) => [ticket.ticketId, ticket.amount, ticket.commission])).toEqual(
      winners.map((winner) => [winner.ticketId, (winner.amount * 9n) / 10n, winner.amount / 10n]),
    );
    expect(await token.balanceOf(await player.getAddress())).toBe(before + GOLD("72"));
    expect(Number((await contract().getRound(roundId)).status)).toBe(RoundStatus.Claimed);
    await expect(claimPrizes(raffle.raffle, refs.slice(0, 1), player)).rejects.toThrow();
    await startNextRound(world, raffle);
  }, 60_000);

  it("refundTickets pays back every ticket of a round that ended below its minimum, in one transaction", async () => {
    const roundId = await currentRoundId();
    const player = world.players[2];
    const ticketIds = await buyTickets(world, raffle, player, 2); // no bundle of 2: 2 x 10
    await (await Raffle__factory.connect(raffle.raffle, world.merchant).endRound()).wait();
    expect(Number((await contract().getRound(roundId)).status)).toBe(RoundStatus.Refundable);

    const token = TestToken__factory.connect(world.token, world.admin);
    const before = await token.balanceOf(await player.getAddress());
    const settled = await refundTickets(
      raffle.raffle,
      ticketIds.map((ticketId) => ({ roundId, ticketId })),
      player,
    );
    expect(settled.txHashes).toHaveLength(1);
    expect(settled.tickets.map((ticket) => ticket.amount)).toEqual([GOLD("10"), GOLD("10")]);
    expect(await token.balanceOf(await player.getAddress())).toBe(before + GOLD("20"));
    await startNextRound(world, raffle);
  }, 60_000);

  it("buyTicket buys a bundle: it asks the API for the quantity and pays the price signed for it", async () => {
    const { api, signRequests } = apiStandIn(world, raffle);
    const player = world.players[1];
    const token = TestToken__factory.connect(world.token, world.admin);
    const before = await token.balanceOf(await player.getAddress());
    const bought = await buyTicket({ api, signer: player, contractId: 1, exchange: world.deployment.exchange, quantity: 5 });
    expect(signRequests.at(-1)).toMatchObject({ quantity: 5, contractId: 1 });
    expect(bought.ticketIds).toHaveLength(5);
    expect(bought.ticketIds[4] - bought.ticketIds[0]).toBe(4n);
    expect(bought.ticketId).toBe(bought.ticketIds[0]);
    expect(await token.balanceOf(await player.getAddress())).toBe(before - GOLD("45"));
    const tickets = RaffleTicket__factory.connect(raffle.ticket, world.admin);
    for (const ticketId of bought.ticketIds) expect(await tickets.ownerOf(ticketId)).toBe(await player.getAddress());
    expect(await contract().roundOfTicket(bought.ticketIds[4])).toBe(await currentRoundId());

    // Without a quantity the sign request is the spec's own body, and one ticket at the round's price is bought.
    const single = await buyTicket({ api, signer: player, contractId: 1, exchange: world.deployment.exchange });
    expect(signRequests.at(-1)).not.toHaveProperty("quantity");
    expect(single.ticketIds).toEqual([single.ticketId]);
    expect(await token.balanceOf(await player.getAddress())).toBe(before - GOLD("55"));
  }, 60_000);

  it("claimPrizes claims item prizes too: an ERC721 with the first share, an ERC1155 on a position past the shares; verifyDraw as before", async () => {
    const merchant = await world.merchant.getAddress();
    const sword = await new PausableItem721__factory(world.admin).deploy();
    const potions = await new TestItems1155__factory(world.admin).deploy();
    await (await sword.mint(merchant)).wait();
    await (await potions.mint(merchant, 7n, 50n)).wait();
    await (await sword.connect(world.merchant).setApprovalForAll(raffle.raffle, true)).wait();
    await (await potions.connect(world.merchant).setApprovalForAll(raffle.raffle, true)).wait();
    const swordAsset = { tokenType: TokenType.ERC721, token: await sword.getAddress(), tokenId: 1n, amount: 1n };
    const potionAsset = { tokenType: TokenType.ERC1155, token: await potions.getAddress(), tokenId: 7n, amount: 50n };
    const merchantRaffle = Raffle__factory.connect(raffle.raffle, world.merchant);
    await (
      await merchantRaffle.setItemPrizes([
        { position: 1, asset: swordAsset },
        { position: 4, asset: potionAsset },
      ])
    ).wait();
    // The round on sale (the bundles above) is drawn; the next one escrows the items and has four winners.
    await endAndDraw(world, raffle);
    await startNextRound(world, raffle);
    const roundId = await currentRoundId();
    const player = world.players[0];
    await buyTickets(world, raffle, player, 5);
    await endAndDraw(world, raffle);
    const winners = await contract().getWinners(roundId);
    expect(winners.map((winner) => winner.amount)).toEqual([GOLD("22.5"), GOLD("13.5"), GOLD("9"), 0n]);
    const verification = verifyDraw(await readDrawRecord(raffle.raffle, roundId, node.provider));
    expect(verification).toMatchObject({ valid: true, recorded: winners.map((winner) => winner.ticketId) });

    const owner = await player.getAddress();
    const settled = await claimPrizes(
      raffle.raffle,
      winners.map((winner) => ({ roundId, ticketId: winner.ticketId })),
      player,
    );
    expect(settled.txHashes).toHaveLength(1);
    expect(settled.items).toEqual([
      { roundId, ticketId: winners[0].ticketId, position: 1, winner: owner, asset: swordAsset, txHash: settled.txHashes[0] },
      { roundId, ticketId: winners[3].ticketId, position: 4, winner: owner, asset: potionAsset, txHash: settled.txHashes[0] },
    ]);
    expect(settled.failedItems).toEqual([]);
    // The position past the shares is claimed with no money (its PrizeClaimed pays 0).
    expect(settled.tickets.map((ticket) => ticket.amount)).toEqual(winners.map((winner) => (winner.amount * 9n) / 10n));
    expect(await sword.ownerOf(1n)).toBe(owner);
    expect(await potions.balanceOf(owner, 7n)).toBe(50n);
    expect(Number((await contract().getRound(roundId)).status)).toBe(RoundStatus.Claimed);
    await (await merchantRaffle.setItemPrizes([])).wait();
    await startNextRound(world, raffle);
  }, 60_000);
});

/**
 * The three API answers buyTicket reads (raffle list, current round, voucher), answered from the chain and signed with
 * the platform's local voucher key as the API would. The API's own `quantity` is tested with the API; this holds the
 * SDK's side of the exchange on a real chain.
 */
function apiStandIn(world: TestWorld, raffle: TestRaffle): { api: RaffleApi; signRequests: Array<Record<string, unknown>> } {
  const signRequests: Array<Record<string, unknown>> = [];
  const nonces = new NonceSequence();
  const chain = Raffle__factory.connect(raffle.raffle, world.admin);
  const roundResource = {
    id: 1,
    contract: { address: raffle.raffle },
    ticketContract: { address: raffle.ticket },
    price: { components: [{ tokenType: "ERC20", amount: raffle.price.amount.toString(), contract: { address: raffle.price.token } }] },
  };
  const answer = async (method: string, url: URL, body?: string): Promise<unknown> => {
    if (url.pathname === "/raffle/contracts") return { rows: [{ id: 1, chainId: world.deployment.chainId, address: raffle.raffle }], count: 1 };
    if (url.pathname === "/rounds/current") return roundResource;
    if (method === "POST" && url.pathname === "/raffle/ticket/sign") {
      const request = JSON.parse(body!) as { account: string; quantity?: number };
      signRequests.push(request);
      const quantity = request.quantity ?? 1;
      const price = assetFromChain(await chain.priceOf(quantity));
      const block = await world.provider.getBlock("latest");
      const params = {
        externalId: 1n,
        expiresAt: BigInt(block!.timestamp + 600),
        nonce: nonces.take(),
        extra: RAFFLE_PURCHASE_EXTRA,
        receiver: raffle.raffle,
        referrer: ZeroAddress,
      };
      const item = { tokenType: TokenType.ERC721, token: raffle.ticket, tokenId: 0n, amount: BigInt(quantity) };
      const voucherKey: Signer = new Wallet(LOCAL_DEV_KEYS.voucherSigner);
      const signature = await signPurchaseVoucher(voucherKey, world.deployment.chainId, world.deployment.exchange, {
        account: request.account,
        params,
        item,
        price,
      });
      return {
        nonce: params.nonce,
        signature,
        expiresAt: Number(params.expiresAt),
        params: paramsToJson(params),
        item: assetToJson(item),
        price: assetToJson(price),
        value: "0",
      };
    }
    throw new Error(`unexpected ${method} ${url.pathname}`);
  };
  const fetch: FetchLike = async (url, init) => {
    const body = JSON.stringify(await answer(init.method, new URL(url), init.body));
    return new Response(body, { status: 200, headers: { "content-type": "application/json" } });
  };
  return { api: new RaffleApi({ baseUrl: "http://api.stand-in", apiKey: "rk_test", fetch }), signRequests };
}
