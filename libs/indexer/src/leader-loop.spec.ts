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

/** The gaps between consecutive steps, in ms. */
const gapsOf = (times: number[]) => times.slice(1).map((time, index) => time - times[index]);

// Jest's fake clock (timers and Date.now): the waits the loop asks for are what it gets, so the schedule is exact and a
// loaded machine cannot fire a timer late into a wrong gap.
describe("LeaderLoop's back-off on a quiet chain", () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it("doubles the wait after each idle step up to idlePollMaxMs, instead of stepping every poll interval", async () => {
    const { loop, stepTimes } = scriptedLoop(() => ({ kind: "idle" }));
    loop.start();
    await jest.advanceTimersByTimeAsync(1_200);
    await loop.stop();
    // Every poll interval would be 60 steps in 1.2 s; backing off gives 10, at 0, 20, 60, 140, 300, 460, ... 1100 ms.
    expect(gapsOf(stepTimes)).toEqual([20, 40, 80, 160, 160, 160, 160, 160, 160]);
  });

  it("keeps backing off over batches without events, and polls at the interval again after one with events", async () => {
    // Steps 1, 4, 7, 10 are batches without events that have not reached the head (the state knows no lag): the next
    // step follows at once, and the back-off neither grows nor resets. Step 9 indexes events; the others are idle.
    const { loop, stepTimes } = scriptedLoop((index) =>
      index === 9 ? { kind: "batch", from: 1, to: 1, events: 3 } : index % 3 === 1 ? { kind: "batch", from: 1, to: 1, events: 0 } : { kind: "idle" },
    );
    loop.start();
    for (let waited = 0; stepTimes.length < 13 && waited < 5_000; waited += 5) await jest.advanceTimersByTimeAsync(5);
    await loop.stop();
    // Idle steps 0, 2, 3, 5, 6 and 8 back off to the cap (20, 40, 80, 160, 160, 160); after step 9's events the
    // first idle step, 11, waits one poll interval again.
    expect(gapsOf(stepTimes).slice(0, 12)).toEqual([20, 0, 40, 80, 0, 160, 160, 0, 160, 0, 0, 20]);
  });

  it("comes back to the poll interval and is woken at once by a new head", async () => {
    const { loop, stepTimes } = scriptedLoop(() => ({ kind: "idle" }));
    loop.start();
    // Steps at 0, 20, 60, 140, 300, 460 and 620 ms: the loop is waiting 160 ms, until 780, when the head comes at 700.
    await jest.advanceTimersByTimeAsync(700);
    const before = stepTimes.length;
    const announced = Date.now();
    loop.onNewHead();
    await jest.advanceTimersByTimeAsync(0);
    expect(stepTimes.length).toBe(before + 1);
    expect(stepTimes[before]).toBe(announced);
    // The head reset the back-off: the next step follows one poll interval later.
    await jest.advanceTimersByTimeAsync(POLL_MS);
    await loop.stop();
    expect(gapsOf(stepTimes).slice(before)).toEqual([POLL_MS]);
  });
});
