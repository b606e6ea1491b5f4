import { Wallet, parseUnits, type Signer } from "ethers";
import { createSiweMessage } from "viem/siwe";
import { TestToken__factory, signPurchaseAuthorization, tokenDomain } from "@raffle/chain";
import { deployTestRaffle, type TestRaffle } from "@raffle/chain/testing";
import { eventually } from "@raffle/testing";

import { browserSessions, fastWebhooks, startApiHarness, type ApiHarness } from "./support/api-harness";
import { indexedRaffleId } from "./support/indexed-raffle";
import { expectProblem } from "./support/problem";
import { WebhookReceiver } from "./support/webhook-receiver";

const WEB_ORIGIN = "http://127.0.0.1:5173";

/**
 * Gasless purchases through the real API, PostgreSQL and a Hardhat chain (issue #52): a player with no ETH signs, the
 * API checks and queues, the test plays the merchant's relayer with the routes the merchant worker calls, and the API
 * verifies what it reports from the chain.
 */
describe("gasless purchases: the API's mailbox", () => {
  let harness: ApiHarness;
  let key: string;
  let raffle: { deployed: TestRaffle; id: number };
  let relayerWallet: Signer;
  const receiver = new WebhookReceiver();
  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

  beforeAll(async () => {
    harness = await startApiHarness("gasless", {
      player: browserSessions(WEB_ORIGIN),
      webhooks: fastWebhooks({ pollIntervalMs: 50, retryBaseMs: 100, timeoutMs: 2000 }),
    });
    await receiver.start();
    key = await harness.apiKey(await harness.world.merchant.getAddress());
    const deployed = await deployTestRaffle(harness.world, "ERC20", 1000n);
    raffle = { deployed, id: await indexedRaffleId(harness, key, deployed.raffle) };
    await harness.http.put(`/raffle/contracts/${raffle.id}/public-sale`).set(auth(key)).send({ publicSale: true }).expect(200);
    relayerWallet = harness.world.players[3];
    const { body: hook } = await harness.http
      .post("/webhooks")
      .set(auth(key))
      .send({ url: receiver.url, events: ["gasless.sent", "gasless.mined", "gasless.failed"] })
      .expect(201);
    receiver.secrets = [hook.secret];
  });

  afterAll(async () => {
    await receiver.close();
    await harness?.close();
  });

  /** A player holding only the price token: no ETH at all. */
  async function tokenOnlyPlayer(amount = parseUnits("100", 18)): Promise<Wallet> {
    const wallet = Wallet.createRandom().connect(harness.world.provider) as unknown as Wallet;
    const token = TestToken__factory.connect(harness.world.token, harness.world.admin);
    await (await token.mint(wallet.address, amount)).wait();
    return wallet;
  }

  async function signIn(wallet: Wallet): Promise<string> {
    const { body } = await harness.http.post("/player/siwe/nonce").expect(200);
    const now = Date.now();
    const message = createSiweMessage({
      domain: "127.0.0.1:5173",
      uri: WEB_ORIGIN,
      address: wallet.address as `0x${string}`,
      chainId: harness.world.deployment.chainId,
      version: "1",
      nonce: body.nonce,
      issuedAt: new Date(now),
      expirationTime: new Date(now + 30 * 60_000),
      statement: "Sign in to buy raffle tickets.",
    });
    const { body: session } = await harness.http
      .post("/player/siwe/verify")
      .send({ message, signature: await wallet.signMessage(message) })
      .expect(200);
    return session.token;
  }

  const settings = (body: { enabled: boolean; dailyGasBudgetWei: string; perPlayerDailyLimit: number }) =>
    harness.http.put("/merchant/gasless").set(auth(key)).send(body);

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the voucher JSON as the API answers it
  async function voucherFor(token: string, quantity = 1): Promise<any> {
    return (await harness.http.post("/player/vouchers").set(auth(token)).send({ contractId: raffle.id, quantity }).expect(200)).body;
  }

  const domain = () => tokenDomain("Test Gold", "1", harness.world.deployment.chainId, harness.world.token);

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  function purchaseOf(voucher: any, account: string) {
    return {
      chainId: harness.world.deployment.chainId,
      exchange: harness.world.deployment.exchange,
      voucher: { account, params: voucher.params, item: voucher.item, price: voucher.price },
    };
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async function authorizationBody(wallet: Wallet, voucher: any) {
    const signed = await signPurchaseAuthorization(wallet, domain(), purchaseOf(voucher, wallet.address), BigInt(voucher.expiresAt));
    return { voucher, authorization: { validAfter: "0", validBefore: signed.validBefore.toString(), signature: signed.signature } };
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  type Job = { id: string; kind: string; to: string; data: string; notAfter: number; attempts: any[]; leaseExpiresAt: string };

  const claimJobs = async (relayerId: string, limit?: number): Promise<Job[]> =>
    (
      await harness.http
        .post("/relayer/claim")
        .set(auth(key))
        .send({ chainId: harness.world.deployment.chainId, relayerId, ...(limit ? { limit } : {}) })
        .expect(200)
    ).body.jobs;

  /** What the merchant worker does with a job: send it with its own key and report the transaction. */
  async function relay(job: Job, relayerId: string): Promise<string> {
    const tx = await relayerWallet.sendTransaction({ to: job.to, data: job.data });
    await harness.http
      .post(`/relayer/jobs/${job.id}/sent`)
      .set(auth(key))
      .send({
        relayerId,
        txHash: tx.hash,
        nonce: tx.nonce,
        maxFeePerGas: String(tx.maxFeePerGas ?? 0n),
        maxPriorityFeePerGas: String(tx.maxPriorityFeePerGas ?? 0n),
      })
      .expect(204);
    await tx.wait();
    return tx.hash;
  }

  it("is off until the merchant turns it on, and the raffle read says so", async () => {
    const { body } = await harness.http.get("/merchant/gasless").set(auth(key)).expect(200);
    expect(body).toEqual({ enabled: false, dailyGasBudgetWei: "0", perPlayerDailyLimit: 20, spentTodayWei: "0", relayerLastSeenAt: null });
    const read = (await harness.http.get(`/player/raffles/${raffle.id}`).expect(200)).body;
    expect(read.gasless).toEqual({ available: false, method: "authorization", tokenName: "Test Gold", tokenVersion: "1" });

    const player = await tokenOnlyPlayer();
    const token = await signIn(player);
    expectProblem(
      await harness.http
        .post("/player/gasless/purchases")
        .set(auth(token))
        .send(await authorizationBody(player, await voucherFor(token))),
      409,
      "gaslessUnavailable",
    );
    expectProblem(await settings({ enabled: true, dailyGasBudgetWei: "-1", perPlayerDailyLimit: 5 }), 400, "validationFailed");
    expectProblem(await settings({ enabled: true, dailyGasBudgetWei: "1e18", perPlayerDailyLimit: 5 }), 400, "validationFailed");
    expectProblem(await settings({ enabled: "yes" as unknown as boolean, dailyGasBudgetWei: "1", perPlayerDailyLimit: 5 }), 400, "validationFailed");
    const set = (await settings({ enabled: true, dailyGasBudgetWei: parseUnits("1", 18).toString(), perPlayerDailyLimit: 20 }).expect(200)).body;
    expect(set).toMatchObject({ enabled: true, dailyGasBudgetWei: "1000000000000000000", perPlayerDailyLimit: 20, spentTodayWei: "0" });

    // Available only once a relayer of the merchant asks for jobs.
    expect(await claimJobs("relayer-a")).toEqual([]);
    await eventually(async () => {
      const again = (await harness.http.get(`/player/raffles/${raffle.id}`).expect(200)).body;
      expect(again.gasless.available).toBe(true);
    });
    expect((await harness.http.get("/merchant/gasless").set(auth(key)).expect(200)).body.relayerLastSeenAt).toEqual(expect.any(String));
  });

  it("buys with one ERC-3009 signature from a wallet with no ETH: queued, leased, sent, mined with its tickets, announced", async () => {
    const player = await tokenOnlyPlayer();
    expect(await harness.world.provider.getBalance(player.address)).toBe(0n);
    const token = await signIn(player);
    const voucher = await voucherFor(token, 3);
    const body = await authorizationBody(player, voucher);
    const { body: queued } = await harness.http.post("/player/gasless/purchases").set(auth(token)).send(body).expect(202);
    expect(queued).toMatchObject({
      kind: "purchase",
      state: "queued",
      chainId: harness.world.deployment.chainId,
      contractId: raffle.id,
      account: player.address,
      quantity: 3,
      txHash: null,
      ticketIds: [],
      failureCode: null,
      failureReason: null,
    });
    // The same signed body again: the same request, never a second one.
    const replay = expectProblem(await harness.http.post("/player/gasless/purchases").set(auth(token)).send(body), 409, "gaslessDuplicate");
    expect(replay.existingId).toBe(queued.id);

    const [job] = await claimJobs("relayer-a");
    expect(job).toMatchObject({ id: queued.id, kind: "purchase", to: harness.world.deployment.exchange, notAfter: voucher.expiresAt, attempts: [] });
    const txHash = await relay(job, "relayer-a");
    expect((await harness.http.get(`/player/gasless/${queued.id}`).set(auth(token)).expect(200)).body).toMatchObject({ state: "sent", txHash });
    await harness.http.post(`/relayer/jobs/${job.id}/outcome`).set(auth(key)).send({ relayerId: "relayer-a", outcome: "mined", txHash }).expect(204);

    const mined = (await harness.http.get(`/player/gasless/${queued.id}`).set(auth(token)).expect(200)).body;
    expect(mined).toMatchObject({ state: "mined", txHash });
    expect(mined.ticketIds).toHaveLength(3);
    const balance = await TestToken__factory.connect(harness.world.token, harness.world.provider).balanceOf(player.address);
    expect(balance).toBe(parseUnits("100", 18) - BigInt(voucher.price.amount));
    expect((await harness.http.get(`/gasless/${queued.id}`).set(auth(key)).expect(200)).body).toEqual(mined);
    expect((await harness.http.get("/player/gasless").set(auth(token)).expect(200)).body.rows).toEqual([mined]);
    const spent = (await harness.http.get("/merchant/gasless").set(auth(key)).expect(200)).body.spentTodayWei;
    expect(BigInt(spent)).toBeGreaterThan(0n);

    await eventually(async () => {
      const types = receiver.received
        .filter((message) => (message.body.data as { id?: string }).id === queued.id)
        .map((message) => message.body.type);
      expect(types).toEqual(["gasless.sent", "gasless.mined"]);
    });
    const minedMessage = receiver.received.find((message) => message.body.type === "gasless.mined")!;
    expect(minedMessage.verified).toBe(true);
    expect(minedMessage.body.data).toEqual(mined);
  });
});
