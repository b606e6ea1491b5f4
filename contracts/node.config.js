// The config of the `hardhat node` that tests and the local stack start (libs/chain/src/testing/hardhat-node.ts): the
// same chain as hardhat.config.ts's in-process network, without its plugins, tasks and TypeScript. Those are not
// needed to serve JSON-RPC and took half of a node's start-up CPU (2.3 s → 1.1 s each, dozens of nodes per CI run).
// Its logging is off: the node would format a line for every JSON-RPC call (an indexer polls every 50 ms in tests)
// into an output nobody reads (the node's starter drains it); deploying the test world took 2.5× the CPU with it on.
const { localHardhatNetwork } = require("./local-network.js");

module.exports = {
  solidity: "0.8.30",
  networks: { hardhat: { ...localHardhatNetwork(), loggingEnabled: false } },
};
