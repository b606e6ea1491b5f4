/**
 * `npm run bench`: signing and read throughput, indexer speed, gas and memory, against real parts. Not part of
 * `npm test`. It starts a local chain and the API (in its own process), uses DATABASE_URL or the machine's
 * PostgreSQL (else embedded PGlite), prints one table and writes bench/results.json (every run, every lag) and the
 * committed record docs/data/bench-last-run.json (the table with the machine's facts; the docs are generated from it).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { dropLeftoverDatabases } from "@raffle/db/testing";

import { stopOnAnyEnd } from "../stack/lifecycle";
import { chainsPart } from "./parts/chains";
import { gasPart } from "./parts/gas";
import { growthPart } from "./parts/growth";
import { indexerPart } from "./parts/indexer";
import { memoryPart } from "./parts/memory";
import { readsPart } from "./parts/reads";
import { relayerPart } from "./parts/relayer";
import { scalePart } from "./parts/scale";
import { signPart } from "./parts/sign";
import { webPart } from "./parts/web";
import { webhooksPart } from "./parts/webhooks";
import { BENCH_RECORD_FILE, benchSettings, machineFacts, writeBenchRecord } from "./record";
import { API_WORKERS, PARTS, RESULTS_FILE, ROOT, say } from "./settings";
import { startBenchStack, stopBenchStack, type BenchStack } from "./stack";

/** Every part, in the order they run: the indexer part stops the API, so the parts that load it come first. */
const PARTS_IN_ORDER: Array<[name: string, run: (stack: BenchStack) => Promise<void>]> = [
  ["sign", signPart],
  ["memory", memoryPart],
  ["webhooks", webhooksPart],
  ["relayer", relayerPart],
  ["chains", chainsPart],
  ["reads", readsPart],
  ["scale", scalePart],
  ["growth", growthPart],
  ["indexer", indexerPart],
  ["gas", gasPart],
  ["web", webPart],
];

/** The labels of the databases the bench creates (benchDatabase's): raffle_bench_*, raffle_growth_*. */
const BENCH_DATABASES = ["bench", "growth"];

/**
 * A bench stopped midway (Ctrl-C, TERM, a crash) drops its own databases on the way out; one killed outright leaves
 * them to the next run, which drops every one whose bench is gone. Its chain node, API and load processes go with it
 * either way (their exit hooks, and the reaper for SIGKILL).
 */
async function dropBenchDatabasesOnAnyEnd(): Promise<void> {
  const dropped = await dropLeftoverDatabases(BENCH_DATABASES).catch(() => []);
  if (dropped.length > 0) say(`dropped ${dropped.length} databases that stopped benches left behind: ${dropped.join(", ")}`);
  stopOnAnyEnd(
    () =>
      dropLeftoverDatabases(BENCH_DATABASES, { includingOwn: true }).then(
        () => undefined,
        () => undefined,
      ),
    say,
    { what: "the bench", budgetMs: 5_000 },
  );
}

async function main(): Promise<void> {
  await dropBenchDatabasesOnAnyEnd();
  const results: Record<string, unknown> = { machine: machineFacts(), apiWorkers: API_WORKERS, commands: ["npm run bench"] };
  say(`machine: ${os.cpus().length} cores (${os.cpus()[0]?.model}), Node ${process.version}; API workers: ${API_WORKERS}`);
  const stack = await startBenchStack(results);
  try {
    for (const [name, run] of PARTS_IN_ORDER) if (PARTS.has(name)) await run(stack);
  } finally {
    await stopBenchStack(stack);
  }
  const { rows } = stack;
  say("");
  say(`Benchmarks on ${os.cpus().length} cores (${os.cpus()[0]?.model}), Node ${process.version}`);
  console.table(
    rows.map((row) => ({ measure: row.measure, result: row.result, target: row.target, met: row.met === null ? "" : row.met ? "yes" : "NO" })),
  );
  fs.mkdirSync(path.dirname(RESULTS_FILE), { recursive: true });
  const date = new Date().toISOString();
  fs.writeFileSync(RESULTS_FILE, `${JSON.stringify({ ...results, table: rows, at: date }, null, 2)}\n`);
  writeBenchRecord({ date, machine: machineFacts(), parts: [...PARTS], settings: benchSettings(), rows });
  say(`wrote ${RESULTS_FILE} and ${path.relative(ROOT, BENCH_RECORD_FILE)} (npm run docs:generate puts it in docs/performance.md)`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
