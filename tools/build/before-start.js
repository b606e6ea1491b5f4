#!/usr/bin/env node
// `npm start`'s build: the contracts' compile (Nx-cached) and the player app. Skipped while `npm test` runs its suites
// (RAFFLE_FROZEN_BUILD=1, set after its own build phase made both): the local stack's end-to-end test runs `npm start`
// beside other suites, and a compile restored from Nx's cache rewrites the generated bindings, and a web build the
// app's dist/, while those suites read them.
const { spawnSync } = require("node:child_process");
const path = require("node:path");

if (process.env.RAFFLE_FROZEN_BUILD === "1") {
  console.log("npm start: the build is frozen (RAFFLE_FROZEN_BUILD=1); using the compile and the app npm test built");
  process.exit(0);
}
for (const args of [
  ["run", "compile"],
  ["run", "build", "--workspace", "apps/web"],
]) {
  const run = spawnSync("npm", args, { cwd: path.resolve(__dirname, "../.."), stdio: "inherit" });
  if (run.status !== 0) process.exit(run.status ?? 1);
}
