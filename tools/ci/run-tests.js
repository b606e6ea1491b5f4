#!/usr/bin/env node
// `npm test`: every project's build, typecheck and test through Nx (each test target first compiles the contracts
// it needs, the API's also builds dist/), then the totals of the suites as the last line, "N passed, N failed", with
// the exit code of the whole. Reports of earlier runs are removed first, so a project that did not run counts nothing.
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const ROOT = path.resolve(__dirname, "../..");
const REPORTS = path.join(ROOT, "reports");

fs.mkdirSync(REPORTS, { recursive: true });
for (const file of fs.readdirSync(REPORTS)) {
  if (/\.(jest|mocha)\.json$/.test(file)) fs.rmSync(path.join(REPORTS, file));
}
const env = { NX_DAEMON: "false", NX_NO_CLOUD: "true", NX_TUI: "false", ...process.env };
const nx = spawnSync("npx", ["nx", "run-many", "-t", "build", "typecheck", "test", ...process.argv.slice(2)], { cwd: ROOT, env, stdio: "inherit" });
const status = nx.status ?? 1;
const count = spawnSync(process.execPath, [path.join(__dirname, "count-results.js"), REPORTS, String(status), "jest", "mocha"], { stdio: "inherit" });
process.exit(count.status ?? 1);
