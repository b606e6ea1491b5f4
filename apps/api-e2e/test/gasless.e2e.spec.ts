import { Wallet, parseUnits, type Signer } from "ethers";
import { createSiweMessage } from "viem/siwe";
import {
  PlainToken__factory,
  Raffle__factory,
  SigningWallet__factory,
  TokenType,
  allowPriceToken,
  deployMerchantRaffle,
  SmartWallet__factory,
  TestToken__factory,
  signClaimIntent,
  signRefundIntent,
  signPermit,
  signPurchaseAuthorization,
  signPurchaseIntent,
  localDevPrivateKey,
  tokenDomain,
} from "@raffle/chain";
import { RaffleApi, type FetchLike } from "@raffle/sdk";
import type { DataSource } from "typeorm";

import type { ApiConfig } from "../../api/src/config/api-config";
import { TICKETS_BY_SIG_INTERFACE } from "../../api/src/app/gasless/gasless-rules";
import { API_CONFIG, DATA_SOURCE } from "../../api/src/services/tokens";
import { buyTicket, deployTestRaffle, endAndDraw, type TestRaffle } from "@raffle/chain/testing";
import { eventually } from "@raffle/testing";

import { browserSessions, fastWebhooks, startApiHarness, type ApiHarness } from "./support/api-harness";
import { indexedRaffleId } from "./support/indexed-raffle";
import { expectProblem, fieldsOf } from "./support/problem";
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

  const claimJobsWith = async (apiKey: string): Promise<Job[]> =>
    (
      await harness.http
        .post("/relayer/claim")
        .set(auth(apiKey))
        .send({ chainId: harness.world.deployment.chainId, relayerId: "intruder" })
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
    expect(read.gasless).toEqual({ available: false, method: "authorization", tokenName: "Test Gold", tokenVersion: "1", claimsAndRefunds: false });

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
      expect(again.gasless).toMatchObject({ available: true, claimsAndRefunds: true });
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

  it("buys with a permit and a purchase intent through the SDK's buyWithoutGas, as a game backend does with its API key", async () => {
    const player = await tokenOnlyPlayer();
    const api = new RaffleApi({ baseUrl: "http://api.test", apiKey: key, fetch: injectFetch(harness) });
    const voucher = await api.signTicket({ account: player.address, contractId: raffle.id, quantity: 2 });
    const queued = await api.buyWithoutGas({
      voucher,
      contractId: raffle.id,
      exchange: harness.world.deployment.exchange,
      signer: player,
      method: "permit",
    });
    expect(queued).toMatchObject({ kind: "purchase", state: "queued", account: player.address, quantity: 2 });

    const jobs = await api.claimRelayJobs({ chainId: harness.world.deployment.chainId, relayerId: "relayer-sdk" });
    expect(jobs.map((job) => job.id)).toEqual([queued.id]);
    const txHash = await relay(jobs[0] as Job, "relayer-sdk");
    await api.reportRelayJobOutcome(queued.id, { relayerId: "relayer-sdk", outcome: "mined", txHash });
    const mined = await api.getGaslessRequest(queued.id);
    expect(mined).toMatchObject({ state: "mined", txHash });
    expect(mined.ticketIds).toHaveLength(2);
  });

  it("takes a contract wallet's ERC-1271 signature, and refuses wallets that do not vouch for it", async () => {
    const owner = Wallet.createRandom();
    const wallet = await new SigningWallet__factory(harness.world.admin).deploy(owner.address);
    await wallet.waitForDeployment();
    const account = await wallet.getAddress();
    await (await TestToken__factory.connect(harness.world.token, harness.world.admin).mint(account, parseUnits("100", 18))).wait();
    const api = new RaffleApi({ baseUrl: "http://api.test", apiKey: key, fetch: injectFetch(harness) });
    const chainId = harness.world.deployment.chainId;
    const submit = async (voucher: Awaited<ReturnType<RaffleApi["signTicket"]>>, signer: Signer, buyer: string) => {
      const signed = await signPurchaseAuthorization(signer, domain(), purchaseOf(voucher, buyer), BigInt(voucher.expiresAt));
      const authorization = { validAfter: "0", validBefore: String(voucher.expiresAt), signature: signed.signature };
      return harness.http.post("/gasless/purchases").set(auth(key)).send({ contractId: raffle.id, chainId, voucher, authorization });
    };

    const voucher = await api.signTicket({ account, contractId: raffle.id });
    // The wallet checks its owner's key: a stranger's signature is refused by the wallet itself, over the chain.
    expectProblem(await submit(voucher, Wallet.createRandom(), account), 422, "buyerSignatureInvalid");
    const accepted = await submit(voucher, owner, account);
    expect(accepted.status).toBe(202);
    const queued = accepted.body;
    const [job] = await claimJobs("relayer-a");
    expect(job.id).toBe(queued.id);
    await harness.http
      .post(`/relayer/jobs/${job.id}/outcome`)
      .set(auth(key))
      .send({ relayerId: "relayer-a", outcome: "mined", txHash: await relay(job, "relayer-a") })
      .expect(204);
    expect((await api.getGaslessRequest(queued.id)).state).toBe("mined");

    // A contract account without ERC-1271: its isValidSignature call reverts, which is a refusal, never a 500.
    const plain = await new SmartWallet__factory(harness.world.admin).deploy();
    await plain.waitForDeployment();
    const plainAccount = await plain.getAddress();
    await (await TestToken__factory.connect(harness.world.token, harness.world.admin).mint(plainAccount, parseUnits("100", 18))).wait();
    const plainVoucher = await api.signTicket({ account: plainAccount, contractId: raffle.id });
    expectProblem(await submit(plainVoucher, owner, plainAccount), 422, "buyerSignatureInvalid");
    // The game backend names another raffle than its voucher's, or another chain.
    const other = await api.signTicket({ account, contractId: raffle.id });
    const signed = await signPurchaseAuthorization(owner, domain(), purchaseOf(other, account), BigInt(other.expiresAt));
    const authorization = { validAfter: "0", validBefore: String(other.expiresAt), signature: signed.signature };
    expectProblem(
      await harness.http
        .post("/gasless/purchases")
        .set(auth(key))
        .send({ contractId: raffle.id + 1000, chainId, voucher: other, authorization }),
      422,
      "voucherUnknown",
    );
    expectProblem(
      await harness.http
        .post("/gasless/purchases")
        .set(auth(key))
        .send({ contractId: raffle.id, chainId: chainId + 1, voucher: other, authorization }),
      422,
      "voucherUnknown",
    );
    // Another merchant's key sees neither the voucher nor the request.
    const stranger = await harness.apiKey(Wallet.createRandom().address);
    expectProblem(
      await harness.http.post("/gasless/purchases").set(auth(stranger)).send({ contractId: raffle.id, chainId, voucher: other, authorization }),
      422,
      "voucherUnknown",
    );
    expectProblem(await harness.http.get(`/gasless/${queued.id}`).set(auth(stranger)), 404, "gaslessRequestNotFound");
    expect(await claimJobsWith(stranger)).toEqual([]);
  });

  it("refuses vouchers this API did not issue, another buyer's, altered terms and expired ones, by name", async () => {
    const alice = await tokenOnlyPlayer();
    const bob = await tokenOnlyPlayer();
    const aliceToken = await signIn(alice);
    const bobToken = await signIn(bob);
    const voucher = await voucherFor(aliceToken, 2);
    const post = (token: string, body: object) => harness.http.post("/player/gasless/purchases").set(auth(token)).send(body);

    // Another buyer's voucher, with a signature of that other buyer's: still not the session's purchase.
    expectProblem(await post(bobToken, await authorizationBody(alice, voucher)), 422, "voucherUnknown");
    // A nonce the API never issued.
    const madeUp = { ...voucher, nonce: `0x${"17".repeat(32)}`, params: { ...voucher.params, nonce: `0x${"17".repeat(32)}` } };
    expectProblem(await post(aliceToken, await authorizationBody(alice, madeUp)), 422, "voucherUnknown");
    // The buyer signs a purchase of more tickets, or at a lower price, than the API signed.
    const more = { ...voucher, item: { ...voucher.item, amount: "5" } };
    expectProblem(await post(aliceToken, await authorizationBody(alice, more)), 422, "voucherUnknown");
    const cheaper = { ...voucher, price: { ...voucher.price, amount: "1" } };
    expectProblem(await post(aliceToken, await authorizationBody(alice, cheaper)), 422, "voucherUnknown");
    // The voucher's nonce and its params' nonce must agree.
    expectProblem(
      await post(aliceToken, { ...(await authorizationBody(alice, voucher)), voucher: { ...voucher, nonce: madeUp.nonce } }),
      422,
      "voucherUnknown",
    );

    // A voucher that expires before a relayer could submit it.
    const config = harness.app.get<ApiConfig>(API_CONFIG);
    const ttl = config.signatureTtlSeconds;
    config.signatureTtlSeconds = 10;
    try {
      const shortLived = await voucherFor(aliceToken);
      expectProblem(await post(aliceToken, await authorizationBody(alice, shortLived)), 422, "voucherExpired");
    } finally {
      config.signatureTtlSeconds = ttl;
    }
  });

  it("refuses a signature that is not the buyer's for this very purchase", async () => {
    const alice = await tokenOnlyPlayer();
    const mallory = await tokenOnlyPlayer();
    const token = await signIn(alice);
    const voucher = await voucherFor(token);
    const post = (body: object) => harness.http.post("/player/gasless/purchases").set(auth(token)).send(body);
    const purchase = purchaseOf(voucher, alice.address);
    const expiry = BigInt(voucher.expiresAt);

    // Someone else's key signs the buyer's authorization.
    const forged = await signPurchaseAuthorization(mallory, domain(), purchase, expiry);
    const refused = expectProblem(
      await post({ voucher, authorization: { validAfter: "0", validBefore: expiry.toString(), signature: forged.signature } }),
      422,
      "buyerSignatureInvalid",
    );
    expect(refused.detail).toContain(alice.address);
    // A signature made for another purpose: the buyer's PurchaseIntent sent as its ERC-3009 authorization.
    const intent = await signPurchaseIntent(alice, purchase, expiry);
    expectProblem(
      await post({ voucher, authorization: { validAfter: "0", validBefore: expiry.toString(), signature: intent.signature } }),
      422,
      "buyerSignatureInvalid",
    );
    // The authorization signed with another validBefore than the one sent.
    const other = await signPurchaseAuthorization(alice, domain(), purchase, expiry + 60n);
    expectProblem(
      await post({ voucher, authorization: { validAfter: "0", validBefore: expiry.toString(), signature: other.signature } }),
      422,
      "buyerSignatureInvalid",
    );
    // An authorization as a permit's intent: the intent's own signature is checked.
    const auth3009 = await signPurchaseAuthorization(alice, domain(), purchase, expiry);
    expectProblem(await post({ voucher, intent: { deadline: expiry.toString(), signature: auth3009.signature } }), 422, "buyerSignatureInvalid");
    // A permit for another spender than the Exchange.
    const tokenContract = TestToken__factory.connect(harness.world.token, harness.world.provider);
    const permit = await signPermit(alice, domain(), {
      owner: alice.address,
      spender: mallory.address,
      value: BigInt(voucher.price.amount),
      nonce: await tokenContract.nonces(alice.address),
      deadline: expiry,
    });
    expectProblem(
      await post({
        voucher,
        intent: { deadline: expiry.toString(), signature: intent.signature },
        permit: { value: permit.value.toString(), deadline: permit.deadline.toString(), v: permit.v, r: permit.r, s: permit.s },
      }),
      422,
      "buyerSignatureInvalid",
    );
  });

  it("refuses authorizations and permits that do not fit the purchase, and a buyer who cannot pay", async () => {
    const alice = await tokenOnlyPlayer();
    const token = await signIn(alice);
    const voucher = await voucherFor(token);
    const post = (body: object) => harness.http.post("/player/gasless/purchases").set(auth(token)).send(body);
    const purchase = purchaseOf(voucher, alice.address);
    const now = BigInt(Math.floor(Date.now() / 1000));

    const passed = await signPurchaseAuthorization(alice, domain(), purchase, now - 5n);
    const mismatch = expectProblem(
      await post({ voucher, authorization: { validAfter: "0", validBefore: (now - 5n).toString(), signature: passed.signature } }),
      422,
      "authorizationMismatch",
    );
    expect(mismatch.detail).toContain("validBefore has passed");
    const later = await signPurchaseAuthorization(alice, domain(), purchase, BigInt(voucher.expiresAt), now + 3600n);
    expectProblem(
      await post({
        voucher,
        authorization: { validAfter: (now + 3600n).toString(), validBefore: String(voucher.expiresAt), signature: later.signature },
      }),
      422,
      "authorizationMismatch",
    );
    const good = await authorizationBody(alice, voucher);
    const intent = await signPurchaseIntent(alice, purchase, BigInt(voucher.expiresAt));
    expectProblem(
      await post({ ...good, intent: { deadline: String(voucher.expiresAt), signature: intent.signature } }),
      422,
      "authorizationMismatch",
    );
    expectProblem(await post({ voucher }), 422, "authorizationMismatch");
    // No permit and no allowance: nothing would let the Exchange take the price.
    expectProblem(
      await post({ voucher, intent: { deadline: String(voucher.expiresAt), signature: intent.signature } }),
      422,
      "authorizationMismatch",
    );
    const small = await signPermit(alice, domain(), {
      owner: alice.address,
      spender: harness.world.deployment.exchange,
      value: 1n,
      nonce: 0n,
      deadline: BigInt(voucher.expiresAt),
    });
    expectProblem(
      await post({
        voucher,
        intent: { deadline: String(voucher.expiresAt), signature: intent.signature },
        permit: { value: "1", deadline: String(voucher.expiresAt), v: small.v, r: small.r, s: small.s },
      }),
      422,
      "authorizationMismatch",
    );

    const poor = await tokenOnlyPlayer(parseUnits("1", 18));
    const poorToken = await signIn(poor);
    const poorVoucher = await voucherFor(poorToken);
    const refused = expectProblem(
      await harness.http
        .post("/player/gasless/purchases")
        .set(auth(poorToken))
        .send(await authorizationBody(poor, poorVoucher)),
      422,
      "insufficientBalance",
    );
    expect(refused.detail).toContain(poor.address);
  });

  it("answers hostile bodies and ids with 4xx, never 500, and writes nothing", async () => {
    const alice = await tokenOnlyPlayer();
    const token = await signIn(alice);
    const good = await authorizationBody(alice, await voucherFor(token));
    const post = (body: unknown) =>
      harness.http
        .post("/player/gasless/purchases")
        .set(auth(token))
        .send(body as object);
    const hostile: Array<[unknown, string[]]> = [
      [{ ...good, voucher: "the voucher" }, ["voucher"]],
      [{ ...good, voucher: { ...good.voucher, nonce: "0x123" } }, ["voucher.nonce"]],
      [{ ...good, voucher: { ...good.voucher, expiresAt: -1 } }, ["voucher.expiresAt"]],
      [{ ...good, voucher: { ...good.voucher, price: { ...good.voucher.price, amount: "-10" } } }, ["voucher.price.amount"]],
      [{ ...good, voucher: { ...good.voucher, params: { ...good.voucher.params, receiver: "0xZZ" } } }, ["voucher.params.receiver"]],
      [{ ...good, authorization: { ...good.authorization, signature: `0x${"a".repeat(131)}` } }, ["authorization.signature"]],
      [{ ...good, authorization: { ...good.authorization, signature: `0x${"ab".repeat(5000)}` } }, ["authorization.signature"]],
      [{ ...good, authorization: { ...good.authorization, validBefore: 12 } }, ["authorization.validBefore"]],
      [{ ...good, authorization: { ...good.authorization, validAfter: "1".repeat(79) } }, ["authorization.validAfter"]],
      [{ ...good, permit: { value: "1", deadline: "1", v: 300, r: "0x", s: "0x" } }, ["permit.r", "permit.s", "permit.v"]],
      [{ ...good, extra: "field" }, ["extra"]],
    ];
    for (const [body, fields] of hostile) expect(fieldsOf(expectProblem(await post(body), 400, "validationFailed"))).toEqual(fields);
    // Beyond uint256 but within 78 digits: refused as a voucher the API never signed.
    const huge = "9".repeat(78);
    expectProblem(await post({ ...good, voucher: { ...good.voucher, params: { ...good.voucher.params, externalId: huge } } }), 422, "voucherUnknown");
    expectProblem(await post({ ...good, authorization: { ...good.authorization, validBefore: huge } }), 422, "authorizationMismatch");
    expectProblem(
      await harness.http.post("/player/gasless/purchases").set(auth(token)).set("content-type", "application/json").send("[1"),
      400,
      "invalidJson",
    );

    for (const id of ["1", "not-a-uuid", "0b3f7a56-8c1d-4e2f-9a0b-1c2d3e4f5a6", "%E0%A4%A", "00000000-0000-0000-0000-000000000000"]) {
      const answer = await harness.http.get(`/player/gasless/${id}`).set(auth(token));
      expect([400, 404]).toContain(answer.status);
    }
    expectProblem(await harness.http.get("/player/gasless/not-a-uuid").set(auth(token)), 404, "gaslessRequestNotFound");
    expectProblem(await harness.http.get("/gasless/not-a-uuid").set(auth(key)), 404, "gaslessRequestNotFound");
    expectProblem(await harness.http.post("/relayer/jobs/xyz/sent").set(auth(key)).send({}), 404, "gaslessRequestNotFound");
    expectProblem(
      await harness.http.post("/relayer/claim").set(auth(key)).send({ chainId: harness.world.deployment.chainId, relayerId: "bad id!" }),
      400,
      "validationFailed",
    );
    expectProblem(
      await harness.http.post("/relayer/claim").set(auth(key)).send({ chainId: harness.world.deployment.chainId, relayerId: "a", limit: 501 }),
      400,
      "validationFailed",
    );
    expectProblem(await harness.http.post("/relayer/claim").set(auth(key)).send({ chainId: 999, relayerId: "a" }), 422, "chainNotServed");
    expectProblem(await harness.http.post("/relayer/claim").send({ chainId: 1, relayerId: "a" }), 401, "unauthorized");
    expectProblem(await harness.http.post("/player/gasless/purchases").set(auth(key)).send(good), 401, "sessionRequired");
    expect((await harness.http.get("/player/gasless").set(auth(token)).expect(200)).body.rows).toEqual([]);
  });

  it("leases each job to one relayer at a time, renews it for its holder, and moves an expired lease with its attempts", async () => {
    const ids: string[] = [];
    for (let index = 0; index < 6; index += 1) {
      const player = await tokenOnlyPlayer();
      const token = await signIn(player);
      const { body } = await harness.http
        .post("/player/gasless/purchases")
        .set(auth(token))
        .send(await authorizationBody(player, await voucherFor(token)))
        .expect(202);
      ids.push(body.id);
    }
    const [a, b] = await Promise.all([claimJobs("relayer-a", 4), claimJobs("relayer-b", 4)]);
    const leasedA = a.map((job) => job.id);
    const leasedB = b.map((job) => job.id);
    expect(leasedA.filter((id) => leasedB.includes(id))).toEqual([]);
    expect([...leasedA, ...leasedB].sort()).toEqual([...ids].sort());
    // A call of the holder answers what it holds again (resume after a restart), and leases nothing new.
    expect((await claimJobs("relayer-a", 4)).map((job) => job.id).sort()).toEqual([...leasedA].sort());

    // relayer-a sends one job's transaction, then goes silent: its lease expires and relayer-b gets the job, attempts and all.
    const moved = a[0];
    const sentHash = await relay(moved, "relayer-a");
    const dataSource = harness.app.get<DataSource>(DATA_SOURCE);
    await dataSource.query(`UPDATE gasless_request SET lease_expires_at = now() - interval '1 second' WHERE id = $1`, [moved.id]);
    const taken = (await claimJobs("relayer-b", 10)).find((job) => job.id === moved.id)!;
    expect(taken.attempts).toEqual([expect.objectContaining({ txHash: sentHash })]);
    expectProblem(
      await harness.http
        .post(`/relayer/jobs/${moved.id}/outcome`)
        .set(auth(key))
        .send({ relayerId: "relayer-a", outcome: "mined", txHash: sentHash }),
      409,
      "relayJobNotHeld",
    );
    await harness.http
      .post(`/relayer/jobs/${moved.id}/outcome`)
      .set(auth(key))
      .send({ relayerId: "relayer-b", outcome: "mined", txHash: sentHash })
      .expect(204);

    // The rest: relayed by whoever holds them.
    for (const job of a.slice(1)) {
      const hash = await relay(job, "relayer-a");
      await harness.http
        .post(`/relayer/jobs/${job.id}/outcome`)
        .set(auth(key))
        .send({ relayerId: "relayer-a", outcome: "mined", txHash: hash })
        .expect(204);
    }
    for (const job of b) {
      const hash = await relay(job, "relayer-b");
      await harness.http.post(`/relayer/jobs/${job.id}/outcome`).set(auth(key)).send({ relayerId: "relayer-b", outcome: "mined" }).expect(204);
      expect((await harness.http.get(`/gasless/${job.id}`).set(auth(key)).expect(200)).body.txHash).toBe(hash);
    }
    expect(await claimJobs("relayer-a")).toEqual([]);
  });

  it("believes no outcome the chain does not show: another transaction, a failure of a purchase that happened", async () => {
    const player = await tokenOnlyPlayer();
    const token = await signIn(player);
    const { body: queued } = await harness.http
      .post("/player/gasless/purchases")
      .set(auth(token))
      .send(await authorizationBody(player, await voucherFor(token)))
      .expect(202);
    const [job] = await claimJobs("relayer-a");
    expect(job.id).toBe(queued.id);
    const report = (body: object) =>
      harness.http
        .post(`/relayer/jobs/${job.id}/outcome`)
        .set(auth(key))
        .send({ relayerId: "relayer-a", ...body });

    // Mined with a hash never reported as sent; then a transaction to the Exchange that is not the job's.
    expectProblem(await report({ outcome: "mined", txHash: `0x${"ab".repeat(32)}` }), 409, "outcomeUnverified");
    const decoy = await relayerWallet.sendTransaction({ to: await relayerWallet.getAddress(), value: 1n });
    await harness.http
      .post(`/relayer/jobs/${job.id}/sent`)
      .set(auth(key))
      .send({ relayerId: "relayer-a", txHash: decoy.hash, nonce: decoy.nonce, maxFeePerGas: "1", maxPriorityFeePerGas: "1" })
      .expect(204);
    await decoy.wait();
    expectProblem(await report({ outcome: "mined", txHash: decoy.hash }), 409, "outcomeUnverified");
    // Another relayer cannot report on a job it does not hold.
    expectProblem(
      await harness.http
        .post(`/relayer/jobs/${job.id}/sent`)
        .set(auth(key))
        .send({ relayerId: "relayer-b", txHash: decoy.hash, nonce: 1, maxFeePerGas: "1", maxPriorityFeePerGas: "1" }),
      409,
      "relayJobNotHeld",
    );
    // The real transaction, then a claim that it failed: refused, the purchase happened.
    const real = await relay(job, "relayer-a");
    expectProblem(await report({ outcome: "failed", failureCode: "roundFull" }), 409, "outcomeUnverified");
    await report({ outcome: "mined", txHash: real }).expect(204);
    // A final job takes no more reports; a repeated "mined" of the same transaction is no change.
    await report({ outcome: "mined", txHash: real }).expect(204);
    expectProblem(await report({ outcome: "failed" }), 409, "relayJobNotHeld");
    const another = await harness.app.get<DataSource>(DATA_SOURCE).query(`SELECT attempts FROM gasless_request WHERE id = $1`, [job.id]);
    expect(another[0].attempts.map((attempt: { txHash: string }) => attempt.txHash)).toEqual([decoy.hash, real]);
  });

  it("queues a signed purchase sent twice at once exactly once, and fails a queued one nobody sent before its deadline", async () => {
    const player = await tokenOnlyPlayer();
    const token = await signIn(player);
    const body = await authorizationBody(player, await voucherFor(token));
    const answers = await Promise.all([0, 1, 2].map(() => harness.http.post("/player/gasless/purchases").set(auth(token)).send(body)));
    const accepted = answers.filter((answer) => answer.status === 202);
    expect(accepted).toHaveLength(1);
    for (const answer of answers.filter((entry) => entry.status !== 202)) {
      expect(expectProblem(answer, 409, "gaslessDuplicate").existingId).toBe(accepted[0].body.id);
    }

    // Its deadline passes while queued (made so here, rather than waiting out a voucher): the next claim fails it.
    const id = accepted[0].body.id;
    await harness.app.get<DataSource>(DATA_SOURCE).query(`UPDATE gasless_request SET not_after = 1 WHERE id = $1`, [id]);
    expect(await claimJobs("relayer-a")).toEqual([]);
    const failed = (await harness.http.get(`/player/gasless/${id}`).set(auth(token)).expect(200)).body;
    expect(failed).toMatchObject({ state: "failed", failureCode: "voucherExpired", txHash: null });
    expect(failed.failureReason).toBe("Your purchase could not be sent before it expired; your tokens did not move.");
    await eventually(async () => {
      expect(receiver.received.some((entry) => entry.body.type === "gasless.failed" && (entry.body.data as { id: string }).id === id)).toBe(true);
    });
  });

  it("keeps a player to the merchant's daily limit and a merchant to its gas budget; a failure reads as a sentence and is announced", async () => {
    await settings({ enabled: true, dailyGasBudgetWei: parseUnits("1", 18).toString(), perPlayerDailyLimit: 1 }).expect(200);
    const player = await tokenOnlyPlayer();
    const token = await signIn(player);
    const { body: first } = await harness.http
      .post("/player/gasless/purchases")
      .set(auth(token))
      .send(await authorizationBody(player, await voucherFor(token)))
      .expect(202);
    const limited = expectProblem(
      await harness.http
        .post("/player/gasless/purchases")
        .set(auth(token))
        .send(await authorizationBody(player, await voucherFor(token))),
      429,
      "gaslessPlayerLimitReached",
    );
    expect(limited.detail).toContain("1 purchases");

    const [job] = await claimJobs("relayer-a");
    expect(job.id).toBe(first.id);
    await harness.http
      .post(`/relayer/jobs/${job.id}/outcome`)
      .set(auth(key))
      .send({ relayerId: "relayer-a", outcome: "failed", failureCode: "roundFull" })
      .expect(204);
    const failed = (await harness.http.get(`/player/gasless/${first.id}`).set(auth(token)).expect(200)).body;
    expect(failed).toMatchObject({
      state: "failed",
      failureCode: "roundFull",
      failureReason: "Your purchase came too late: the round sold out; your tokens did not move.",
    });
    await eventually(async () => {
      const message = receiver.received.find((entry) => entry.body.type === "gasless.failed" && (entry.body.data as { id: string }).id === first.id);
      expect(message?.body.data).toEqual(failed);
    });
    // A failure that never sent a transaction does not count against the player's day.
    await harness.http
      .post("/player/gasless/purchases")
      .set(auth(token))
      .send(await authorizationBody(player, await voucherFor(token)))
      .expect(202);
    const [again] = await claimJobs("relayer-a");
    await harness.http.post(`/relayer/jobs/${again.id}/outcome`).set(auth(key)).send({ relayerId: "relayer-a", outcome: "failed" }).expect(204);
    expect((await harness.http.get(`/player/gasless/${again.id}`).set(auth(token)).expect(200)).body.failureReason).toBe(
      "Your purchase could not be completed; your tokens did not move.",
    );

    // Today's relayed purchases already cost more than a budget of 1 wei: a new purchase is refused, and one queued
    // before the budget shrank fails with a sentence instead of being leased.
    await settings({ enabled: true, dailyGasBudgetWei: parseUnits("1", 18).toString(), perPlayerDailyLimit: 20 }).expect(200);
    const waiting = await tokenOnlyPlayer();
    const waitingToken = await signIn(waiting);
    const { body: queuedBefore } = await harness.http
      .post("/player/gasless/purchases")
      .set(auth(waitingToken))
      .send(await authorizationBody(waiting, await voucherFor(waitingToken)))
      .expect(202);
    await settings({ enabled: true, dailyGasBudgetWei: "1", perPlayerDailyLimit: 20 }).expect(200);
    const other = await tokenOnlyPlayer();
    const otherToken = await signIn(other);
    expectProblem(
      await harness.http
        .post("/player/gasless/purchases")
        .set(auth(otherToken))
        .send(await authorizationBody(other, await voucherFor(otherToken))),
      409,
      "gaslessBudgetExhausted",
    );
    expect(await claimJobs("relayer-a")).toEqual([]);
    expect((await harness.http.get(`/player/gasless/${queuedBefore.id}`).set(auth(waitingToken)).expect(200)).body).toMatchObject({
      state: "failed",
      failureCode: "gaslessBudgetExhausted",
      failureReason: "Your purchase could not be relayed: the merchant's gas budget for today is spent; your tokens did not move.",
    });
    await settings({ enabled: true, dailyGasBudgetWei: parseUnits("1", 18).toString(), perPlayerDailyLimit: 20 }).expect(200);
  });

  it("offers nothing for a price token with neither ERC-3009 nor EIP-2612, and refuses a purchase in it", async () => {
    const plain = await new PlainToken__factory(harness.world.admin).deploy();
    await plain.waitForDeployment();
    const plainAddress = await plain.getAddress();
    await allowPriceToken(harness.world.admin, harness.world.deployment.raffleFactory, plainAddress);
    const deployed = await deployMerchantRaffle(harness.world.merchant, {
      factory: harness.world.deployment.raffleFactory,
      commission: 1_000n,
      timeLagBeforeRelease: 86_400n,
      ticketName: "Plain Ticket",
      ticketSymbol: "TPLAIN",
      firstRound: { price: { tokenType: TokenType.ERC20, token: plainAddress, tokenId: 0n, amount: 10n }, maxTicket: 100n },
    });
    const id = await indexedRaffleId(harness, key, deployed.raffle);
    await harness.http.put(`/raffle/contracts/${id}/public-sale`).set(auth(key)).send({ publicSale: true }).expect(200);
    // The merchant relays: its prizes and refunds go without gas whatever the price token, a purchase in this one cannot.
    await claimJobs("relayer-a");
    expect((await harness.http.get(`/player/raffles/${id}`).expect(200)).body.gasless).toEqual({
      available: false,
      method: null,
      tokenName: null,
      tokenVersion: null,
      claimsAndRefunds: true,
    });
    const player = await tokenOnlyPlayer();
    await (await plain.mint(player.address, 1000n)).wait();
    const token = await signIn(player);
    const voucher = (await harness.http.post("/player/vouchers").set(auth(token)).send({ contractId: id }).expect(200)).body;
    const refused = expectProblem(
      await harness.http
        .post("/player/gasless/purchases")
        .set(auth(token))
        .send(await authorizationBody(player, voucher)),
      409,
      "gaslessUnavailable",
    );
    expect(refused.detail).toContain("neither ERC-3009 nor EIP-2612");
  });

  it("refuses a voucher of a round that closed", async () => {
    const deployed = await deployTestRaffle(harness.world, "ERC20", 1000n);
    const closing = { deployed, id: await indexedRaffleId(harness, key, deployed.raffle) };
    await harness.http.put(`/raffle/contracts/${closing.id}/public-sale`).set(auth(key)).send({ publicSale: true }).expect(200);
    const player = await tokenOnlyPlayer();
    const token = await signIn(player);
    const voucher = (await harness.http.post("/player/vouchers").set(auth(token)).send({ contractId: closing.id }).expect(200)).body;
    const body = await authorizationBody(player, voucher);
    await (await Raffle__factory.connect(deployed.raffle, harness.world.merchant).endRound()).wait();
    await eventually(async () => {
      const { body: read } = await harness.http.get(`/player/raffles/${closing.id}`).expect(200);
      if (!read.round.endTimestamp) throw new Error("the round's end is not indexed yet");
    });
    expectProblem(await harness.http.post("/player/gasless/purchases").set(auth(token)).send(body), 409, "roundClosed");
  });

  it("queues a holder's signed claim of its own tickets only, with the calldata of claimPrizesBySig", async () => {
    const holder = await tokenOnlyPlayer();
    const token = await signIn(holder);
    const { body: queued } = await harness.http
      .post("/player/gasless/purchases")
      .set(auth(token))
      .send(await authorizationBody(holder, await voucherFor(token, 2)))
      .expect(202);
    const [job] = await claimJobs("relayer-a");
    await harness.http
      .post(`/relayer/jobs/${job.id}/outcome`)
      .set(auth(key))
      .send({ relayerId: "relayer-a", outcome: "mined", txHash: await relay(job, "relayer-a") })
      .expect(204);
    const { ticketIds } = (await harness.http.get(`/player/gasless/${queued.id}`).set(auth(token)).expect(200)).body;
    const roundId = (await harness.http.get(`/player/raffles/${raffle.id}`).expect(200)).body.round.roundId;
    await eventually(async () => {
      const { body } = await harness.http.get("/player/tickets").set(auth(token)).expect(200);
      if (body.rows.length < 2) throw new Error("tickets not indexed yet");
    });

    const deadline = BigInt(Math.floor(Date.now() / 1000) + 3600);
    const tickets = ticketIds.map((ticketId: string) => ({ roundId: BigInt(roundId), ticketId: BigInt(ticketId) }));
    const intent = {
      chainId: harness.world.deployment.chainId,
      exchange: harness.world.deployment.exchange,
      raffle: raffle.deployed.raffle,
      holder: holder.address,
      tickets,
      deadline,
    };
    const { signature } = await signClaimIntent(holder, intent, deadline);
    const body = {
      contractId: raffle.id,
      tickets: ticketIds.map((ticketId: string) => ({ roundId: String(roundId), ticketId })),
      deadline: deadline.toString(),
      signature,
    };
    const post = (route: string, sessionToken: string, sent: object) =>
      harness.http.post(`/player/gasless/${route}`).set(auth(sessionToken)).send(sent);

    // Another player sends the holder's signature: not its tickets, nor its signature.
    const stranger = await tokenOnlyPlayer();
    const strangerToken = await signIn(stranger);
    expectProblem(await post("claims", strangerToken, body), 422, "buyerSignatureInvalid");
    expectProblem(
      await post("claims", strangerToken, {
        ...body,
        signature: (await signClaimIntent(stranger, { ...intent, holder: stranger.address }, deadline)).signature,
      }),
      422,
      "notTicketHolder",
    );
    // The claim's signature sent as a refund's: another purpose.
    expectProblem(await post("refunds", token, body), 422, "buyerSignatureInvalid");
    expectProblem(await post("claims", token, { ...body, deadline: "1" }), 422, "voucherExpired");
    expectProblem(await post("claims", token, { ...body, contractId: 2_000_000 }), 404, "publicRaffleNotFound");
    expect(fieldsOf(expectProblem(await post("claims", token, { ...body, tickets: [] }), 400, "validationFailed"))).toEqual(["tickets"]);

    const { body: claim } = await post("claims", token, body).expect(202);
    expect(claim).toMatchObject({ kind: "claim", state: "queued", account: holder.address, quantity: null });
    expect(expectProblem(await post("claims", token, body), 409, "gaslessDuplicate").existingId).toBe(claim.id);
    const [claimJob] = await claimJobs("relayer-a");
    expect(claimJob).toMatchObject({ id: claim.id, kind: "claim", to: harness.world.deployment.exchange, notAfter: Number(deadline) });
    const decoded = TICKETS_BY_SIG_INTERFACE.decodeFunctionData("claimPrizesBySig", claimJob.data);
    expect(decoded.raffle).toBe(raffle.deployed.raffle);
    expect(decoded.holder).toBe(holder.address);
    expect(decoded.tickets.map((ticket: { ticketId: bigint }) => ticket.ticketId.toString())).toEqual(ticketIds);
    expect(decoded.signature).toBe(signature);
    await harness.http
      .post(`/relayer/jobs/${claim.id}/outcome`)
      .set(auth(key))
      .send({ relayerId: "relayer-a", outcome: "failed", failureCode: "noPrizeToClaim" })
      .expect(204);
    expect((await harness.http.get(`/player/gasless/${claim.id}`).set(auth(token)).expect(200)).body.failureReason).toBe(
      "Your prize claim found no prize to pay; your tickets are unchanged; you can claim again.",
    );

    // The same tickets' refund, on the holder's RefundIntent: refundTicketsBySig's calldata.
    const { signature: refundSignature } = await signRefundIntent(holder, intent, deadline);
    const { body: refund } = await post("refunds", token, { ...body, signature: refundSignature }).expect(202);
    expect(refund).toMatchObject({ kind: "refund", state: "queued", account: holder.address });
    const [refundJob] = await claimJobs("relayer-a");
    expect(refundJob.id).toBe(refund.id);
    const refundArgs = TICKETS_BY_SIG_INTERFACE.decodeFunctionData("refundTicketsBySig", refundJob.data);
    expect([refundArgs.holder, refundArgs.signature]).toEqual([holder.address, refundSignature]);
    await harness.http.post(`/relayer/jobs/${refund.id}/outcome`).set(auth(key)).send({ relayerId: "relayer-a", outcome: "failed" }).expect(204);
  });

  it("offers claims and refunds without gas for a raffle priced in ETH, and relays its prize to the holder, who pays no gas", async () => {
    const deployed = await deployTestRaffle(harness.world, "NATIVE", 100n);
    const id = await indexedRaffleId(harness, key, deployed.raffle);
    await harness.http.put(`/raffle/contracts/${id}/public-sale`).set(auth(key)).send({ publicSale: true }).expect(200);
    await claimJobs("relayer-a");
    const offered = async () => (await harness.http.get(`/player/raffles/${id}`).expect(200)).body.gasless;
    // No purchase without gas in ETH (there is no token to sign for), but the holder's signature claims and refunds.
    expect(await offered()).toEqual({ available: false, method: null, tokenName: null, tokenVersion: null, claimsAndRefunds: true });
    const on = { enabled: true, dailyGasBudgetWei: parseUnits("1", 18).toString(), perPlayerDailyLimit: 20 };
    await settings({ ...on, enabled: false }).expect(200);
    await eventually(async () => expect((await offered()).claimsAndRefunds).toBe(false));
    await settings(on).expect(200);
    await eventually(async () => expect((await offered()).claimsAndRefunds).toBe(true));

    const holder = new Wallet(localDevPrivateKey(6), harness.world.provider);
    const ticketId = await buyTicket(harness.world, deployed, holder);
    await endAndDraw(harness.world, deployed);
    const token = await signIn(holder);
    const won = await eventually(async () => {
      const { body } = await harness.http.get("/player/tickets").set(auth(token)).expect(200);
      const row = body.rows.find(
        (each: { raffle: string; tokenId: string }) => each.raffle === deployed.raffle && each.tokenId === ticketId.toString(),
      );
      if (row?.state !== "WON") throw new Error("the win is not indexed yet");
      return row as { roundId: string; prize: string };
    });
    const deadline = BigInt(Math.floor(Date.now() / 1000) + 3600);
    const tickets = [{ roundId: BigInt(won.roundId), ticketId }];
    const place = { chainId: harness.world.deployment.chainId, exchange: harness.world.deployment.exchange, raffle: deployed.raffle };
    const { signature } = await signClaimIntent(holder, { ...place, holder: holder.address, tickets }, deadline);
    const { body: claim } = await harness.http
      .post("/player/gasless/claims")
      .set(auth(token))
      .send({ contractId: id, tickets: [{ roundId: won.roundId, ticketId: ticketId.toString() }], deadline: deadline.toString(), signature })
      .expect(202);
    const [job] = await claimJobs("relayer-a");
    expect(job).toMatchObject({ id: claim.id, kind: "claim" });
    const before = await harness.world.provider.getBalance(holder.address);
    const txHash = await relay(job, "relayer-a");
    await harness.http.post(`/relayer/jobs/${job.id}/outcome`).set(auth(key)).send({ relayerId: "relayer-a", outcome: "mined", txHash }).expect(204);
    // The prize in ETH, exactly, to the holder; the relayer paid the gas.
    expect((await harness.world.provider.getBalance(holder.address)) - before).toBe(BigInt(won.prize));
    expect(BigInt(won.prize)).toBeGreaterThan(0n);
    await eventually(async () =>
      expect((await harness.http.get(`/player/gasless/${claim.id}`).set(auth(token)).expect(200)).body.state).toBe("mined"),
    );
  });
});

/** The SDK's fetch, answered by the API in process (Fastify's inject): no port. */
function injectFetch(harness: ApiHarness): FetchLike {
  const fastify = harness.app.getHttpAdapter().getInstance();
  return async (url, init) => {
    const { pathname, search } = new URL(url);
    const answer = await fastify.inject({ method: init.method as "GET", url: `${pathname}${search}`, headers: init.headers, payload: init.body });
    return { ok: answer.statusCode < 300, status: answer.statusCode, text: async () => answer.body };
  };
}
