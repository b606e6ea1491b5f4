// Jest global setup of the suites that start the compiled apps (dist/): brings dist/ up to date with the sources, so
// one spec runs right after an edit (`cd apps/api-e2e && npx jest test/claims.e2e.spec.ts`) without `npm run build`.
// dist/ missing: the full build (tools/build/build.js). Otherwise each source newer than its compiled file (or without
// one, beside compiled ones) is transpiled alone, as ts-node's transpile-only start does (the tsconfig sets
// isolatedModules, so each file compiles on its own): milliseconds per file, where the full build type-checks the whole
// API for a minute. Type errors are `npm run check`'s to report. `npm test` builds once and sets RAFFLE_FROZEN_BUILD=1,
// so this does nothing under it: the suites never write dist/ while others run it.
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const ROOT = path.resolve(__dirname, "../..");
const DIST = path.join(ROOT, "dist");
const APPS = ["apps/api", "apps/merchant-worker"];

/**
 * The compiled folders' sources. Test support (`testing/` folders: @raffle/chain/testing, @raffle/db/testing) is left
 * out: production code never imports it, so the build never compiles it, and a copy of it in dist/ would ship it.
 */
function sources(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "testing" ? [] : sources(file);
    return /\.ts$/.test(entry.name) && !/\.(d|spec|test)\.ts$/.test(entry.name) ? [file] : [];
  });
}

/** Source folders whose compiled twin exists under dist/: the apps' and the libraries' the apps import. */
function compiledFolders() {
  const libs = fs.readdirSync(path.join(ROOT, "libs")).map((name) => `libs/${name}/src`);
  return [...APPS.map((app) => `${app}/src`), ...libs].filter((folder) => fs.existsSync(path.join(DIST, folder)));
}

function staleSources() {
  return compiledFolders().flatMap((folder) =>
    sources(path.join(ROOT, folder)).filter((source) => {
      const compiled = path.join(DIST, path.relative(ROOT, source)).replace(/\.ts$/, ".js");
      return !fs.existsSync(compiled) || fs.statSync(compiled).mtimeMs < fs.statSync(source).mtimeMs;
    }),
  );
}

function transpile(files) {
  const ts = require("typescript");
  const configFile = path.join(ROOT, "apps/api/tsconfig.build.json");
  const parsed = ts.getParsedCommandLineOfConfigFile(configFile, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  for (const source of files) {
    const out = path.join(DIST, path.relative(ROOT, source)).replace(/\.ts$/, ".js");
    const { outputText, sourceMapText } = ts.transpileModule(fs.readFileSync(source, "utf8"), {
      compilerOptions: parsed.options,
      fileName: source,
    });
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, outputText);
    if (sourceMapText) fs.writeFileSync(`${out}.map`, sourceMapText);
  }
}

module.exports = async function freshDist() {
  if (process.env.RAFFLE_FROZEN_BUILD === "1") return;
  const build = path.join(ROOT, "tools/build/build.js");
  if (!APPS.every((app) => fs.existsSync(path.join(DIST, app, "src/main.js")))) {
    console.log("\ndist/ has no compiled apps: building them (npm run build)");
    execFileSync(process.execPath, [build], { cwd: ROOT, stdio: "inherit" });
    return;
  }
  const stale = staleSources();
  if (stale.length === 0) return;
  transpile(stale);
  execFileSync(process.execPath, [path.join(ROOT, "tools/build/link-dist.js")], { cwd: ROOT, stdio: "ignore" });
  console.log(`\ndist/: transpiled ${stale.length} changed source file(s) (${path.relative(ROOT, stale[0])}${stale.length > 1 ? ", ..." : ""})`);
};

module.exports.staleSources = staleSources;
module.exports.sources = sources;
