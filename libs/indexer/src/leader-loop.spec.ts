import { IndexerState } from "./indexer-state";
import type { StepResult } from "./indexer-types";
import { LeaderLoop } from "./leader-loop";
import type { Leadership } from "./leadership";
import { silentLogger } from "./logger";

const POLL_MS = 20;
const IDLE_MAX_MS = 160;

/** A loop over a scripted step (pure scheduling logic: no chain, no database), recording when each step ran. */
function scriptedLoop(next: (stepIndex: number) => StepResult) {
  const state = new IndexerState(31337);
  state.setLeader(true);
  const stepTimes: number[] = [];
  const leadership = { isHeld: true, confirm: async () => true } as unknown as Leadership;
  const loop = new LeaderLoop({
    chainId: 31337,
    pollIntervalMs: POLL_MS,
    idlePollMaxMs: IDLE_MAX_MS,
    leadership,
    logger: silentLogger,
    state,
    step: async () => {
      stepTimes.push(Date.now());
      return next(stepTimes.length - 1);
    },
    refresh: async () => undefined,
  });
  return { loop, stepTimes };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("LeaderLoop's back-off on a quiet chain", () => {
  it("doubles the wait after each idle step up to idlePollMaxMs, instead of stepping every poll interval", async () => {
    const { loop, stepTimes } = scriptedLoop(() => ({ kind: "idle" }));
    loop.start();
    await sleep(1_200);
    await loop.stop();
    // Every poll interval would be 60 steps; backing off (20, 40, 80, 160, 160, ...) gives about 11. A loaded machine
    // only gives fewer.
    expect(stepTimes.length).toBeLessThanOrEqual(14);
    expect(stepTimes.length).toBeGreaterThanOrEqual(3);
    const gaps = stepTimes.slice(1).map((time, index) => time - stepTimes[index]);
    // The gaps grow, and none reaches far beyond the cap (timers fire late on a loaded machine, never early).
    expect(Math.max(...gaps)).toBeGreaterThanOrEqual(IDLE_MAX_MS - 5);
    expect(gaps[0]).toBeLessThan(IDLE_MAX_MS);
  });

  it("keeps backing off over batches without events, and polls at the interval again after one with events", async () => {
    // Steps 1, 4, 7, 10 are batches without events, the others idle, but step 9 indexes events.
    const { loop, stepTimes } = scriptedLoop((index) =>
      index === 9 ? { kind: "batch", from: 1, to: 1, events: 3 } : index % 3 === 1 ? { kind: "batch", from: 1, to: 1, events: 0 } : { kind: "idle" },
    );
    loop.start();
    const deadline = Date.now() + 5_000;
    while (stepTimes.length < 13 && Date.now() < deadline) await sleep(5);
    await loop.stop();
    // Six idle steps before step 9: backed off to the cap. After it (and the empty batch 10), step 11 is the first idle
    // one again, so step 12 follows it one poll interval later.
    const gapBefore = stepTimes[9] - stepTimes[8];
    const gapAfter = stepTimes[12] - stepTimes[11];
    expect(gapBefore).toBeGreaterThanOrEqual(IDLE_MAX_MS / 2 - 5);
    expect(gapAfter).toBeLessThan(gapBefore);
  });

  it("comes back to the poll interval and is woken at once by a new head", async () => {
    const { loop, stepTimes } = scriptedLoop(() => ({ kind: "idle" }));
    loop.start();
    await sleep(700);
    const before = stepTimes.length;
    const announced = Date.now();
    loop.onNewHead();
    const deadline = Date.now() + 2_000;
    while (stepTimes.length === before && Date.now() < deadline) await sleep(1);
    await loop.stop();
    // Woken well before the backed-off wait (160 ms) would have ended.
    expect(stepTimes[before] - announced).toBeLessThan(IDLE_MAX_MS / 2);
  });
});
