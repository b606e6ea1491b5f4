// The in-process Hardhat network's settings, shared by hardhat.config.ts (contract tests, tasks) and node.config.js
// (the `hardhat node` that tests and the local stack start), so both chains behave alike.
//
// HARDHAT_CHAIN_ID: serve another chain id than 31337 (a stand-in for a real network in deploy tests).
// HARDHAT_MINING_INTERVAL: also mine a block every N ms, as a real chain does (automining stays on).
// HARDHAT_WALL_CLOCK=true (the local stack's node): blocks mined within one second share its timestamp instead of each
// adding a second, so the chain's clock stays at wall time however fast purchases come (vouchers are signed against
// wall time). Off for the contract tests, which expect every block to advance the clock.
function localHardhatNetwork(env = process.env) {
  const miningInterval = Number(env.HARDHAT_MINING_INTERVAL || 0);
  return {
    hardfork: "cancun",
    chainId: Number(env.HARDHAT_CHAIN_ID || 31337),
    allowBlocksWithSameTimestamp: env.HARDHAT_WALL_CLOCK === "true",
    ...(miningInterval ? { mining: { auto: true, interval: miningInterval } } : {}),
  };
}

module.exports = { localHardhatNetwork };
