// Adds up the reports in a folder and prints "N passed, N failed" as the last line: Jest (--json), Mocha
// (count-reporter) and lint (tools/ci/lint.js) reports, or only the kinds named. A non-zero exit of the command that
// ran them, with no failure counted, still counts as one failure.
// Usage: node tools/ci/count-results.js <dir> <exit status> [jest|mocha|lint ...]
const fs = require("node:fs");
const path = require("node:path");

const [dir = "reports", statusArg = "0", ...kindArgs] = process.argv.slice(2);
const READERS = {
  jest: (report) => ({ passed: report.numPassedTests, failed: report.numFailedTests + (report.numRuntimeErrorTestSuites ?? 0) }),
  mocha: (report) => ({ passed: report.passes, failed: report.failures }),
  lint: (report) => ({ passed: report.passed, failed: report.failed }),
};
const kinds = kindArgs.length > 0 ? kindArgs : Object.keys(READERS);
let passed = 0;
let failed = 0;

for (const file of fs.existsSync(dir) ? fs.readdirSync(dir).sort() : []) {
  const kind = kinds.find((name) => file.endsWith(`.${name}.json`));
  if (!kind) continue;
  const counts = READERS[kind](JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")));
  passed += counts.passed;
  failed += counts.failed;
  console.log(`${file}: ${JSON.stringify(counts)}`);
}
if (Number(statusArg) !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
