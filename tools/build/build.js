#!/usr/bin/env node
/**
 * `npm run build`: compiles the API and the merchant worker (or only the apps named, e.g. `apps/api`, as each app's
 * Nx `build` target does), with the libraries they use, to plain JavaScript under
 * dist/, so production and the benchmarks run them with `node` alone (ts-node costs memory and start-up time, and
 * pulls in Node's `domain` module, which slows every event emitter). Run `npm run compile` first: the libraries
 * import the TypeChain bindings it generates.
 */
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const ROOT = path.resolve(__dirname, "../..");
const ALL_APPS = ["apps/api", "apps/merchant-worker"];
const named = process.argv.slice(2);
const APPS = named.length > 0 ? named : ALL_APPS;

// A whole build starts clean; one app's build leaves the other app's output in place.
if (named.length === 0) fs.rmSync(path.join(ROOT, "dist"), { recursive: true, force: true });
const tsc = require.resolve("typescript/bin/tsc", { paths: [ROOT] });
// The migrations' command goes with the API (same image): `node dist/libs/db/src/cli/migrate.js` needs no ts-node.
const EXTRA = { "apps/api": [path.join(__dirname, "tsconfig.migrate.json")] };
for (const app of APPS) {
  for (const project of [path.join(ROOT, app, "tsconfig.build.json"), ...(EXTRA[app] ?? [])]) {
    execFileSync(process.execPath, [tsc, "-p", project], { stdio: "inherit" });
  }
}
require("./link-dist");
console.log(`built ${APPS.join(", ")} into dist/`);
