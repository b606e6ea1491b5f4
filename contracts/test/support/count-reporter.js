// Mocha spec reporter that also writes its totals as JSON, so .ci/run can add up every suite.
const Mocha = require("mocha");
const fs = require("node:fs");
const path = require("node:path");

class CountReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once("end", () => {
      const out = process.env.MOCHA_JSON_OUT;
      if (!out) return;
      fs.mkdirSync(path.dirname(out), { recursive: true });
      fs.writeFileSync(out, JSON.stringify(this.stats));
    });
  }
}

module.exports = CountReporter;
