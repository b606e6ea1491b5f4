import { FakeRaffle } from "../test/support/fake-raffle";
import { LogCapture } from "../test/support/log-capture";
import { WrongChainError } from "@raffle/chain";

import { nodeSetting } from "./chain-connection";
import { ChainRotator } from "./chain-rotator";
import { ChainRunner, type ChainNode } from "./chain-runner";
import { ConfigError } from "./config";
import { WorkerLogger } from "./logger";
import { MerchantWorker } from "./merchant-worker";

/** CREATE2 gives a raffle the same address on every chain: both chains list this one. */
const SAME_ADDRESS = "0x00000000000000000000000000000000000000aa";

/** A node that answers, is down, or serves another chain, as the test says. */
class StubNode implements ChainNode {
  up = true;
  calls = 0;
  constructor(
    readonly chainId: number,
    public servedChainId = chainId,
  ) {}

  async verifyChainId(): Promise<void> {
    this.calls += 1;
    if (!this.up) throw new Error("connect ECONNREFUSED 127.0.0.1:9");
    if (this.servedChainId !== this.chainId) {
      const setting = nodeSetting({ rpcUrl: "http://127.0.0.1:9/secret-path", rpcUrlSetting: `CHAIN_${this.chainId}_RPC_URL` });
      throw new WrongChainError(setting, this.servedChainId, this.chainId);
    }
  }

  destroy(): void {}
}

/** One chain over an in-memory raffle, with timers the test fires by hand. */
function chain(chainId: number, logger: WorkerLogger) {
  const raffle = new FakeRaffle(SAME_ADDRESS);
  raffle.startFirstRound();
  const node = new StubNode(chainId);
  const timers: Array<{ fire: () => void; stopped: boolean }> = [];
  const chainLogger = logger.child({ chainId });
  const rotator = new ChainRotator({
    chainId,
    source: { listRaffles: async () => [{ id: 1, address: SAME_ADDRESS, chainId, schedule: "*/2 * * * * *" }] },
    ports: () => raffle.port(),
    logger: chainLogger,
    refreshIntervalMs: 3_600_000,
    permanentFailureRefreshes: 3,
    apiRetry: { initialDelayMs: 10, maxDelayMs: 10 },
    timers: (_schedule, _zone, onTick) => {
      const timer = { fire: () => onTick(Math.floor(Date.now() / 1_000)), stopped: false };
      timers.push(timer);
      return { stop: () => void (timer.stopped = true) };
    },
  });
  const runner = new ChainRunner({
    chainId,
    rpcUrlSetting: `CHAIN_${chainId}_RPC_URL`,
    node,
    rotator,
    logger: chainLogger,
    retry: { initialDelayMs: 20, maxDelayMs: 20 },
    probeIntervalMs: 50,
    singleRunAttempts: 2,
  });
  const tick = async () => {
    for (const timer of timers.filter((candidate) => !candidate.stopped)) timer.fire();
    await rotator.idle();
  };
  return { raffle, node, runner, tick, armed: () => timers.filter((timer) => !timer.stopped).length };
}

function setUp() {
  const logs = new LogCapture();
  const logger = new WorkerLogger({ level: "debug", sink: logs.sink });
  const first = chain(31337, logger);
  const second = chain(31338, logger);
  const worker = new MerchantWorker({ merchant: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", chains: [first.runner, second.runner], logger });
  return { logs, first, second, worker };
}

const until = async (check: () => boolean, timeoutMs = 5_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe("MerchantWorker over several chains", () => {
  it("rotates the same raffle address on each chain, each run and record keyed by its chain", async () => {
    const { first, second, worker } = setUp();
    await worker.start();
    await first.tick();
    await second.tick();
    await second.tick();
    expect(first.raffle.started).toEqual([1n, 2n]);
    expect(second.raffle.started).toEqual([1n, 2n, 3n]);
    const report = worker.health();
    expect(report.status).toBe("ok");
    expect(report.raffles.map((record) => [record.chainId, record.contract, record.newRoundId])).toEqual([
      [31337, SAME_ADDRESS, "2"],
      [31338, SAME_ADDRESS, "3"],
    ]);
    expect(worker.lastRun(31338, SAME_ADDRESS)).toMatchObject({ runs: 2 });
    await worker.stop();
  });

  it("starts and rotates the other chain while one chain's node is down, then picks the down chain up in the background", async () => {
    const { first, second, worker, logs } = setUp();
    first.node.up = false;
    await worker.start();
    expect(second.armed()).toBe(1);
    expect(first.armed()).toBe(0);
    await second.tick();
    expect(second.raffle.started).toEqual([1n, 2n]);

    const down = worker.health();
    expect(down.status).toBe("unavailable");
    expect(down.chains[0]).toMatchObject({ chainId: 31337, state: "connecting", reachable: false, raffles: 0 });
    expect(down.chains[0].lastError?.message).toContain("ECONNREFUSED");
    expect(down.chains[1]).toMatchObject({ chainId: 31338, state: "running", reachable: true, raffles: 1, lastRotation: { status: "rotated" } });
    const retries = logs.lines.filter((line) => line.message === "reaching the chain's node at CHAIN_31337_RPC_URL failed; retrying");
    expect(retries.length).toBeGreaterThanOrEqual(1);
    expect(retries.every((line) => line.chainId === 31337)).toBe(true);

    first.node.up = true;
    await until(() => first.armed() === 1);
    await first.tick();
    expect(first.raffle.started).toEqual([1n, 2n]);
    expect(worker.health().chains[0]).toMatchObject({ state: "running", reachable: true });
    await worker.stop();
    // Stopped: no more attempts on the nodes.
    const calls = first.node.calls;
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(first.node.calls).toBe(calls);
  });

  it("tells an outage of a running chain's node on /health, and its end", async () => {
    const { first, worker, logs } = setUp();
    await worker.start();
    first.node.up = false;
    await until(() => worker.health().chains[0].reachable === false);
    expect(worker.health().status).toBe("unavailable");
    expect(logs.lines.find((line) => line.message === "chain's node unreachable: check the node and CHAIN_31337_RPC_URL")).toMatchObject({
      chainId: 31337,
      level: "warn",
    });
    first.node.up = true;
    await until(() => worker.health().status === "ok");
    expect(logs.lines.find((line) => line.message === "chain's node reachable again")).toMatchObject({ chainId: 31337 });
    await worker.stop();
  });

  it("refuses to start when a node serves another chain, naming the chain's RPC URL variable but not its path", async () => {
    const { second, worker } = setUp();
    second.node.servedChainId = 1;
    const error = await worker.start().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(
      "CHAIN_31338_RPC_URL (http://127.0.0.1:9) serves chain 1, not chain 31338: point CHAIN_31338_RPC_URL at a node of chain 31338",
    );
    await worker.stop();
  });

  it("stops only that chain when its node comes back serving another chain", async () => {
    const { first, second, worker, logs } = setUp();
    first.node.up = false;
    await worker.start();
    first.node.servedChainId = 5;
    first.node.up = true;
    await until(() => worker.health().chains[0].state === "failed");
    expect(worker.health().chains[0].lastError?.message).toContain("CHAIN_31337_RPC_URL (http://127.0.0.1:9) serves chain 5");
    expect(logs.lines.find((line) => String(line.message).startsWith("chain stopped"))).toMatchObject({ level: "error", chainId: 31337 });
    await second.tick();
    expect(second.raffle.started).toEqual([1n, 2n]);
    await worker.stop();
  });

  it("--once runs every chain and fails when one chain's node stays down; the other chain still rotates", async () => {
    const { first, second, worker } = setUp();
    second.node.up = false;
    expect(await worker.runOnce()).toBe(false);
    expect(first.raffle.started).toEqual([1n, 2n]);
    expect(second.raffle.started).toEqual([1n]);
    expect(second.node.calls).toBe(2);

    second.node.up = true;
    expect(await worker.runOnce()).toBe(true);
    expect(second.raffle.started).toEqual([1n, 2n]);
  });

  it("--once --contract rotates that address on every chain that has it, or on the one chain asked for", async () => {
    const { first, second, worker } = setUp();
    expect(await worker.runOnce(SAME_ADDRESS)).toBe(true);
    expect([first.raffle.started, second.raffle.started]).toEqual([
      [1n, 2n],
      [1n, 2n],
    ]);
    expect(await worker.runOnce(SAME_ADDRESS, 31338)).toBe(true);
    expect([first.raffle.started, second.raffle.started]).toEqual([
      [1n, 2n],
      [1n, 2n, 3n],
    ]);
    expect(() => worker.chain(5)).toThrow("chain 5 is not configured (chains: 31337, 31338)");
  });
});
