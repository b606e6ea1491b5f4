// The indexer's suite against anvil (`test:anvil`, TEST_NODE=anvil: startTestNode starts anvil instead of Hardhat). Only
// the specs that start a chain node run twice: the unit specs, the handlers' type test and the specs on a database
// alone run the same code whatever the node, and the Hardhat run (`test`) has them. Also left to that run: the
// `.anvil.` specs (they start anvil themselves) and the crash test, which kills the indexer's own process at random
// points over a history already mined (what it checks is the indexer's transactions, which no node changes).
const fs = require("node:fs");
const path = require("node:path");

const base = require("./jest.config.cjs");

const TEST_DIR = path.join(__dirname, "test");
const ONCE = [/[.]anvil[.]/, /^crash-restart[.]spec[.]ts$/];
const startsANode = (file) => fs.readFileSync(path.join(TEST_DIR, file), "utf8").includes("startTestNode(");

const specs = fs
  .readdirSync(TEST_DIR)
  .filter((file) => file.endsWith(".spec.ts") && !ONCE.some((pattern) => pattern.test(file)) && startsANode(file));

module.exports = { ...base, testMatch: specs.map((file) => `<rootDir>/test/${file}`) };
