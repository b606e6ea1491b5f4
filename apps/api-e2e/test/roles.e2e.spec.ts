import { buyTicket, deployTestRaffle } from "@raffle/chain/testing";
import { startTestStack, type ApiProcess, type TestStack } from "@raffle/test-stack";
import { eventually } from "@raffle/testing";

import { runCompiledMain } from "../../api/test/support/compiled-main";

interface ChainStatus {
  chainId: number;
  running: boolean;
  leader: boolean;
  cursor: string | null;
}

/**
 * The roles of API_ROLES, each in a compiled API process of its own on one database and one chain: an index-only
 * process answers the probes and nothing else, a serve-only one the routes without indexing, and of two indexers one
 * leads while the other stands by and takes the chain over when the leader is killed (SIGKILL: no goodbye, its
 * PostgreSQL session simply ends). Webhook delivery by deliver-only processes is webhooks-replicas.e2e.spec.ts's.
 */
describe("API roles, each in a process of its own", () => {
  let stack: TestStack;

  beforeAll(async () => {
    process.env.LOG_LEVEL ??= "silent";
    stack = await startTestStack({ label: "api_roles" });
  }, 120_000);

  afterAll(() => stack?.close());

  /** The processes a test started, stopped after it whatever its outcome (a leader left running would lead the next). */
  const running: ApiProcess[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((api) => api.stop()));
  });

  async function start(roles: string): Promise<ApiProcess> {
    const api = await stack.startApi({ API_ROLES: roles });
    running.push(api);
    return api;
  }

  async function chainStatus(api: ApiProcess): Promise<ChainStatus> {
    const response = await fetch(`${api.url}/status`);
    expect(response.status).toBe(200);
    const { chains } = (await response.json()) as { chains: ChainStatus[] };
    return chains[0];
  }

  function kill(api: ApiProcess): Promise<void> {
    const child = api.child.process;
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    process.kill(-child.pid!, "SIGKILL");
    return exited;
  }

  it("refuses an unknown role by name, before it opens anything", async () => {
    const run = await runCompiledMain({ API_ROLES: "serve,indexer", DATABASE_URL: stack.database.url, ...stack.apiChainEnv() });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('API_ROLES must be a comma-separated list of serve, index, deliver, got \\"serve,indexer\\"');
  });

  it("an index-only process answers /health, /ready, /metrics and /status, and no route", async () => {
    const indexer = await start("index");
    await eventually(async () => expect(await chainStatus(indexer)).toMatchObject({ running: true, leader: true }), 30_000);
    for (const probe of ["/health", "/metrics", "/status", "/health/"])
      expect({ probe, status: (await fetch(`${indexer.url}${probe}`)).status }).toEqual({ probe, status: 200 });
    await eventually(async () => expect((await fetch(`${indexer.url}/ready`)).status).toBe(200), 30_000);
    for (const [method, path] of [
      ["GET", "/rounds/current?contractId=1"],
      ["GET", "/player/raffles"],
      ["POST", "/ticket/sign"],
      ["GET", "/docs"],
      ["GET", "/healthz"],
    ]) {
      const response = await fetch(`${indexer.url}${path}`, {
        method,
        headers: { "content-type": "application/json" },
        body: method === "POST" ? "{}" : undefined,
      });
      expect({ path, status: response.status, type: response.headers.get("content-type") }).toEqual({
        path,
        status: 404,
        type: expect.stringMatching(/^application\/problem\+json/),
      });
      expect(await response.json()).toMatchObject({ code: "notFound" });
    }
  }, 120_000);

  it("a serve-only process answers the routes and indexes nothing", async () => {
    const server = await start("serve");
    expect(await chainStatus(server)).toMatchObject({ running: false, leader: false });
    // The route is there (it asks for a key) rather than the probes-only 404.
    expect((await fetch(`${server.url}/rounds/current?contractId=1`)).status).toBe(401);
  }, 120_000);

  it("of two indexers one leads; killed, the standby takes the chain over within seconds and indexes what follows", async () => {
    const first = await start("index");
    await eventually(async () => expect(await chainStatus(first)).toMatchObject({ leader: true }), 30_000);
    const standby = await start("index");
    // Started second, it finds the lock taken and waits.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await chainStatus(standby)).toMatchObject({ running: true, leader: false });

    await kill(first);
    const killedAt = Date.now();
    await eventually(async () => expect(await chainStatus(standby)).toMatchObject({ leader: true }), 15_000, 100);
    const takeOverMs = Date.now() - killedAt;
    // The standby tries the lock every 5 poll intervals (5 s at the default 1 s poll); its first try after the kill wins.
    expect(takeOverMs).toBeLessThan(8_000);

    const raffle = await deployTestRaffle(stack.world, "NATIVE");
    await buyTicket(stack.world, raffle, stack.world.players[0]);
    const block = await stack.node.provider.getBlockNumber();
    await eventually(async () => expect(Number((await chainStatus(standby)).cursor)).toBeGreaterThanOrEqual(block), 30_000, 200);
  }, 180_000);
});
