/**
 * `npm run test:reliability`: every reliability part in turn, each as its own child process (so one part's chain,
 * API or database never meets another's), with its output streamed as it runs. Ends with one summary table — part,
 * cases tried, cases passed, result, seconds — and exits non-zero when any part failed.
 *
 * Cases come from each part's `RELIABILITY-RESULT {...}` line (see result.ts); for the indexer's Jest run, from
 * Jest's --json report. `RELIABILITY_PARTS=worker-kill,worker-chain` runs only the parts named.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

import { parseResult, type PartResult } from "./result";

const TOOLS = path.resolve(__dirname, "..");
const ROOT = path.resolve(TOOLS, "..");
const say = (line: string) => process.stdout.write(`${line}\n`);

interface Part {
  key: string;
  part: string;
  args: string[];
  cwd: string;
  env?: Record<string, string>;
  /** Where the part writes a Jest --json report, when its cases are Jest tests. */
  jestReport?: string;
}

const jestReport = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "reliability-")), "indexer-kills.json");
process.on("exit", () => fs.rmSync(path.dirname(jestReport), { recursive: true, force: true }));

const PARTS: Part[] = [
  { key: "soak", part: "soak: 60 s mixed load on the API", args: ["run", "soak"], cwd: TOOLS },
  { key: "postgres", part: "PostgreSQL restarted under the API", args: ["run", "fault:postgres"], cwd: TOOLS },
  { key: "chain", part: "chain node outage under the indexer", args: ["run", "fault:chain"], cwd: TOOLS },
  { key: "worker-chain", part: "chain node outage under the worker", args: ["run", "fault:worker-chain"], cwd: TOOLS },
  { key: "worker-kill", part: "worker SIGKILLed mid-rotation", args: ["run", "fault:worker-kill"], cwd: TOOLS },
  { key: "signer-rotation", part: "voucher key rotated under sign load", args: ["run", "fault:signer-rotation"], cwd: TOOLS },
  { key: "replica", part: "read replica killed under read load", args: ["run", "fault:replica"], cwd: TOOLS },
  { key: "launch", part: "launch: purchases, indexing leader and a delivery worker SIGKILLed", args: ["run", "fault:launch"], cwd: TOOLS },
  {
    key: "indexer-kills",
    part: "indexer SIGKILLed 20× mid-backfill (Jest)",
    args: ["--workspace", "libs/indexer", "exec", "--", "jest", "--runInBand", "--json", `--outputFile=${jestReport}`, "test/crash-restart.spec.ts"],
    cwd: ROOT,
    env: { INDEXER_KILLS: "20" },
    jestReport,
  },
];

let current: ReturnType<typeof spawn> | undefined;

/** Runs one part with its stdout streamed through; resolves with its exit code and its stdout. */
function run(part: Part): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("npm", part.args, { cwd: part.cwd, env: { ...process.env, ...part.env }, stdio: ["ignore", "pipe", "inherit"] });
    current = child;
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      process.stdout.write(chunk);
      // The result line is the last thing a part prints: the tail is enough.
      output = (output + chunk.toString()).slice(-100_000);
    });
    child.once("error", reject);
    child.once("close", (code) => {
      current = undefined;
      resolve({ code, output });
    });
  });
}

function jestCases(file: string): PartResult | undefined {
  if (!fs.existsSync(file)) return undefined;
  const report = JSON.parse(fs.readFileSync(file, "utf8")) as { numTotalTests: number; numPassedTests: number };
  return { part: "jest", tried: report.numTotalTests, passed: report.numPassedTests };
}

async function main(): Promise<void> {
  const only = process.env.RELIABILITY_PARTS?.split(",").map((key) => key.trim());
  const parts = PARTS.filter((part) => !only || only.includes(part.key));
  if (parts.length === 0) throw new Error(`RELIABILITY_PARTS matches none of ${PARTS.map((part) => part.key).join(", ")}`);
  const summary: Array<{ part: string; "cases tried": number | string; "cases passed": number | string; result: string; seconds: number }> = [];
  for (const part of parts) {
    say(`\n=== ${part.part} (npm ${part.args.join(" ")}) ===`);
    const started = Date.now();
    const { code, output } = await run(part);
    const cases = part.jestReport ? jestCases(part.jestReport) : parseResult(output);
    const allPassed = cases !== undefined && cases.tried > 0 && cases.passed === cases.tried;
    const result = code === 0 && allPassed ? "passed" : `FAILED (${code !== 0 ? `exit ${code}` : "not every case passed"})`;
    summary.push({
      part: part.part,
      "cases tried": cases?.tried ?? "-",
      "cases passed": cases?.passed ?? "-",
      result,
      seconds: Math.round((Date.now() - started) / 1_000),
    });
  }
  say("\n=== reliability summary ===");
  console.table(summary);
  const failed = summary.filter((row) => row.result !== "passed").length;
  const tried = summary.reduce((total, row) => total + (typeof row["cases tried"] === "number" ? row["cases tried"] : 0), 0);
  const passed = summary.reduce((total, row) => total + (typeof row["cases passed"] === "number" ? row["cases passed"] : 0), 0);
  say(`${passed} of ${tried} cases passed; ${summary.length - failed} of ${summary.length} parts passed${failed > 0 ? " — FAILED" : ""}`);
  process.exit(failed > 0 ? 1 : 0);
}

// Interrupted: let the running part clean up after itself (each stops its own nodes, APIs and databases) first.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    if (!current) process.exit(130);
    current.once("close", () => process.exit(130));
    current.kill("SIGTERM");
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`reliability run failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
