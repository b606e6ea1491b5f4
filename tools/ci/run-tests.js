#!/usr/bin/env node
// `npm test`: every project's build, typecheck and tests through Nx, several tasks side by side, then a table of each
// task's time (the CI budget is 15 minutes on 2 cores) and the totals of the suites as the last line,
// "N passed, N failed", with the exit code of the whole. Reports of earlier runs are removed first, so a project that
// did not run counts nothing. Extra arguments go to Nx, e.g. `npm test -- --projects=@raffle/sdk,@raffle/config`.
//
// Two phases. First the contracts' compile (once for all) and every build: the API's and the worker's write the same
// dist/ tree, which the API's and the tools' suites run, so no suite may start while a build still writes it. Then
// every typecheck and suite, without their task dependencies (the first phase ran them).
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const ROOT = path.resolve(__dirname, "../..");
const REPORTS = path.join(ROOT, "reports");
// The suites that run twice (indexer, merchant worker: Hardhat, then anvil) and the contracts' invariant fuzzing have
// targets of their own, so they run beside the others rather than after them.
const PHASES = [
  { name: "build", targets: ["compile", "build"], options: [], env: {} },
  // The build is frozen while suites run: a Hardhat task a test runs compiles nothing (contracts/tasks/action.ts).
  {
    name: "test",
    targets: ["typecheck", "test", "test:anvil", "test:invariant"],
    options: ["--exclude-task-dependencies"],
    env: { RAFFLE_FROZEN_BUILD: "1" },
  },
];
// Three tasks side by side: most suites wait on chains, databases and timers more than they compute. What made that
// safe (docs/development.md, "CI time"): the frozen build, and waits and bounds sized for a loaded machine.
// CI_TEST_PARALLEL=1 runs one task at a time, to tell a slow suite from a loaded machine.
const PARALLEL = process.env.CI_TEST_PARALLEL ?? "3";
const profileOf = (phase) => path.join("reports", `nx-profile.${phase.name}.json`);

fs.mkdirSync(REPORTS, { recursive: true });
for (const file of fs.readdirSync(REPORTS)) {
  if (/\.(jest|mocha)\.json$/.test(file) || /^nx-profile\./.test(file)) fs.rmSync(path.join(REPORTS, file));
}
const started = Date.now();
let status = 0;
for (const phase of PHASES) {
  const env = { NX_DAEMON: "false", NX_NO_CLOUD: "true", NX_TUI: "false", ...process.env, ...phase.env, NX_PROFILE: profileOf(phase) };
  const args = ["nx", "run-many", "-t", ...phase.targets, `--parallel=${PARALLEL}`, ...phase.options, ...process.argv.slice(2)];
  const nx = spawnSync("npx", args, { cwd: ROOT, env, stdio: "inherit" });
  status ||= nx.status ?? 1;
}
const profiles = PHASES.map((phase) => path.join(ROOT, profileOf(phase)));
spawnSync(process.execPath, [path.join(__dirname, "suite-times.js"), String(Date.now() - started), ...profiles], { stdio: "inherit" });
const count = spawnSync(process.execPath, [path.join(__dirname, "count-results.js"), REPORTS, String(status), "jest", "mocha"], { stdio: "inherit" });
process.exit(count.status ?? 1);
