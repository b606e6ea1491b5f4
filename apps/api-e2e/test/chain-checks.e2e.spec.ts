import type { NestFastifyApplication } from "@nestjs/platform-fastify";
import request from "supertest";
import { Wallet, ZeroAddress, id } from "ethers";
import { Exchange__factory, LOCAL_DEV_KEYS } from "@raffle/chain";
import { buyTicket, deployTestRaffle, setUpWorld, startHardhatNode, type HardhatNode, type TestWorld } from "@raffle/chain/testing";
import { createTestDatabase, type TestDatabase } from "@raffle/db/testing";
import { eventually, freePort } from "@raffle/testing";

import { createApp } from "../../api/src/app/create-app";
import { ApiKeyService } from "../../api/src/app/auth/api-key.service";
import { testConfig, type TestOverrides } from "./support/api-harness";
import { indexedRaffleId } from "./support/indexed-raffle";
import { captureOutput, plainTextLines } from "./support/output-capture";
import { expectProblem } from "./support/problem";
import { startRpcProxy, type RpcProxy } from "./support/rpc-proxy";

const SIGNER_ROLE = id("SIGNER_ROLE");

/** The response once it is a 503 (for `eventually`, which retries until it does not throw). */
function expect503(response: request.Response): request.Response {
  expect(response.status).toBe(503);
  return response;
}

/**
 * What the API checks of the chain: that RPC_URL serves CHAIN_ID (at start and on every indexer step), that the
 * deployment's contracts have code, that its voucher key holds SIGNER_ROLE; and how it reports an unreachable node.
 */
describe("chain checks", () => {
  let node: HardhatNode;
  let world: TestWorld;
  let proxy: RpcProxy;
  const databases: TestDatabase[] = [];
  const apps: NestFastifyApplication[] = [];

  beforeAll(async () => {
    process.env.LOG_LEVEL ??= "silent";
    node = await startHardhatNode();
    world = await setUpWorld(node.provider);
    proxy = await startRpcProxy(node.rpcUrl);
  });

  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const database of databases) await database.drop();
    await proxy?.close();
    await node?.stop();
  });

  afterEach(() => proxy.pretendChainId(null));

  /** An API on a database of its own, initialized (its first chain check ran), or the reason it refused to start. */
  async function start(overrides: TestOverrides = {}): Promise<{ app: NestFastifyApplication; http: ReturnType<typeof request> }> {
    const database = await createTestDatabase("chain_checks");
    databases.push(database);
    const app = await createApp(testConfig(world, database, proxy.url, { chainCheckIntervalMs: 200, ...overrides }));
    apps.push(app);
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
    return { app, http: request(app.getHttpServer()) };
  }

  const startupError = (overrides: TestOverrides) =>
    start(overrides).then(
      () => "started",
      (error: Error) => error.message,
    );

  describe("refuses to start", () => {
    it("on a node that serves another chain, naming RPC_URL and the chain", async () => {
      proxy.pretendChainId("0x1");
      expect(await startupError({})).toMatch(/^RPC_URL \(http:\/\/127\.0\.0\.1:\d+\) serves chain 1, not chain 31337/);
    });

    it("with a voucher key that lacks SIGNER_ROLE on the Exchange", async () => {
      const stranger = Wallet.createRandom();
      expect(await startupError({ chain: { signerPrivateKey: stranger.privateKey } })).toContain(
        `the voucher key ${stranger.address} (SIGNER_PRIVATE_KEY or SIGNER_KEYSTORE_FILE) does not hold SIGNER_ROLE on the Exchange ${world.deployment.exchange} of chain 31337`,
      );
    });

    it("when a contract of the deployment has no code on the chain, naming the file and the field", async () => {
      const nowhere = Wallet.createRandom().address;
      const message = await startupError({
        chain: { deployment: { ...world.deployment, exchange: nowhere }, deploymentFile: "/etc/raffle/31337.json" },
      });
      expect(message).toContain(`DEPLOYMENT_FILE /etc/raffle/31337.json names contracts that have no code on chain 31337: exchange ${nowhere}`);
    });
  });

  it("starts without a reachable node, says so once in the JSON log, names RPC_URL in /ready, and signs nothing", async () => {
    const rpcUrl = `http://127.0.0.1:${await freePort()}`;
    let status: request.Response | undefined;
    const { result: response, lines } = await captureOutput(async () => {
      const { http, app } = await start({ chain: { rpcUrl } });
      const key = (await app.get(ApiKeyService).create(await world.merchant.getAddress())).key;
      // Some indexer polls (every 50 ms) and chain checks (every 200 ms) fail meanwhile.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const signed = await http
        .post("/raffle/ticket/sign")
        .set({ Authorization: `Bearer ${key}` })
        .send({ account: Wallet.createRandom().address, contractId: 1 });
      // Nothing is indexed from a node that never answered: there is no raffle to sign for.
      expectProblem(signed, 404, "contractNotFound");
      status = await http.get("/status").expect(200);
      return http.get("/ready");
    });
    const body = expectProblem(response, 503, "notReady");
    expect(body.errors).toEqual(
      expect.arrayContaining([
        { field: "chain", message: "the chain node at RPC_URL does not answer: check the node and RPC_URL (the API log has the error)" },
      ]),
    );
    // /ready is public: the node's host, port and error text are in the log only.
    expect(JSON.stringify(body)).not.toContain(new URL(rpcUrl).port);
    expect(JSON.stringify(body)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1/);
    // /status says the indexer fails, not the error's text, which names the node's host and port.
    expect(status!.body.chains[0].lastError).toBe(
      "the indexer's last step failed and is being retried: the API log has the error (indexer step failed)",
    );
    expect(JSON.stringify(status!.body)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1/);
    expect(JSON.stringify(status!.body)).not.toContain(`:${new URL(rpcUrl).port}`);
    expect(plainTextLines(lines)).toEqual([]);
    expect(lines.filter((line) => line.includes("chain node unreachable"))).toHaveLength(1);
    expect(lines.filter((line) => line.includes("indexer step failed"))).toHaveLength(1);
  });

  it("stops indexing and is not ready while RPC_URL serves another chain, and resumes when it serves the configured chain again", async () => {
    const raffle = await deployTestRaffle(world, "NATIVE");
    const { app, http } = await start();
    const key = (await app.get(ApiKeyService).create(await world.merchant.getAddress())).key;
    const contractId = await indexedRaffleId({ http, world }, key, raffle.raffle);
    await eventually(() => http.get("/ready").expect(200));
    const ticketCount = async () =>
      (
        await http
          .get("/rounds/current")
          .query({ contractId })
          .set({ Authorization: `Bearer ${key}` })
          .expect(200)
      ).body.ticketCount as number;
    const before = await ticketCount();

    proxy.pretendChainId("0x1");
    await buyTicket(world, raffle, world.players[0], 1n);
    // /ready answers from a check at most a second old.
    const notReady = expectProblem(await eventually(async () => expect503(await http.get("/ready"))), 503, "notReady");
    expect(notReady.errors).toEqual(expect.arrayContaining([{ field: "chain", message: expect.stringMatching(/serves chain 1, not chain 31337/) }]));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await ticketCount()).toBe(before);

    proxy.pretendChainId(null);
    await eventually(async () => expect(await ticketCount()).toBe(before + 1));
    await eventually(() => http.get("/ready").expect(200));
  });

  it("is not ready and refuses to sign while its key lacks SIGNER_ROLE, and signs again once it holds it", async () => {
    const raffle = await deployTestRaffle(world, "NATIVE");
    const { app, http } = await start();
    const key = (await app.get(ApiKeyService).create(await world.merchant.getAddress())).key;
    const contractId = await indexedRaffleId({ http, world }, key, raffle.raffle);
    const sign = () =>
      http
        .post("/raffle/ticket/sign")
        .set({ Authorization: `Bearer ${key}` })
        .send({ account: Wallet.createRandom().address, referrer: ZeroAddress, contractId });
    expect((await sign()).status).toBe(200);
    expect((await http.get("/ready").expect(200)).body.chains[0].signer).toEqual({
      address: new Wallet(LOCAL_DEV_KEYS.voucherSigner).address,
      status: "authorized",
    });

    const exchange = Exchange__factory.connect(world.deployment.exchange, world.admin);
    const signer = new Wallet(LOCAL_DEV_KEYS.voucherSigner).address;
    await (await exchange.revokeRole(SIGNER_ROLE, signer)).wait();
    try {
      await eventually(async () => expectProblem(await sign(), 503, "signerNotAuthorized"));
      const notReady = expectProblem(await eventually(async () => expect503(await http.get("/ready"))), 503, "notReady");
      expect(notReady.errors).toEqual(
        expect.arrayContaining([
          { field: "signer", message: expect.stringContaining(`${signer} (SIGNER_PRIVATE_KEY or SIGNER_KEYSTORE_FILE) does not hold SIGNER_ROLE`) },
        ]),
      );
    } finally {
      await (await exchange.grantRole(SIGNER_ROLE, signer)).wait();
    }
    await eventually(async () => expect((await sign()).status).toBe(200));
    await eventually(() => http.get("/ready").expect(200));
  });

  it("answers a burst of anonymous /ready calls from one check per second: the node is not asked per call", async () => {
    // A node of its own: the other tests' APIs keep polling the shared proxy.
    const own = await startRpcProxy(node.rpcUrl);
    const { http } = await start({
      indexer: { enabled: false, pollIntervalMs: 1_000, defaultSchedule: "0 0 * * *" },
      chainCheckIntervalMs: 60_000,
      chain: { rpcUrl: own.url },
    });
    await http.get("/ready");
    const before = own.calls();
    const started = Date.now();
    let answered = 0;
    // 10 waves of 50 concurrent calls over about 2 s.
    for (let wave = 0; wave < 10; wave += 1) {
      const answers = await Promise.all(Array.from({ length: 50 }, () => http.get("/ready")));
      answered += answers.filter((answer) => answer.status === 200 || answer.status === 503).length;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const seconds = (Date.now() - started) / 1_000;
    const nodeCalls = own.calls() - before;
    await own.close();
    expect(answered).toBe(500);
    // One check (eth_chainId and eth_blockNumber, and a refresh when the node was unhealthy) per second at most.
    expect(nodeCalls).toBeLessThanOrEqual(Math.ceil(seconds + 1) * 4);
  });
});
