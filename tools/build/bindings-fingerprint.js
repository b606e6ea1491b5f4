#!/usr/bin/env node
/**
 * Prints one hash of the TypeChain bindings (libs/chain/src/typechain) without the contracts' bytecode: an Nx runtime
 * input of every `typecheck` (nx.json). The bindings are generated and git-ignored, so Nx does not hash them; hashing
 * the Solidity sources instead re-checked every project after a change that only moved bytecode (a function body),
 * while the types the projects check against were the same. A renamed event or argument changes this hash.
 */
const crypto = require("node:crypto");
const fs = require("node:fs");
const path = require("node:path");

const BINDINGS = path.resolve(__dirname, "../../libs/chain/src/typechain");
// Factories embed the creation bytecode as one hex string literal.
const BYTECODE = /"0x[0-9a-fA-F]{64,}"/g;

function files(dir) {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? files(path.join(dir, entry.name)) : [path.join(dir, entry.name)]))
    .sort();
}

const hash = crypto.createHash("sha256");
for (const file of fs.existsSync(BINDINGS) ? files(BINDINGS) : []) {
  hash.update(path.relative(BINDINGS, file));
  hash.update(fs.readFileSync(file, "utf8").replace(BYTECODE, '"0x"'));
}
console.log(hash.digest("hex"));
