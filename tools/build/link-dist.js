#!/usr/bin/env node
/**
 * Makes the compiled tree under dist/ runnable with plain `node`: tsc keeps `require("@raffle/chain")` as written,
 * and in the source tree that name resolves to TypeScript. This writes dist/node_modules/@raffle/<name>/index.js
 * pointing at the compiled entry of every workspace named in tsconfig.base.json's `paths` (the one list of them),
 * so Node finds the compiled library before the source one.
 */
const fs = require("node:fs");
const path = require("node:path");

const ROOT = path.resolve(__dirname, "../..");
const DIST = path.join(ROOT, "dist");
const { paths } = JSON.parse(fs.readFileSync(path.join(ROOT, "tsconfig.base.json"), "utf8")).compilerOptions;

let linked = 0;
for (const [name, [source]] of Object.entries(paths)) {
  const compiled = path.join(DIST, source.replace(/\.ts$/, ".js"));
  if (!fs.existsSync(compiled)) continue;
  const shimDir = path.join(DIST, "node_modules", name);
  fs.mkdirSync(shimDir, { recursive: true });
  const target = path.relative(shimDir, compiled).split(path.sep).join("/");
  fs.writeFileSync(path.join(shimDir, "index.js"), `module.exports = require(${JSON.stringify(target)});\n`);
  linked += 1;
}
console.log(`linked ${linked} workspaces under ${path.relative(ROOT, DIST)}/node_modules`);
