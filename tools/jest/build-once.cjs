// Jest global setup of the tools suite: dist/ brought up to date (fresh-dist.cjs), then the rest of the build its
// specs use, made once here and frozen for them. The suite runs two specs at a time, and several of them build when
// the build is not frozen: `npm start` compiles the contracts and builds the player app, a Hardhat task compiles before
// it runs. One of them compiling would rewrite the artifacts and the bindings, or empty the app's folder, while another
// spec reads them. Under `npm test` (RAFFLE_FROZEN_BUILD=1, after its build phase) this does nothing more; run alone,
// it compiles only when a contract is newer than the last compile, and builds the app only when a source of it is newer
// than the build. The workers inherit RAFFLE_FROZEN_BUILD=1 from this process.
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const freshDist = require("./fresh-dist.cjs");

const ROOT = path.resolve(__dirname, "../..");

function newestMtime(dir, matches) {
  if (!fs.existsSync(dir)) return 0;
  return fs.readdirSync(dir, { withFileTypes: true }).reduce((newest, entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return Math.max(newest, newestMtime(file, matches));
    return matches(entry.name) ? Math.max(newest, fs.statSync(file).mtimeMs) : newest;
  }, 0);
}

function mtimeOf(file) {
  return fs.existsSync(file) ? fs.statSync(file).mtimeMs : 0;
}

/** The steps a spec's build would take, each when its sources are newer than its output. */
const STEPS = [
  {
    what: "the contracts' compile",
    stale: () =>
      newestMtime(path.join(ROOT, "contracts/src"), (name) => name.endsWith(".sol")) >
      mtimeOf(path.join(ROOT, "contracts/cache/solidity-files-cache.json")),
    args: ["run", "compile"],
  },
  {
    what: "the player app's build",
    stale: () =>
      Math.max(
        newestMtime(path.join(ROOT, "apps/web/src"), () => true),
        ...["index.html", "console/index.html", "vite.config.mts"].map((file) => mtimeOf(path.join(ROOT, "apps/web", file))),
      ) > mtimeOf(path.join(ROOT, "apps/web/dist/index.html")),
    args: ["run", "build", "--workspace", "apps/web"],
  },
];

module.exports = async function buildOnce() {
  await freshDist();
  if (process.env.RAFFLE_FROZEN_BUILD === "1") return;
  for (const step of STEPS.filter((each) => each.stale())) {
    console.log(`\n${step.what} is older than its sources: building it once for the whole suite`);
    execFileSync("npm", step.args, { cwd: ROOT, stdio: "inherit" });
  }
  process.env.RAFFLE_FROZEN_BUILD = "1";
};
