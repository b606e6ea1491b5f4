import request from "supertest";
import { Wallet, ZeroAddress, parseEther } from "ethers";
import { Raffle__factory, VRFCoordinatorV2_5Mock__factory } from "@raffle/chain";
import { VRF_FULFILMENT_GAS, buyTicket, deployTestRaffle } from "@raffle/chain/testing";
import type { TestDatabase } from "@raffle/db/testing";
import { eventually, prometheusSample as sample } from "@raffle/testing";

import { ApiKeyService } from "../../api/src/app/auth/api-key.service";
import { createApp } from "../../api/src/app/create-app";
import { loadApiConfig, type ApiConfig } from "../../api/src/config/api-config";
import { fastWebhooks } from "./support/api-harness";
import { expectProblem } from "./support/problem";
import { captureOutput } from "./support/output-capture";
import { startTwoChainApi, type TestChain as Chain, type TwoChainApi } from "./support/two-chain-api";
import { WebhookReceiver } from "./support/webhook-receiver";

/**
 * The operator's view of one API serving two chains (issue #21): Prometheus metrics at /metrics and the indexers'
 * status at /status, without an API key; request ids on service log lines; no secret in any log line.
 */
describe("metrics, status and logs", () => {
  const chains: Chain[] = [];
  let served: TwoChainApi;
  let database: TestDatabase;
  let config: ApiConfig;
  let http: ReturnType<typeof request>;
  let key: string;
  const auth = () => ({ Authorization: `Bearer ${key}` });
  const metrics = async () => {
    const response = await http.get("/metrics").expect(200);
    expect(response.headers["content-type"]).toBe("text/plain; version=0.0.4; charset=utf-8");
    return response.text;
  };

  beforeAll(async () => {
    // The VRF balance is read each chain check; webhooks to the test's receiver on 127.0.0.1, retried quickly.
    served = await startTwoChainApi(
      "metrics",
      {},
      { chainCheckIntervalMs: 1000, webhooks: fastWebhooks({ pollIntervalMs: 50, retryBaseMs: 100, retryMaxDelayMs: 200 }) },
    );
    chains.push(...served.chains);
    ({ database, config, http, key } = served);
  }, 90_000);

  afterAll(async () => {
    await served?.close();
  });

  const sign = (chain: Chain, requestId = `sign-${Date.now()}`) =>
    http
      .post("/raffle/ticket/sign")
      .set(auth())
      .set("x-request-id", requestId)
      .send({ account: Wallet.createRandom().address, referrer: ZeroAddress, contractId: chain.contractId })
      .expect(200);

  it("counts signed vouchers per chain and times requests by route template and status", async () => {
    const before = await metrics();
    const signedBefore = (chainId: number) => sample(before, "raffle_api_vouchers_signed_total", { chainId: String(chainId) }) ?? 0;
    await sign(chains[0]);
    await sign(chains[0]);
    await sign(chains[1]);
    await http.get("/claims/987654").set(auth());
    await http.get("/no/such/path/42");

    const after = await metrics();
    expect(sample(after, "raffle_api_vouchers_signed_total", { chainId: String(chains[0].chainId) })).toBe(signedBefore(chains[0].chainId) + 2);
    expect(sample(after, "raffle_api_vouchers_signed_total", { chainId: String(chains[1].chainId) })).toBe(signedBefore(chains[1].chainId) + 1);
    const signRoute = { route: "POST /raffle/ticket/sign", status: "200" };
    expect(sample(after, "raffle_api_request_duration_seconds_count", signRoute)).toBeGreaterThanOrEqual(3);
    expect(sample(after, "raffle_api_request_duration_seconds_bucket", { ...signRoute, le: "+Inf" })).toBe(
      sample(after, "raffle_api_request_duration_seconds_count", signRoute),
    );
    // The route template, never the raw URL: ids and unknown paths add no label values.
    expect(sample(after, "raffle_api_request_duration_seconds_count", { route: "GET /claims/:id", status: "404" })).toBe(1);
    expect(sample(after, "raffle_api_request_duration_seconds_count", { route: "unmatched", status: "404" })).toBeGreaterThanOrEqual(1);
    expect(after).not.toContain("987654");
    expect(after).not.toContain("/no/such/path");
  });

  it("shows each chain's indexer: head, indexed block and lag as gauges, events as a counter", async () => {
    const text = await eventually(async () => {
      const exposition = await metrics();
      for (const chain of chains) expect(sample(exposition, "raffle_indexer_lag_blocks", { chainId: String(chain.chainId) })).toBe(0);
      return exposition;
    });
    for (const chain of chains) {
      const chainId = String(chain.chainId);
      const head = await chain.node.provider.getBlockNumber();
      expect(sample(text, "raffle_indexer_head_block", { chainId })).toBeGreaterThan(0);
      expect(sample(text, "raffle_indexer_head_block", { chainId })).toBeLessThanOrEqual(head);
      expect(sample(text, "raffle_indexer_indexed_block", { chainId })).toBe(sample(text, "raffle_indexer_head_block", { chainId }));
      expect(sample(text, "raffle_indexer_lag_seconds", { chainId })).toBe(0);
      expect(sample(text, "raffle_indexer_leader", { chainId })).toBe(1);
      expect(sample(text, "raffle_indexer_events_total", { chainId })).toBeGreaterThan(0);
      expect(sample(text, "raffle_indexer_reorgs_total", { chainId })).toBe(0);
    }
  });

  it("answers /status and /metrics without an API key, /status listing every chain's indexer", async () => {
    const { body } = await http.get("/status").expect(200);
    expect(body.chains.map((chain: { chainId: number }) => chain.chainId)).toEqual(chains.map((chain) => chain.chainId));
    for (const status of body.chains) {
      expect(status).toMatchObject({ running: true, leader: true, lastError: null, reorgs: 0, failedSteps: 0 });
      expect(status.cursor).toBeGreaterThan(0);
      expect(status.head).toBeGreaterThanOrEqual(status.cursor);
    }
  });

  it("puts the request id on the service lines written inside a request, and never a key, an Authorization header or a signature", async () => {
    const { result: signature, lines } = await captureOutput(async () => {
      const response = await sign(chains[1], "metrics-log-1");
      await new Promise((resolve) => setTimeout(resolve, 50));
      return response.body.signature as string;
    }, "trace");
    const entries = lines.map((line) => JSON.parse(line));
    // Written by TicketSignService, from the caller ApiKeyGuard builds for this request.
    const signed = entries.find((entry) => entry.message === "voucher signed");
    expect(signed).toMatchObject({ level: "debug", requestId: "metrics-log-1", chainId: chains[1].chainId, contractId: chains[1].contractId });
    expect(entries.find((entry) => entry.message === "request" && entry.requestId === "metrics-log-1")).toBeDefined();
    const secret = key.split("_").slice(2).join("_");
    const privateKeys = config.chains.map((chain) => chain.signerPrivateKey.replace(/^0x/, ""));
    for (const line of lines) {
      expect(line).not.toContain(secret);
      expect(line).not.toContain(signature.slice(2));
      expect(line.toLowerCase()).not.toContain("bearer");
      for (const privateKey of privateKeys) expect(line).not.toContain(privateKey);
    }
  });

  describe("what needs attention", () => {
    const receiver = new WebhookReceiver();
    afterAll(() => receiver.close());

    it("counts calls with a revoked key per merchant when the secret is right, never a guessed secret, and never shows the key", async () => {
      const keys = served.app.get(ApiKeyService);
      const issued = await keys.create(await chains[0].world.merchant.getAddress(), "revoked in metrics");
      await keys.revoke(issued.prefix);
      const merchant = { merchantId: String(issued.merchantId) };
      const before = sample(await metrics(), "raffle_api_revoked_key_calls_total", merchant) ?? 0;
      for (let call = 0; call < 3; call += 1)
        expectProblem(await http.get("/raffle/contracts").set({ Authorization: `Bearer ${issued.key}` }), 401, "unauthorized");
      // A hostile caller who knows the public prefix but not the secret moves nothing.
      const guessed = `rk_${issued.prefix}_${"A".repeat(43)}`;
      expectProblem(await http.get("/raffle/contracts").set({ Authorization: `Bearer ${guessed}` }), 401, "unauthorized");
      const after = await metrics();
      expect(sample(after, "raffle_api_revoked_key_calls_total", merchant)).toBe(before + 3);
      expect(after).not.toContain(issued.prefix);
      // The whole secret (base64url: it may hold "_" itself).
      expect(after).not.toContain(issued.key.slice(`rk_${issued.prefix}_`.length));
    });

    it("shows each chain's VRF subscription balance as its coordinator holds it, read by the leader", async () => {
      const [chain] = chains;
      const labels = { chainId: String(chain.chainId), subscriptionId: chain.world.deployment.vrfSubscriptionId, currency: "LINK" };
      const before = await eventually(async () => {
        const value = sample(await metrics(), "raffle_vrf_subscription_balance", labels);
        expect(value).toEqual(expect.any(Number));
        return value!;
      });
      const coordinator = VRFCoordinatorV2_5Mock__factory.connect(chain.world.deployment.vrfCoordinator, chain.world.admin);
      await (await coordinator.fundSubscription(chain.world.deployment.vrfSubscriptionId, parseEther("5"))).wait();
      await eventually(async () => expect(sample(await metrics(), "raffle_vrf_subscription_balance", labels)).toBeCloseTo(before + 5, 6));
      // Every served chain, each with its own subscription, in both currencies.
      const text = await metrics();
      for (const other of chains) {
        const own = { chainId: String(other.chainId), subscriptionId: other.world.deployment.vrfSubscriptionId };
        expect(sample(text, "raffle_vrf_subscription_balance", { ...own, currency: "native" })).toEqual(expect.any(Number));
        expect(sample(text, "raffle_vrf_subscription_balance", { ...own, currency: "LINK" })).toEqual(expect.any(Number));
      }
    });

    it("counts failing webhook endpoints and rounds waiting on randomness, and drops both once fixed", async () => {
      const chain = chains[1];
      const chainId = String(chain.chainId);
      receiver.respond = () => 500;
      await receiver.start();
      const { body: endpoint } = await http.post("/webhooks").set(auth()).send({ url: receiver.url }).expect(201);
      receiver.secrets = [endpoint.secret];

      // Two players buy, the round ends and asks VRF for its word, which does not come yet.
      const raffle = await deployTestRaffle(chain.world, "NATIVE");
      await buyTicket(chain.world, raffle, chain.world.players[0]);
      await buyTicket(chain.world, raffle, chain.world.players[1]);
      const contract = Raffle__factory.connect(raffle.raffle, chain.world.merchant);
      await (await contract.endRound()).wait();
      await eventually(async () => {
        const text = await metrics();
        expect(sample(text, "raffle_rounds_awaiting_randomness", { chainId })).toBe(1);
        expect(sample(text, "raffle_rounds_awaiting_randomness_oldest_seconds", { chainId })).toBeGreaterThanOrEqual(0);
        expect(sample(text, "raffle_rounds_awaiting_randomness", { chainId: String(chains[0].chainId) })).toBe(0);
        expect(sample(text, "raffle_webhook_endpoints_failing", { state: "retrying" })).toBe(1);
        expect(sample(text, "raffle_webhook_endpoints_failing", { state: "disabled" })).toBe(0);
      }, 20_000);
      await eventually(async () => expect(sample(await metrics(), "raffle_webhook_endpoint_failing_seconds")).toBeGreaterThanOrEqual(1), 20_000);
      // The failing endpoint's delivery waits in the outbox: its age shows.
      await eventually(async () => expect(sample(await metrics(), "raffle_webhook_outbox_oldest_seconds")).toBeGreaterThanOrEqual(1), 20_000);

      // The word arrives and the endpoint answers again: nothing needs attention any more.
      const round = await contract.getRound((await contract.getCurrentRoundInfo()).roundId);
      const coordinator = VRFCoordinatorV2_5Mock__factory.connect(chain.world.deployment.vrfCoordinator, chain.world.admin);
      await (await coordinator.fulfillRandomWords(round.vrfRequestId, chain.world.deployment.raffleFactory, { gasLimit: VRF_FULFILMENT_GAS })).wait();
      receiver.respond = () => 204;
      await eventually(async () => {
        const text = await metrics();
        expect(sample(text, "raffle_rounds_awaiting_randomness", { chainId })).toBe(0);
        expect(sample(text, "raffle_rounds_awaiting_randomness_oldest_seconds", { chainId })).toBe(0);
        expect(sample(text, "raffle_webhook_endpoints_failing", { state: "retrying" })).toBe(0);
        expect(sample(text, "raffle_webhook_endpoint_failing_seconds")).toBe(0);
        expect(sample(text, "raffle_webhook_outbox_oldest_seconds")).toBe(0);
        // No replica configured: the index reads go to the primary.
        expect(sample(text, "raffle_db_reads_on_replica")).toBe(0);
        expect(sample(text, "raffle_db_replica_lag_seconds")).toBe(0);
      }, 20_000);
    }, 60_000);
  });

  it("records nothing and answers 404 at /metrics with METRICS_ENABLED=false", async () => {
    const off = await createApp(
      loadApiConfig(
        { DATABASE_URL: database.url, RPC_URL: chains[0].node.rpcUrl, METRICS_ENABLED: "false", API_ROLES: "serve,deliver" },
        chains[0].world.deployment,
      ),
    );
    try {
      await off.init();
      await off.getHttpAdapter().getInstance().ready();
      expectProblem(await request(off.getHttpServer()).get("/metrics"), 404, "notFound");
      await request(off.getHttpServer()).get("/status").expect(200);
    } finally {
      await off.close();
    }
  });
});
