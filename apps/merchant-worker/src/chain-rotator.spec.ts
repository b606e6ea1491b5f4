import { FakeRaffle } from "../test/support/fake-raffle";
import { LogCapture } from "../test/support/log-capture";
import type { RaffleListing } from "./raffle-source";
import { WorkerLogger } from "./logger";
import { ChainRotator } from "./chain-rotator";
import type { RaffleRoundsPort } from "./rotation";

/** A worker over in-memory raffles and a stubbed list, with timers the test fires by hand. */
function setUp(options: { caller?: string; permanentFailureRefreshes?: number } = {}) {
  const raffle = new FakeRaffle();
  raffle.startFirstRound();
  let listings: RaffleListing[] = [{ id: 7, address: raffle.address, chainId: 31337, schedule: "*/2 * * * * *" }];
  const timers: Array<{ fire: () => void; stopped: boolean }> = [];
  const simulations = { count: 0 };
  const logs = new LogCapture();
  let decorate = (port: RaffleRoundsPort) => port;
  const worker = new ChainRotator({
    chainId: 31337,
    source: { listRaffles: async () => listings },
    ports: () => {
      const port = raffle.port(options.caller ?? "merchant");
      const counted = { ...port, simulateEndRound: () => (simulations.count++, port.simulateEndRound()) };
      return decorate(counted);
    },
    logger: new WorkerLogger({ level: "debug", sink: logs.sink }),
    refreshIntervalMs: 3_600_000,
    permanentFailureRefreshes: options.permanentFailureRefreshes ?? 3,
    apiRetry: { initialDelayMs: 10, maxDelayMs: 10 },
    timers: (_schedule, _zone, onTick) => {
      const timer = { fire: () => onTick(Math.floor(Date.now() / 1_000)), stopped: false };
      timers.push(timer);
      return { stop: () => void (timer.stopped = true) };
    },
  });
  const liveTimer = () => timers.filter((timer) => !timer.stopped).at(-1)!;
  /** Fires the raffle's timer and waits for the run it started. */
  const tick = async () => {
    liveTimer().fire();
    await worker.idle();
  };
  return {
    raffle,
    worker,
    logs,
    simulations,
    tick,
    setListings: (next: RaffleListing[]) => (listings = next),
    decorate: (next: (port: RaffleRoundsPort) => RaffleRoundsPort) => (decorate = next),
    refresh: () => (worker as unknown as { scheduler: { refresh(): Promise<unknown> } }).scheduler.refresh(),
  };
}

describe("ChainRotator", () => {
  it("finishes a draw left to finishDraw at the same tick as the rotation, and reports its transaction", async () => {
    const { raffle, worker, tick } = setUp();
    await worker.start();
    await tick(); // rounds 1 -> 2
    raffle.awaitingWinners.add(1n); // round 1's VRF answer arrived without its winners
    await tick(); // rounds 2 -> 3, and round 1's winners
    expect(raffle.finishedDraws).toEqual([1n]);
    expect(worker.lastRun(raffle.address)).toMatchObject({ status: "rotated" });
    expect(worker.lastRun(raffle.address)!.txHashes).toHaveLength(3);
  });

  it("rotates a raffle at each tick and reports the last run per raffle", async () => {
    const { raffle, worker, tick } = setUp();
    await worker.start();
    await tick();
    await tick();
    expect(raffle.started).toEqual([1n, 2n, 3n]);
    expect(raffle.ended).toEqual([1n, 2n]);
    const [record] = worker.report().runs;
    expect(record).toMatchObject({
      chainId: 31337,
      contract: raffle.address,
      contractId: 7,
      status: "rotated",
      roundId: "2",
      newRoundId: "3",
      runs: 2,
    });
    expect(record.txHashes).toHaveLength(2);
    expect(worker.report()).toMatchObject({ raffles: 1, lastRefresh: { ok: true }, lastRotation: { contract: raffle.address, status: "rotated" } });
    expect(worker.report().lastError).toBeUndefined();
    await worker.stop();
  });

  it("skips a tick while the previous run of the same raffle is still under way", async () => {
    const { raffle, worker, decorate } = setUp();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    decorate((port) => ({ ...port, endRound: async () => (await gate, port.endRound()) }));
    const listing = { id: 7, address: raffle.address, chainId: 31337, schedule: "*/2 * * * * *" };
    const first = worker.runRaffle(listing);
    expect(await worker.runRaffle(listing)).toBeUndefined();
    release();
    await first;
    expect(raffle.ended).toEqual([1n]);
    expect(raffle.started).toEqual([1n, 2n]);
  });

  it("reports a missing role once, then stops simulating until N refreshes pass", async () => {
    const { worker, tick, simulations, logs, refresh } = setUp({ caller: "0xstranger", permanentFailureRefreshes: 2 });
    await worker.start();
    for (let i = 0; i < 5; i += 1) await tick();
    expect(simulations.count).toBe(1);
    const [record] = worker.report().runs;
    expect(record).toMatchObject({ status: "failedPermanently", errorCode: "missingRole", skippedTicks: 4, runs: 1, retryAfterRefreshes: 2 });
    expect(record.error).toContain("merchant key 0xstranger lacks ROUND_MANAGER_ROLE on raffle");
    expect(worker.report().lastError?.message).toContain("lacks ROUND_MANAGER_ROLE");
    expect(logs.messages("error")).toHaveLength(1);

    await refresh();
    await tick();
    expect(simulations.count).toBe(1);
    expect(worker.report().runs[0].retryAfterRefreshes).toBe(1);
    await refresh();
    await tick();
    // After the allowance, one more attempt, which fails again and blocks again.
    expect(simulations.count).toBe(2);
    expect(worker.report().runs[0].status).toBe("failedPermanently");
    await worker.stop();
  });

  it("tries a permanently failed raffle again as soon as its listing changes", async () => {
    const { raffle, worker, tick, simulations, refresh, setListings } = setUp({ caller: "0xstranger", permanentFailureRefreshes: 100 });
    await worker.start();
    await tick();
    await tick();
    expect(simulations.count).toBe(1);
    setListings([{ id: 7, address: raffle.address, chainId: 31337, schedule: "*/3 * * * * *" }]);
    await refresh();
    await tick();
    expect(simulations.count).toBe(2);
    await worker.stop();
  });

  it("keeps retrying an ordinary failure at every tick", async () => {
    const { worker, tick, simulations, decorate } = setUp();
    decorate((port) => ({
      ...port,
      endRound: async () => {
        throw new Error("RPC timeout");
      },
    }));
    await worker.start();
    await tick();
    await tick();
    expect(simulations.count).toBe(2);
    expect(worker.report().runs[0]).toMatchObject({ status: "failed", error: "RPC timeout" });
    await worker.stop();
  });

  it("records an invalid schedule in the health report", async () => {
    const { raffle, worker, setListings } = setUp();
    setListings([{ id: 7, address: raffle.address, chainId: 31337, schedule: "61 * * * *" }]);
    await worker.start();
    expect(worker.report()).toMatchObject({ raffles: 1, runs: [{ status: "invalidSchedule", errorCode: "invalidSchedule" }] });
    await worker.stop();
  });

  it("runOnce rotates every raffle once and says whether all succeeded", async () => {
    const ok = setUp();
    expect(await ok.worker.runOnce()).toEqual({ ok: true, found: true });
    expect(ok.raffle.started).toEqual([1n, 2n]);

    const blocked = setUp({ caller: "0xstranger" });
    expect(await blocked.worker.runOnce(blocked.raffle.address)).toEqual({ ok: false, found: true });
  });

  it("runOnce of a contract neither listed nor deployed on the chain runs nothing there; one with code is rotated anyway", async () => {
    const { raffle } = setUp();
    const deployed = new Set([raffle.address]);
    const ports: string[] = [];
    const rotator = new ChainRotator({
      chainId: 31338,
      source: { listRaffles: async () => [] },
      ports: (address) => (ports.push(address), raffle.port()),
      logger: new WorkerLogger({ level: "silent" }),
      hasContract: async (address) => deployed.has(address),
      refreshIntervalMs: 3_600_000,
      permanentFailureRefreshes: 3,
      apiRetry: { initialDelayMs: 10, maxDelayMs: 10 },
    });
    expect(await rotator.runOnce("0x00000000000000000000000000000000000000ff")).toEqual({ ok: true, found: false });
    expect(ports).toEqual([]);
    expect(await rotator.runOnce(raffle.address)).toEqual({ ok: true, found: true });
    expect(ports).toEqual([raffle.address]);
    expect(rotator.lastRun(raffle.address)).toMatchObject({ chainId: 31338, status: "rotated" });
  });
});
