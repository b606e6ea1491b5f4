/**
 * `npm --workspace tools run loop:measure`: the figures of the development loop (issue 51), measured on this machine by
 * editing, timing and restoring. Each scenario makes one edit, times one command, and restores the file whatever
 * happens (finally, and on Ctrl-C). It writes docs/data/loop-figures.json and the block between the markers in
 * docs/development.md.
 *
 * The edits are measured against HEAD (`test:affected -- --base HEAD`), so commit or stash your own work first: the
 * script refuses to start on a working tree with changes in the files it edits.
 */
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const ROOT = path.resolve(__dirname, "../..");
import { devRow } from "./dev-row";

const FIGURES = path.join(ROOT, "docs/data/loop-figures.json");
const DOC = path.join(ROOT, "docs/development.md");
const START = "<!-- loop-figures:start (written by npm --workspace tools run loop:measure) -->";
const END = "<!-- loop-figures:end -->";

interface Edit {
  file: string;
  /** The edited text, from the original. */
  change: (text: string) => string;
}

interface Scenario {
  name: string;
  edit: Edit;
  command: string[];
  target: string;
  limitSeconds?: number;
}

interface Figure {
  scenario: string;
  command: string;
  seconds: number;
  exitCode: number | null;
  target: string;
  met: boolean | null;
  /** What the command reported: the suites it chose, its totals line, what check found. */
  outcome: string;
}

/**
 * A one-line body change: the first `return X;` of a function becomes `return (X);` (same ABI, new bytecode), with the
 * time in a comment on the line, so no earlier measurement left this exact source in Nx's cache: the compile runs.
 */
function contractBodyChange(text: string): string {
  const changed = text.replace(/^(\s+)return ([^;\n()][^;\n]*);$/m, `$1return ($2); // loop figures, ${new Date().toISOString()}`);
  if (changed === text) throw new Error("no `return X;` line in Raffle.sol to change");
  return changed;
}

const SCENARIOS: Scenario[] = [
  {
    name: "one-line body change in contracts/src/Raffle.sol",
    edit: { file: "contracts/src/Raffle.sol", change: contractBodyChange },
    command: ["npm", "run", "check"],
    target: "green (or its type errors shown) in ≤ 60 s warm",
    limitSeconds: 60,
  },
  {
    name: "docs-only change (docs/README.md)",
    edit: { file: "docs/README.md", change: (text) => `${text}\nA line the loop figures add and remove.\n` },
    command: ["npm", "run", "test:affected", "--", "--base", "HEAD"],
    target: "≤ 20 s, no suite run",
    limitSeconds: 20,
  },
  {
    name: "API service change (apps/api/src/services/ttl-cache.ts)",
    edit: { file: "apps/api/src/services/ttl-cache.ts", change: (text) => `${text}\n// A line the loop figures add and remove.\n` },
    command: ["npm", "run", "test:affected", "--", "--base", "HEAD"],
    target: "only the API's unit suites",
  },
];

function run(command: string[], log: string): Promise<{ seconds: number; code: number | null; output: string }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command[0], command.slice(1), { cwd: ROOT, env: { ...process.env, NX_DAEMON: "false", NX_TUI: "false" } });
    let output = "";
    const take = (chunk: Buffer) => {
      output += chunk.toString();
      fs.appendFileSync(log, chunk);
    };
    child.stdout.on("data", take);
    child.stderr.on("data", take);
    child.on("close", (code) => resolve({ seconds: (Date.now() - started) / 1000, code, output }));
  });
}

function outcomeOf(output: string): string {
  const lines = output.trim().split("\n");
  const chosen = lines.find((line) => line.startsWith("chosen in "))?.replace(/^chosen in [0-9.]+ s: /, "suites of: ");
  const verdict = lines.filter((line) => /^(stale|broken): |^everything is generated/.test(line));
  const totals = lines.reverse().find((line) => /^\d+ passed, \d+ failed$/.test(line));
  return [chosen, ...verdict, totals].filter(Boolean).join("; ");
}

async function measure(scenario: Scenario, log: string): Promise<Figure> {
  const file = path.join(ROOT, scenario.edit.file);
  const original = fs.readFileSync(file, "utf8");
  const restore = () => fs.writeFileSync(file, original);
  const onSignal = () => {
    restore();
    process.exit(130);
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    fs.writeFileSync(file, scenario.edit.change(original));
    fs.appendFileSync(log, `\n===== ${scenario.name}: ${scenario.command.join(" ")}\n`);
    const result = await run(scenario.command, log);
    const seconds = Math.round(result.seconds * 10) / 10;
    return {
      scenario: scenario.name,
      command: scenario.command.join(" "),
      seconds,
      exitCode: result.code,
      target: scenario.target,
      met: scenario.limitSeconds === undefined ? null : seconds <= scenario.limitSeconds && result.code === 0,
      outcome: outcomeOf(result.output),
    };
  } finally {
    restore();
    process.removeListener("SIGINT", onSignal);
    process.removeListener("SIGTERM", onSignal);
  }
}

function block(record: {
  measuredAt: string;
  cores: number;
  loadAverage: number[];
  figures: Figure[];
  devContractRedeploySeconds?: unknown;
}): string {
  const rows = record.figures.map(
    (f) =>
      `| ${f.scenario} | \`${f.command}\` | ${f.seconds} | ${f.target} | ${f.met === null ? "see outcome" : f.met ? "yes" : "no"} | ${f.outcome} |`,
  );
  return [
    START,
    // No date here: the docs describe the last measured result; the data file keeps when it was measured.
    `Measured on ${record.cores} cores, load average ${record.loadAverage.join(" / ")} ` +
      "(1 / 5 / 15 min) when it started; data, with its date, in [docs/data/loop-figures.json](data/loop-figures.json).",
    "",
    "| Edit | Command | Seconds | Target | Met | Outcome |",
    "|---|---|---|---|---|---|",
    ...rows,
    devRow(record.devContractRedeploySeconds),
    END,
  ].join("\n");
}

function refuseDirtyFiles(): void {
  const files = SCENARIOS.map((s) => s.edit.file);
  const status = spawnSync("git", ["status", "--porcelain", "--", ...files], { cwd: ROOT, encoding: "utf8" }).stdout.trim();
  if (status) throw new Error(`commit or stash these first, the figures edit and restore them:\n${status}`);
}

async function main(): Promise<void> {
  refuseDirtyFiles();
  // Beside reports/logs/, not in it: each test:affected run empties that folder.
  const log = path.join(ROOT, "reports/loop-measure.log");
  fs.mkdirSync(path.dirname(log), { recursive: true });
  fs.writeFileSync(log, "");
  const loadAverage = os.loadavg().map((n) => Math.round(n * 10) / 10);
  // Warm: the first check after a checkout fills Nx's cache; the figure is the one after an edit on a warm cache.
  console.log("warming up: npm run check");
  await run(["npm", "run", "check"], log);
  const figures: Figure[] = [];
  for (const scenario of SCENARIOS) {
    console.log(`measuring: ${scenario.name}`);
    const figure = await measure(scenario, log);
    console.log(`  ${figure.seconds} s, exit ${figure.exitCode}: ${figure.outcome}`);
    figures.push(figure);
  }
  // The file also holds figures other scripts write (measure-dev.ts's devContractRedeploySeconds): keep them.
  const earlier = fs.existsSync(FIGURES) ? (JSON.parse(fs.readFileSync(FIGURES, "utf8")) as Record<string, unknown>) : {};
  const record = { ...earlier, measuredAt: new Date().toISOString(), cores: os.cpus().length, loadAverage, figures };
  fs.writeFileSync(FIGURES, `${JSON.stringify(record, null, 2)}\n`);
  const doc = fs.readFileSync(DOC, "utf8");
  const start = doc.indexOf(START);
  const end = doc.indexOf(END);
  if (start === -1 || end === -1) throw new Error(`docs/development.md has no ${START} ... ${END} block`);
  fs.writeFileSync(DOC, doc.slice(0, start) + block(record) + doc.slice(end + END.length));
  console.log(`wrote ${path.relative(ROOT, FIGURES)} and the figures in docs/development.md (log: ${path.relative(ROOT, log)})`);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
