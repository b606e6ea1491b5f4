import { extendConfig, extendProvider, subtask, vars, type HardhatUserConfig } from "hardhat/config";
import { TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD } from "hardhat/builtin-tasks/task-names";
import "@nomicfoundation/hardhat-toolbox";
import * as path from "node:path";

import { LOCAL_CHAIN_IDS } from "../libs/chain/src/deploy/dev-accounts";
import { withConfiguredKeys } from "./deploy/keys";
import { realNetworks } from "./deploy/networks";
// Task bodies import the generated bindings lazily: this file loads before any compile, even on a fresh clone.
import "./tasks";
import { buildIsFrozen } from "./tasks/action";
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { localHardhatNetwork } = require("./local-network.js") as {
  localHardhatNetwork(): NonNullable<HardhatUserConfig["networks"]>["hardhat"];
};

const SOLC_VERSION = "0.8.30";
const RAFFLE_OPTIMIZER_RUNS = 200;

function solcSettings(runs: number) {
  return { optimizer: { enabled: true, runs }, evmVersion: "cancun", viaIR: true };
}

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

declare module "hardhat/types/config" {
  interface HardhatUserConfig {
    raffle?: { localChainIds?: number[] };
  }
  interface HardhatConfig {
    raffle: { localChainIds: number[] };
  }
}

/** Chain ids where dev defaults (public keys, the VRF mock) are allowed. Every other chain is treated as real. */
extendConfig((config, userConfig) => {
  config.raffle = { localChainIds: userConfig.raffle?.localChainIds ?? [...LOCAL_CHAIN_IDS] };
});

// Hardhat merges compilation jobs only when their compiler config is the same object, and it resolves each override
// to an object of its own. One object for both files compiles the raffle once, inside the deployer's job, instead of
// once per job.
extendConfig((config) => {
  const overrides = config.solidity.overrides;
  overrides["src/RaffleDeployer.sol"] = overrides["src/Raffle.sol"];
});

extendProvider((provider, _config, network) => withConfiguredKeys(provider, network));

const env = process.env;

/**
 * Explorer verification (hardhat-verify, `hardhat ignition verify`, `raffle verify`): one Etherscan API key for every
 * chain (Etherscan's v2 API), from `npx hardhat vars set ETHERSCAN_API_KEY`. ETHERSCAN_API_URL points every real network
 * at another Etherscan-compatible API instead (a self-hosted explorer, or a test's stand-in), with the same key;
 * `<NAME>_EXPLORER_API_URL` does it for one network.
 */
const etherscanKey = vars.get("ETHERSCAN_API_KEY", "");
const explorerUrl = env.ETHERSCAN_API_URL;
const networks = realNetworks();
const ETHERSCAN_V2 = "https://api.etherscan.io/v2/api";
const ownExplorers = Boolean(explorerUrl) || networks.some((network) => network.explorerApiUrl);
const customChains = networks.map((network) => ({
  network: network.name,
  chainId: network.chainId,
  urls: {
    apiURL: network.explorerApiUrl ?? explorerUrl ?? `${ETHERSCAN_V2}?chainid=${network.chainId}`,
    browserURL: network.explorerUrl,
  },
}));

const config: HardhatUserConfig = {
  solidity: {
    compilers: [{ version: SOLC_VERSION, settings: solcSettings(10_000) }],
    // The raffle (and the deployer that carries its creation code) is compiled for size, so its runtime stays under
    // the 24 KiB limit with item prizes; the gas snapshot shows what its hot paths cost at this setting.
    overrides: Object.fromEntries(
      ["src/Raffle.sol", "src/RaffleDeployer.sol"].map((file) => [file, { version: SOLC_VERSION, settings: solcSettings(RAFFLE_OPTIMIZER_RUNS) }]),
    ),
  },
  paths: {
    sources: "./src",
    tests: "./test",
    artifacts: "./artifacts",
    cache: "./cache",
    // Ignition's journals (ignition/deployments/<id>) and the per-network parameters files (ignition/parameters).
    ignition: env.IGNITION_DIR ? path.resolve(env.IGNITION_DIR) : "./ignition",
  },
  networks: {
    // One source with node.config.js, the config of the `hardhat node` that tests start.
    hardhat: localHardhatNetwork(),
    // A dev node: signs with the node's own unlocked accounts, never with the configured keys.
    localhost: { url: env.RPC_URL || "http://127.0.0.1:8545" },
    // Real networks (deploy/networks.ts): sepolia, amoy and every `<NAME>_RPC_URL` + `<NAME>_CHAIN_ID` pair; the keys
    // come from deploy/keys.ts. Hardhat refuses a node whose chain id differs from the one declared here.
    ...Object.fromEntries(networks.map((network) => [network.name, { url: network.rpcUrl, chainId: network.chainId, accounts: "remote" as const }])),
  },
  ignition: {
    strategyConfig: {
      // CreateX salt: 20 zero bytes (anyone may deploy; the init code fixes the admin anyway), then 0x00 (no chain id
      // in the salt: the same address on every chain), then a label. Changing it moves every platform address.
      create2: { salt: `0x${"00".repeat(20)}00${Buffer.from("raffle-v1").toString("hex").padEnd(22, "0")}` },
    },
  },
  // One key for all (Etherscan v2) unless an own explorer API is configured: hardhat-verify then needs a key per network.
  etherscan: ownExplorers
    ? { apiKey: Object.fromEntries(networks.map((network) => [network.name, etherscanKey])), customChains }
    : { apiKey: etherscanKey, customChains },
  sourcify: { enabled: false },
  raffle: { localChainIds: [...LOCAL_CHAIN_IDS] },
  typechain: {
    outDir: path.join(__dirname, "../libs/chain/src/typechain"),
    target: "ethers-v6",
    // Never regenerated while `npm test` runs its suites (see buildIsFrozen): other suites import these files.
    dontOverrideCompile: buildIsFrozen(),
  },
  mocha: {
    timeout: 120_000,
    reporter: path.join(__dirname, "test/support/count-reporter.js"),
  },
  gasReporter: { enabled: false },
};

export default config;
