/**
 * The benchmark's record: what `npm run bench` measured, with the facts of the machine it ran on, written to a
 * committed data file (docs/data/bench-last-run.json) from which the docs' performance page is generated
 * (`npm run docs:generate`). Figures of this machine kind move with its load, so they are only worth reading beside
 * the machine, the date and the settings they came from.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

export const BENCH_RECORD_FILE = path.resolve(__dirname, "../../docs/data/bench-last-run.json");

export interface BenchRow {
  measure: string;
  result: string;
  target: string;
  /** Whether the target is met; null for a row without a target. */
  met: boolean | null;
}

export interface MachineFacts {
  cpu: string;
  cores: number;
  memoryGiB: number;
  node: string;
  platform: string;
}

export interface BenchRecord {
  /** ISO time the run ended. */
  date: string;
  machine: MachineFacts;
  /** The parts that ran (BENCH_PARTS) and every BENCH_* setting given, so a shortened run says so. */
  parts: string[];
  settings: Record<string, string>;
  rows: BenchRow[];
}

export function machineFacts(): MachineFacts {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? "unknown",
    cores: cpus.length,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${os.platform()} ${os.arch()}`,
  };
}

/** The BENCH_* variables of this run, the knobs that shorten, grow or narrow it. */
export function benchSettings(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env)
      .filter((entry): entry is [string, string] => entry[0].startsWith("BENCH_") && entry[1] !== undefined)
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

export function writeBenchRecord(record: BenchRecord, file = BENCH_RECORD_FILE): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`);
}
