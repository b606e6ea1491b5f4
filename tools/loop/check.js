#!/usr/bin/env node
// `npm run check`: compiles the contracts, regenerates every generated artefact, type-checks every project, then says
// what is stale (a generated file that now differs from git: the change that made it differ is not committed with it)
// or broken (type errors, shown above the summary), and exits non-zero on either. Each step is an Nx target with its
// inputs and outputs declared (package.json `nx` fields, nx.json), so a step whose inputs did not change is restored
// from Nx's cache instead of run: warm, a one-line body change in a contract costs the compile alone.
//
// A new generator is one more entry in GENERATORS: its Nx target (with `dependsOn` on what it reads, so Nx orders the
// targets), the tracked paths it writes, and the command a person runs for it alone.
const { spawnSync } = require("node:child_process");
const path = require("node:path");

const ROOT = path.resolve(__dirname, "../..");
const ENV = { NX_DAEMON: "false", NX_NO_CLOUD: "true", NX_TUI: "false", ...process.env };

const GENERATORS = [
  // The bindings (libs/chain/src/typechain) are git-ignored: nothing to commit, but every typecheck reads them.
  { project: "@raffle/contracts", target: "compile", writes: [], fix: "npm run compile" },
  // The ABIs the SDK, the libraries and the web app call the contracts with, read from the compiled artefacts.
  { project: "@raffle/chain", target: "abi:generate", writes: ["libs/chain/src/generated"], fix: "npm --workspace libs/chain run abi:generate" },
  { project: "@raffle/api", target: "openapi", writes: ["apps/api/openapi.json"], fix: "npm run sdk:generate" },
  { project: "@raffle/sdk", target: "generate", writes: ["libs/sdk/src/generated"], fix: "npm run sdk:generate" },
  {
    project: "@raffle/tools",
    target: "docs:generate",
    writes: ["docs/reference", "docs/performance.md"],
    fix: "npm --workspace tools run docs:generate",
  },
];

const STEPS = [
  {
    title: "compile and generate",
    nx: [
      "run-many",
      "--parallel=2",
      `--projects=${[...new Set(GENERATORS.map((g) => g.project))]}`,
      "-t",
      ...new Set(GENERATORS.map((g) => g.target)),
    ],
    broken: "a compile or a generator failed (shown above)",
  },
  { title: "typecheck of every project", nx: ["run-many", "-t", "typecheck", "--parallel=2"], broken: "type errors (shown above)" },
];

function nx(args) {
  return spawnSync("npx", ["nx", ...args, "--output-style=static"], { cwd: ROOT, env: ENV, stdio: "inherit" }).status ?? 1;
}

/** Generated files that differ from git (modified, added or deleted), as `git status --porcelain` names them. */
function differingFromGit(paths) {
  if (paths.length === 0) return [];
  const status = spawnSync("git", ["status", "--porcelain", "--untracked-files=all", "--", ...paths], { cwd: ROOT, encoding: "utf8" });
  if (status.status !== 0) throw new Error(`git status failed: ${status.stderr}`);
  return status.stdout
    .split("\n")
    .filter(Boolean)
    .map((line) => line.slice(3));
}

function main() {
  const started = Date.now();
  const broken = [];
  for (const step of STEPS) {
    const stepStart = Date.now();
    console.log(`\n== ${step.title}`);
    const status = nx(step.nx);
    console.log(`== ${step.title}: ${status === 0 ? "ok" : "failed"} in ${((Date.now() - stepStart) / 1000).toFixed(1)} s`);
    if (status !== 0) broken.push(step.broken);
  }

  const stale = GENERATORS.flatMap((g) => differingFromGit(g.writes).map((file) => `stale: ${file} (run ${g.fix})`));
  console.log(`\ncheck in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  for (const line of stale) console.log(line);
  if (stale.length > 0) console.log("check wrote the generated files above again: review them and commit them with the change that made them");
  for (const line of broken) console.log(`broken: ${line}`);
  if (stale.length === 0 && broken.length === 0) console.log("everything is generated, committed and type-checks");
  process.exit(stale.length > 0 || broken.length > 0 ? 1 : 0);
}

main();
