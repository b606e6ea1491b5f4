// eslint-disable-next-line @typescript-eslint/no-require-imports
const { slowRequestCauses } = require("../bench/stall-report.js") as {
  slowRequestCauses(
    slow: Array<[number, number]>,
    loadGeneratorStalls: Array<[number, number]>,
    byWorker: Record<string, { stalls: Array<[number, number, number]>; gcs: Array<[number, number, number]> }>,
  ): Record<string, number>;
};

/** stall-report.js: which pauses each slow request of part `reads` overlapped (times in ms). */
describe("slowRequestCauses", () => {
  const byWorker = {
    // Worker 0: a stall it spent waiting for a CPU (1 ms on it), then one it spent running (8 ms on it).
    "0": { stalls: [[1_000, 10, 1] as [number, number, number], [2_000, 10, 8] as [number, number, number]], gcs: [] },
    // Worker 1: a 3 ms collection and a 1 ms one (too short to count).
    "1": { stalls: [], gcs: [[3_000, 3, 1] as [number, number, number], [4_000, 1, 1] as [number, number, number]] },
  };

  it("counts each slow request under every kind of pause it overlapped, once per kind", () => {
    const slow: Array<[number, number]> = [
      [1_015, 20], // 995-1015: worker 0's waited stall
      [2_005, 20], // 1985-2005: worker 0's own long task
      [3_002, 15], // 2987-3002: worker 1's collection
      [5_020, 20], // 5000-5020: the load generator's stall
      [4_020, 15], // 4005-4020: nothing (the 1 ms collection ended at 4001)
    ];
    expect(slowRequestCauses(slow, [[5_010, 6]], byWorker)).toEqual({ loadGenerator: 1, worker0: 2, worker1: 0, ownLongTask: 1, gc: 1, none: 1 });
  });

  it("does not count a pause that ended before the request started or began after it ended", () => {
    expect(slowRequestCauses([[1_040, 20]], [[990, 5]], byWorker)).toEqual({
      loadGenerator: 0,
      worker0: 0,
      worker1: 0,
      ownLongTask: 0,
      gc: 0,
      none: 1,
    });
  });
});
