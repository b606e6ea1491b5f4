/** Part "memory": the whole API's resident memory (its primary and every worker) under the sign load. */
import { SIGN_CONNECTIONS, say } from "../settings";
import { randomAccounts, signLoad, type BenchStack } from "../stack";

/** Issue 33: every process of the API together, under the sign load. */
const TARGET_MIB = 400;
const SAMPLE_EVERY_MS = 100;

export async function memoryPart(stack: BenchStack): Promise<void> {
  const { api, results, rows } = stack;
  // The sum of the processes' RSS, read together at each sample: the peak of the sum, which the machine's memory has
  // to hold at once (the sum of each process's own peak, VmHWM, also counts start-up peaks that never coincide).
  let peakSum = 0;
  let peakAt: Array<{ pid: number; rssMiB: number }> = [];
  const sample = () => {
    try {
      const now = api.memoryByProcess();
      const sum = now.reduce((total, process) => total + process.rssMiB, 0);
      if (sum > peakSum) [peakSum, peakAt] = [sum, now.map(({ pid, rssMiB }) => ({ pid, rssMiB: Math.round(rssMiB) }))];
    } catch {
      // A process ended between listing and reading: the next sample has the rest.
    }
  };
  say("memory: the API's RSS (primary and workers) sampled under the sign load");
  const timer = setInterval(sample, SAMPLE_EVERY_MS);
  let load;
  try {
    load = await signLoad(stack, randomAccounts(), SIGN_CONNECTIONS, api, "memory");
  } finally {
    clearInterval(timer);
  }
  sample();
  const lifetimePeaks = api.memoryByProcess().map(({ pid, peakRssMiB }) => ({ pid, peakRssMiB: Math.round(peakRssMiB) }));
  const lifetimeSum = lifetimePeaks.reduce((total, process) => total + process.peakRssMiB, 0);
  results.memoryUnderSign = {
    peakRssSumMiB: Math.round(peakSum),
    atPeak: peakAt,
    lifetimePeaks,
    lifetimePeakSumMiB: lifetimeSum,
    requestsPerSecond: load.requestsPerSecond,
    // What the memory costs in CPU: a setting that holds less (more frequent collections) shows here.
    apiCpuMicrosPerRequest: Math.round(load.apiCpuMicros / load.requests),
  };
  rows.push(
    {
      measure: `memory: API RSS under the sign load, all ${peakAt.length} processes summed (peak of ${SAMPLE_EVERY_MS} ms samples)`,
      result: `${Math.round(peakSum)} MiB (${peakAt.map((process) => process.rssMiB).join(" + ")})`,
      target: `<= ${TARGET_MIB} MiB`,
      met: peakSum <= TARGET_MIB,
    },
    {
      measure: "memory: each API process's own peak (VmHWM, start-up included), summed",
      result: `${lifetimeSum} MiB (${lifetimePeaks.map((process) => process.peakRssMiB).join(" + ")})`,
      target: `<= ${TARGET_MIB} MiB`,
      met: lifetimeSum <= TARGET_MIB,
    },
    {
      measure: "memory: the sign load of this part, requests/s and API CPU per request",
      result: `${Math.round(load.requestsPerSecond)} req/s, ${Math.round(load.apiCpuMicros / load.requests)} µs`,
      target: "",
      met: null,
    },
  );
}
