// Adds up the Jest (--json) and Mocha (count-reporter) reports and prints "N passed, N failed" as the last line.
// A non-zero exit of the test command with no failure counted still counts as one failure.
const fs = require("node:fs");
const path = require("node:path");

const [dir = "reports", statusArg = "0"] = process.argv.slice(2);
const status = Number(statusArg);
let passed = 0;
let failed = 0;

for (const file of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
  const report = JSON.parse(fs.readFileSync(path.join(dir, file), "utf8"));
  if (file.endsWith(".jest.json")) {
    passed += report.numPassedTests;
    failed += report.numFailedTests + (report.numRuntimeErrorTestSuites ?? 0);
  } else if (file.endsWith(".mocha.json")) {
    passed += report.passes;
    failed += report.failures;
  }
  console.log(`${file}: ${JSON.stringify(file.endsWith(".jest.json") ? { passed: report.numPassedTests, failed: report.numFailedTests } : { passed: report.passes, failed: report.failures })}`);
}
if (status !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
