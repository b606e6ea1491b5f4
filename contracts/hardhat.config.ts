import { subtask, type HardhatUserConfig } from "hardhat/config";
import { TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD } from "hardhat/builtin-tasks/task-names";
import "@nomicfoundation/hardhat-toolbox";
import * as path from "node:path";

const SOLC_VERSION = "0.8.30";

// This machine cannot download compilers: use the solc-js build shipped in the npm `solc` package.
subtask(TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD, async (args: { solcVersion: string }, _hre, runSuper) => {
  if (args.solcVersion !== SOLC_VERSION) return runSuper();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const solc = require("solc");
  return {
    compilerPath: require.resolve("solc/soljson.js"),
    isSolcJs: true,
    version: SOLC_VERSION,
    longVersion: String(solc.version()).replace(".Emscripten.clang", ""),
  };
});

/** Networks come from the environment so the same scripts deploy to any chain. */
const rpcUrl = process.env.RPC_URL;
const deployerKey = process.env.DEPLOYER_PRIVATE_KEY;

const config: HardhatUserConfig = {
  defaultNetwork: rpcUrl ? "target" : "hardhat",
  solidity: {
    version: SOLC_VERSION,
    settings: { optimizer: { enabled: true, runs: 10_000 }, evmVersion: "cancun", viaIR: true },
  },
  paths: { sources: "./src", tests: "./test", artifacts: "./artifacts", cache: "./cache" },
  networks: {
    // HARDHAT_WALL_CLOCK=true (the local stack's node): blocks mined within one second share its timestamp instead of
    // each adding a second, so the chain's clock stays at wall time however fast purchases come (vouchers are signed
    // against wall time). Off for the contract tests, which expect every block to advance the clock.
    hardhat: { hardfork: "cancun", chainId: 31337, allowBlocksWithSameTimestamp: process.env.HARDHAT_WALL_CLOCK === "true" },
    ...(rpcUrl ? { target: { url: rpcUrl, accounts: deployerKey ? [deployerKey] : "remote" } } : {}),
  },
  typechain: {
    outDir: path.join(__dirname, "../libs/chain/src/typechain"),
    target: "ethers-v6",
  },
  mocha: {
    timeout: 120_000,
    reporter: path.join(__dirname, "test/support/count-reporter.js"),
  },
  gasReporter: { enabled: false },
};

export default config;
