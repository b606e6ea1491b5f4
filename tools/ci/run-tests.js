#!/usr/bin/env node
// `npm test`: every project's build, typecheck and tests through Nx, several tasks side by side (each test target
// first compiles the contracts it needs, once for all; the API's also builds dist/). Then a table of each task's time
// (the CI budget is 15 minutes on 2 cores) and the totals of the suites as the last line, "N passed, N failed", with
// the exit code of the whole. Reports of earlier runs are removed first, so a project that did not run counts nothing.
// Extra arguments go to Nx, e.g. `npm test -- --projects=sdk,config` or `npm test -- --parallel=1`.
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const ROOT = path.resolve(__dirname, "../..");
const REPORTS = path.join(ROOT, "reports");
const PROFILE = "reports/nx-profile.json";
// The suites that run twice (indexer, merchant worker: Hardhat then anvil) and the contracts' invariant fuzzing have
// targets of their own, so they run beside the others rather than after them.
const TARGETS = ["build", "typecheck", "test", "test:anvil", "test:invariant"];
// Three at a time on 2 cores: most suites wait on chains, pollers and child processes more than they compute.
const PARALLEL = process.env.CI_TEST_PARALLEL ?? "3";

fs.mkdirSync(REPORTS, { recursive: true });
for (const file of fs.readdirSync(REPORTS)) {
  if (/\.(jest|mocha)\.json$/.test(file) || file === path.basename(PROFILE)) fs.rmSync(path.join(REPORTS, file));
}
const env = { NX_DAEMON: "false", NX_NO_CLOUD: "true", NX_TUI: "false", ...process.env, NX_PROFILE: PROFILE };
const started = Date.now();
const nx = spawnSync("npx", ["nx", "run-many", "-t", ...TARGETS, `--parallel=${PARALLEL}`, ...process.argv.slice(2)], {
  cwd: ROOT,
  env,
  stdio: "inherit",
});
const status = nx.status ?? 1;
spawnSync(process.execPath, [path.join(__dirname, "suite-times.js"), path.join(ROOT, PROFILE), String(Date.now() - started)], { stdio: "inherit" });
const count = spawnSync(process.execPath, [path.join(__dirname, "count-results.js"), REPORTS, String(status), "jest", "mocha"], { stdio: "inherit" });
process.exit(count.status ?? 1);
