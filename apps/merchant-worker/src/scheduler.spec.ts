import { LogCapture } from "../test/support/log-capture";
import type { RaffleListing, RaffleSource } from "./raffle-source";
import { WorkerLogger } from "./logger";
import { RaffleScheduler, cronTimers, scheduleProblem, type TimerFactory } from "./scheduler";

const A = "0x00000000000000000000000000000000000000a1";
const B = "0x00000000000000000000000000000000000000b2";
const C = "0x00000000000000000000000000000000000000c3";

function listing(address: string, schedule: string | undefined, id = 1): RaffleListing {
  return { id, address, chainId: 31337, schedule };
}

/** A stubbed list source and timers that fire only when the test says so. */
function setUp() {
  let raffles: RaffleListing[] = [];
  const source: RaffleSource & { calls: number } = {
    calls: 0,
    async listRaffles() {
      this.calls += 1;
      return raffles;
    },
  };
  const armed = new Map<string, { schedule: string; fire: () => void; stopped: boolean }>();
  let nextTimer = 0;
  const timers: TimerFactory = (schedule, _zone, onTick) => {
    const timer = { schedule, fire: () => onTick(1_700_000_000), stopped: false };
    armed.set(`${(nextTimer += 1)}`, timer);
    return { stop: () => void (timer.stopped = true) };
  };
  const live = () => [...armed.values()].filter((timer) => !timer.stopped);
  const ticks: Array<[string, string | undefined]> = [];
  const invalid: Array<[string, string]> = [];
  const logs = new LogCapture();
  const scheduler = new RaffleScheduler({
    source,
    logger: new WorkerLogger({ level: "debug", sink: logs.sink }),
    timers,
    onTick: (raffle) => ticks.push([raffle.address, raffle.schedule]),
    onInvalidSchedule: (raffle, problem) => invalid.push([raffle.address, problem]),
  });
  return { scheduler, source, setList: (list: RaffleListing[]) => (raffles = list), live, ticks, invalid, logs };
}

describe("scheduleProblem", () => {
  it.each(["*/2 * * * * *", "0 0 * * *", "15 3 * * 1-5", "@daily"])("accepts %s", (schedule) => {
    expect(scheduleProblem(schedule)).toBeUndefined();
  });

  it.each([
    ["* * * *", "Too few fields"],
    ["0 0 * * * * *", "Too many fields"],
    ["61 * * * *", "out of range"],
    ["every day", "Unknown alias"],
    ["", "no schedule"],
    [undefined, "no schedule"],
  ])("rejects %p", (schedule, problem) => {
    expect(scheduleProblem(schedule)).toContain(problem);
  });
});

describe("RaffleScheduler", () => {
  it("schedules every listed raffle, and fires each with its current listing", async () => {
    const { scheduler, setList, live, ticks } = setUp();
    setList([listing(A, "*/2 * * * * *"), listing(B, "0 0 * * *", 2)]);
    const summary = await scheduler.refresh();
    expect(summary).toMatchObject({ raffles: 2, added: [A, B], changed: [], removed: [], invalid: [] });
    expect(live().map((timer) => timer.schedule)).toEqual(["*/2 * * * * *", "0 0 * * *"]);
    live()[0].fire();
    expect(ticks).toEqual([[A, "*/2 * * * * *"]]);
    scheduler.stop();
    expect(live()).toHaveLength(0);
  });

  it("reports an invalid schedule in a structured log, skips that raffle and keeps the others", async () => {
    const { scheduler, setList, live, invalid, logs } = setUp();
    setList([listing(A, "not a cron"), listing(B, "*/5 * * * *", 2), listing(C, undefined, 3)]);
    const summary = await scheduler.refresh();
    expect(summary.invalid).toEqual([A, C]);
    expect(live().map((timer) => timer.schedule)).toEqual(["*/5 * * * *"]);
    expect(invalid.map(([address]) => address)).toEqual([A, C]);
    const report = logs.lines.find((line) => line.contract === A);
    expect(report).toMatchObject({ level: "error", contract: A, contractId: 1, schedule: "not a cron" });
    expect(String(report!.error)).toContain("Unknown alias");
    expect(scheduler.snapshot().find((entry) => entry.raffle.address === A)).toMatchObject({ scheduled: false });

    // Refreshing the same list reports nothing new: an invalid schedule is logged once per change.
    const errorsBefore = logs.messages("error").length;
    await scheduler.refresh();
    expect(logs.messages("error")).toHaveLength(errorsBefore);
    scheduler.stop();
  });

  it("picks up new raffles, re-arms changed schedules and drops removed raffles on refresh", async () => {
    const { scheduler, setList, live, ticks } = setUp();
    setList([listing(A, "*/2 * * * * *"), listing(B, "0 0 * * *", 2)]);
    await scheduler.refresh();

    setList([listing(A, "*/3 * * * * *"), listing(C, "0 * * * *", 3)]);
    const summary = await scheduler.refresh();
    expect(summary).toMatchObject({ added: [C], changed: [A], removed: [B] });
    expect(
      live()
        .map((timer) => timer.schedule)
        .sort(),
    ).toEqual(["*/3 * * * * *", "0 * * * *"]);
    live()
      .find((timer) => timer.schedule === "*/3 * * * * *")!
      .fire();
    expect(ticks).toEqual([[A, "*/3 * * * * *"]]);

    // A schedule fixed from invalid to valid gets armed.
    setList([listing(A, "bad"), listing(C, "0 * * * *", 3)]);
    await scheduler.refresh();
    expect(live().map((timer) => timer.schedule)).toEqual(["0 * * * *"]);
    setList([listing(A, "*/4 * * * * *"), listing(C, "0 * * * *", 3)]);
    expect((await scheduler.refresh()).changed).toEqual([A]);
    expect(
      live()
        .map((timer) => timer.schedule)
        .sort(),
    ).toEqual(["*/4 * * * * *", "0 * * * *"]);
    scheduler.stop();
  });

  it("keys raffles by chain and address: the same address on two chains is two raffles", async () => {
    const { scheduler, setList, live, ticks } = setUp();
    setList([listing(A, "*/2 * * * * *"), { ...listing(A, "*/3 * * * * *"), chainId: 31338 }]);
    expect((await scheduler.refresh()).added).toEqual([A, A]);
    expect(scheduler.snapshot().map((entry) => entry.raffle.chainId)).toEqual([31337, 31338]);
    expect(live().map((timer) => timer.schedule)).toEqual(["*/2 * * * * *", "*/3 * * * * *"]);
    // Dropping it from one chain leaves the other chain's timer alone.
    setList([{ ...listing(A, "*/3 * * * * *"), chainId: 31338 }]);
    expect((await scheduler.refresh()).removed).toEqual([A]);
    live()[0].fire();
    expect(ticks).toEqual([[A, "*/3 * * * * *"]]);
    scheduler.stop();
  });

  it("keeps its timers when a refresh fails", async () => {
    const { scheduler, setList, source, live } = setUp();
    setList([listing(A, "*/2 * * * * *")]);
    await scheduler.refresh();
    source.listRaffles = async () => {
      throw new Error("API down");
    };
    await expect(scheduler.refresh()).rejects.toThrow("API down");
    expect(live()).toHaveLength(1);
    scheduler.stop();
  });

  it("arms nothing once stopped, even from a refresh that was under way", async () => {
    const { scheduler, setList, source, live } = setUp();
    setList([listing(A, "*/2 * * * * *")]);
    let answer!: () => void;
    const list = source.listRaffles.bind(source);
    source.listRaffles = () => new Promise((resolve) => (answer = () => resolve(list())));
    const refresh = scheduler.refresh();
    scheduler.stop();
    answer();
    await expect(refresh).rejects.toThrow("scheduler stopped");
    expect(live()).toHaveLength(0);
    scheduler.startRefreshing(10);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(live()).toHaveLength(0);
  });

  it("shares one read between overlapping refreshes", async () => {
    const { scheduler, setList, source } = setUp();
    setList([listing(A, "*/2 * * * * *")]);
    await Promise.all([scheduler.refresh(), scheduler.refresh()]);
    expect(source.calls).toBe(1);
    scheduler.stop();
  });

  it("fires a real 6-field cron every second, with the scheduled second, and not after stop", async () => {
    const seconds: Array<[number, number]> = [];
    const timer = cronTimers("* * * * * *", "UTC", (second) => seconds.push([second, Date.now()]));
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    timer.stop();
    expect(seconds.length).toBeGreaterThanOrEqual(2);
    expect(seconds[1][0] - seconds[0][0]).toBe(1);
    for (const [second, firedAt] of seconds) {
      expect(Number.isInteger(second)).toBe(true);
      expect(firedAt).toBeGreaterThanOrEqual(second * 1_000);
      expect(firedAt - second * 1_000).toBeLessThan(500);
    }
    const fired = seconds.length;
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(seconds).toHaveLength(fired);
  });

  it("reads a schedule in its time zone", async () => {
    const seconds: number[] = [];
    // Every second, so the zone changes nothing but must be accepted; an unknown zone is refused.
    const timer = cronTimers("* * * * * *", "Asia/Kolkata", (second) => seconds.push(second));
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    timer.stop();
    expect(seconds.length).toBeGreaterThanOrEqual(1);
    expect(() => cronTimers("* * * * * *", "Mars/Olympus", () => undefined)).toThrow();
  });
});
