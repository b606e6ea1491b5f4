#!/usr/bin/env node
// A native-style `solc` for forge on a machine that cannot download compilers: it answers `--version` like the
// native binary and compiles standard JSON from stdin with the solc-js build of the npm `solc` package (the same
// compiler Hardhat uses here). foundry.toml points `solc` at this file.
const fs = require("node:fs");
const path = require("node:path");

const args = process.argv.slice(2);
if (args.includes("--version")) {
  // forge asks on every run; loading solc-js takes a second, so the answer is kept per solc package version.
  const packageVersion = require("solc/package.json").version;
  const cacheFile = path.join(__dirname, "..", "forge-cache", "solc-version.json");
  let version;
  try {
    const cached = JSON.parse(fs.readFileSync(cacheFile, "utf8"));
    if (cached.packageVersion === packageVersion) version = cached.version;
  } catch {
    // No cache yet (or an unreadable one): the version is computed below.
  }
  if (!version) {
    version = String(require("solc").version()).replace(".Emscripten.clang", ".Linux.g++");
    fs.mkdirSync(path.dirname(cacheFile), { recursive: true });
    fs.writeFileSync(cacheFile, JSON.stringify({ packageVersion, version }));
  }
  process.stdout.write(`solc, the solidity compiler commandline interface\nVersion: ${version}\n`);
  process.exit(0);
}
const solc = require("solc");

// forge passes sources with their content; imports it did not inline are read from these roots.
const roots = [process.cwd()];
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--base-path" || args[i] === "--include-path" || args[i] === "--allow-paths") {
    roots.push(...String(args[i + 1]).split(","));
  }
}
function findImports(importPath) {
  for (const root of roots) {
    const file = path.resolve(root, importPath);
    if (fs.existsSync(file)) return { contents: fs.readFileSync(file, "utf8") };
  }
  return { error: `File not found: ${importPath}` };
}

const input = fs.readFileSync(0, "utf8");
process.stdout.write(solc.compile(input, { import: findImports }));
