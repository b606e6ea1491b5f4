#!/usr/bin/env node
// `npm run lint`: ESLint (per project through Nx, cached), Prettier, solhint and Redocly's lint of the OpenAPI document.
// Each check is one result in reports/lint.lint.json, which .ci/run counts with the tests; exits non-zero when one fails.
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const ROOT = path.resolve(__dirname, "../..");
const bin = (name) => path.join(ROOT, "node_modules/.bin", name);
const SOLHINT = [bin("solhint"), "--disc", "--noPoster", "--max-warnings", "0"];
// The platform's contracts, then the test doubles (reentrant and hostile tokens, mock imports) with their own rules.
const TEST_DOUBLES = "contracts/src/test";

const CHECKS = [
  { name: "eslint", command: ["npx", "nx", "run-many", "-t", "lint"] },
  { name: "prettier", command: [bin("prettier"), "--check", "--log-level", "warn", "**/*.{ts,js,cjs,mjs}"] },
  { name: "solhint", command: [...SOLHINT, "contracts/src/**/*.sol"] },
  {
    name: "solhint (test doubles)",
    command: [...SOLHINT, "--config", `${TEST_DOUBLES}/.solhint.json`, "--ignore-path", `${TEST_DOUBLES}/.solhintignore`, `${TEST_DOUBLES}/*.sol`],
  },
  { name: "openapi (redocly)", command: [bin("redocly"), "lint", "apps/api/openapi.json"] },
];

// Offline: Redocly sends no telemetry and looks for no update; Nx runs without its daemon and cloud.
const env = {
  ...process.env,
  REDOCLY_TELEMETRY: "off",
  REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
  NX_DAEMON: "false",
  NX_NO_CLOUD: "true",
  NX_TUI: "false",
};
const results = CHECKS.map(({ name, command }) => {
  console.log(`\n== ${name}: ${command.map((part) => path.relative(ROOT, part) || part).join(" ")}`);
  const { status } = spawnSync(command[0], command.slice(1), { cwd: ROOT, env, stdio: "inherit" });
  console.log(`== ${name}: ${status === 0 ? "passed" : "failed"}`);
  return { name, passed: status === 0 };
});

const failed = results.filter((result) => !result.passed).length;
fs.mkdirSync(path.join(ROOT, "reports"), { recursive: true });
fs.writeFileSync(path.join(ROOT, "reports/lint.lint.json"), JSON.stringify({ passed: results.length - failed, failed, checks: results }, null, 2));
console.log(`\nlint: ${results.length - failed} of ${results.length} checks passed`);
process.exit(failed === 0 ? 0 : 1);
