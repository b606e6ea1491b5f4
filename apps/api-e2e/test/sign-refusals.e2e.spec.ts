import { Wallet, ZeroAddress } from "ethers";
import type { DataSource } from "typeorm";
import { Exchange__factory, LogEmitter__factory, LookAlikeFactory__factory, RaffleFactory__factory, Raffle__factory } from "@raffle/chain";
import { buyTicket, deployTestRaffle, type TestRaffle } from "@raffle/chain/testing";
import { ContractEntity, ContractStatus, TicketVoucherEntity } from "@raffle/db";

import { DATA_SOURCE } from "../../api/src/services/tokens";
import { eventually } from "@raffle/testing";

import { startApiHarness, type ApiHarness } from "./support/api-harness";
import { indexedRaffleId } from "./support/indexed-raffle";
import { expectProblem, fieldsOf } from "./support/problem";

/** POST /raffle/ticket/sign refuses every purchase that would fail on-chain, with a 4xx code, and records nothing. */
describe("refusals of the sign endpoint", () => {
  let harness: ApiHarness;
  let key: string;
  let dataSource: DataSource;
  type Case = "paused" | "full" | "ended" | "inactive";
  const raffles = {} as Record<Case, { deployed: TestRaffle; id: number }>;

  beforeAll(async () => {
    harness = await startApiHarness("sign_refusals");
    key = await harness.apiKey(await harness.world.merchant.getAddress());
    dataSource = harness.app.get(DATA_SOURCE);
    for (const name of ["paused", "full", "ended", "inactive"] as const) {
      const deployed = await deployTestRaffle(harness.world, "NATIVE", name === "full" ? 1n : 100n);
      raffles[name] = { deployed, id: await indexedRaffleId(harness, key, deployed.raffle) };
    }
  });

  afterAll(async () => {
    await harness?.close();
  });

  const auth = (apiKey = key) => ({ Authorization: `Bearer ${apiKey}` });
  const player = () => harness.world.players[0].getAddress();

  async function sign(contractId: number, apiKey = key) {
    return harness.http
      .post("/raffle/ticket/sign")
      .set(auth(apiKey))
      .send({ account: await player(), referrer: ZeroAddress, contractId });
  }

  const vouchersOf = (contractId: number) => dataSource.getRepository(TicketVoucherEntity).countBy({ contractId });

  it("refuses a paused raffle with 409 contractPaused, records no voucher, and signs again once unpaused", async () => {
    const { deployed, id } = raffles.paused;
    await sign(id).then((response) => expect(response.status).toBe(200));
    expect(await vouchersOf(id)).toBe(1);

    const onChain = Raffle__factory.connect(deployed.raffle, harness.world.merchant);
    await (await onChain.pause()).wait();
    await eventually(async () => {
      const { body } = await harness.http.get("/raffle/contracts").set(auth()).expect(200);
      expect(body.rows.find((row: { id: number }) => row.id === id).isPaused).toBe(true);
    });
    expectProblem(await sign(id), 409, "contractPaused");
    expect(await vouchersOf(id)).toBe(1);

    await (await onChain.unpause()).wait();
    await eventually(async () => expect((await sign(id)).status).toBe(200));
  });

  it("refuses a round that sold all its tickets with 409 roundFull", async () => {
    const { deployed, id } = raffles.full;
    const round = (await harness.http.get("/rounds/current").query({ contractId: id }).set(auth()).expect(200)).body;
    expect(round).toMatchObject({ maxTickets: 1, ticketCount: 0 });
    await sign(id).then((response) => expect(response.status).toBe(200));

    await buyTicket(harness.world, deployed, harness.world.players[1], BigInt(round.id));
    await eventually(async () => {
      const { body } = await harness.http.get("/rounds/current").query({ contractId: id }).set(auth()).expect(200);
      expect(body.ticketCount).toBe(1);
    });
    expectProblem(await sign(id), 409, "roundFull");
    expect(await vouchersOf(id)).toBe(1);
  });

  it("refuses an ended round with 409 roundEnded, while GET /rounds/current answers that round with its endTimestamp", async () => {
    const { deployed, id } = raffles.ended;
    await sign(id).then((response) => expect(response.status).toBe(200));
    const active = (await harness.http.get("/rounds/current").query({ contractId: id }).set(auth()).expect(200)).body;
    expect(active.endTimestamp).toBeNull();

    await (await Raffle__factory.connect(deployed.raffle, harness.world.merchant).endRound()).wait();
    // Between endRound and the next startRound (spec 2.3): the round that ended, not a 404.
    const ended = await eventually(async () => {
      const { body } = await harness.http.get("/rounds/current").query({ contractId: id }).set(auth()).expect(200);
      expect(body.endTimestamp).not.toBeNull();
      return body;
    });
    expect(ended).toMatchObject({ id: active.id, roundId: active.roundId, contractId: id });
    expect(Date.parse(ended.endTimestamp)).toBeGreaterThanOrEqual(Date.parse(active.startTimestamp));
    expectProblem(await sign(id), 409, "roundEnded");
    expect(await vouchersOf(id)).toBe(1);
  });

  it("refuses every voucher with 409 exchangePaused while the platform's Exchange is paused, and signs again once unpaused", async () => {
    const { id } = raffles.paused;
    const exchange = Exchange__factory.connect(harness.world.deployment.exchange, harness.world.admin);
    const claim = () =>
      harness.http
        .post("/claims")
        .set(auth())
        .send({ account: Wallet.createRandom().address, items: [{ tokenType: "ERC20", token: harness.world.token, tokenId: "0", amount: "1" }] });
    await (await exchange.pause()).wait();
    try {
      // Refused as soon as the indexer has seen the Paused event (a request just before may still be signed).
      await eventually(async () => expectProblem(await sign(id), 409, "exchangePaused"));
      const before = await vouchersOf(id);
      expectProblem(await sign(id), 409, "exchangePaused");
      expectProblem(await claim(), 409, "exchangePaused");
      expect(await vouchersOf(id)).toBe(before);
    } finally {
      await (await exchange.unpause()).wait();
    }
    await eventually(async () => expect((await sign(id)).status).toBe(200));
    expect((await claim()).status).toBe(201);
  });

  it("refuses the zero address as buyer or claimant with 400 before any lookup, and records nothing", async () => {
    const vouchersBefore = await dataSource.getRepository(TicketVoucherEntity).count();
    const zero = "0x0000000000000000000000000000000000000000";
    // An unknown contract id too: the answer is about the account, found before any lookup would say 404.
    const signed = await harness.http
      .post("/raffle/ticket/sign")
      .set(auth())
      .send({ account: zero, referrer: ZeroAddress, contractId: 2_147_483_647 });
    expect(fieldsOf(expectProblem(signed, 400, "validationFailed"))).toEqual(["account"]);
    const claimed = await harness.http
      .post("/claims")
      .set(auth())
      .send({ account: zero, items: [{ tokenType: "ERC20", token: harness.world.token, tokenId: "0", amount: "1" }] });
    expect(fieldsOf(expectProblem(claimed, 400, "validationFailed"))).toEqual(["account"]);
    expect(await dataSource.getRepository(TicketVoucherEntity).count()).toBe(vouchersBefore);
  });

  it("refuses a raffle that is not ACTIVE with 409 contractInactive and leaves it out of the list", async () => {
    const { id } = raffles.inactive;
    await dataSource.getRepository(ContractEntity).update({ id }, { contractStatus: ContractStatus.INACTIVE });

    expectProblem(await sign(id), 409, "contractInactive");
    const { body } = await harness.http.get("/raffle/contracts").query({ take: 100 }).set(auth()).expect(200);
    expect(body.rows.map((row: { id: number }) => row.id)).not.toContain(id);
    expect(body.count).toBe(body.rows.length);
    expect(await vouchersOf(id)).toBe(0);
  });

  it("never indexes, lists or signs for a look-alike raffle announced by anything but the platform's factory", async () => {
    const { world } = harness;
    const attacker = world.players[world.players.length - 1];
    const merchant = await world.merchant.getAddress();
    // The genuine bytecode pointed at the real Exchange, with the attacker's own "factory" behind it.
    const fakeFactory = await new LookAlikeFactory__factory(attacker).deploy();
    const lookAlike = await new Raffle__factory(attacker).deploy({
      admin: merchant,
      factory: await fakeFactory.getAddress(),
      exchange: world.deployment.exchange,
      ticketDeployer: world.deployment.ticketDeployer,
      commission: 0n,
      timeLagBeforeRelease: 86_400n,
      ticketName: "NATIVE Ticket",
      ticketSymbol: "TNATIVE",
    });
    const address = await lookAlike.getAddress();
    // Announced with the factory's own event, word for word, naming this merchant, from an address that is not it.
    const emitter = await new LogEmitter__factory(attacker).deploy();
    const log = RaffleFactory__factory.createInterface().encodeEventLog("RaffleDeployed", [
      merchant,
      address,
      await lookAlike.ticketContract(),
      0n,
      86_400n,
    ]);
    await (await emitter.emitLog(log.topics, log.data)).wait();

    // A raffle the factory deploys afterwards is indexed, so the indexer has read past the look-alike's events.
    const later = await deployTestRaffle(world, "NATIVE");
    const laterId = await indexedRaffleId(harness, key, later.raffle, false);
    const rows = await dataSource.getRepository(ContractEntity).find({ select: { id: true, address: true } });
    expect(rows.map((row) => row.address)).toContain(later.raffle);
    expect(rows.map((row) => row.address)).not.toContain(address);
    const { body } = await harness.http.get("/raffle/contracts").query({ take: 100 }).set(auth()).expect(200);
    expect(body.rows.map((row: { address: string }) => row.address)).not.toContain(address);
    // Nothing names it, so there is nothing to sign for: every id the API knows is a raffle of the factory or a token.
    expectProblem(await sign(Math.max(laterId, ...rows.map((row) => row.id)) + 1), 404, "contractNotFound");
  });

  it("answers 404 contractNotFound for another merchant's raffle and for an unknown id, never 403", async () => {
    const strangerKey = await harness.apiKey(Wallet.createRandom().address);
    const { id } = raffles.full;
    expectProblem(await sign(id, strangerKey), 404, "contractNotFound");
    expectProblem(await sign(2_147_483_647), 404, "contractNotFound");
  });
});
