import * as path from "node:path";

import { contractsDir } from "../contracts-dir";
import { LOCAL_CHAIN_ID } from "../deploy/dev-accounts";
import { startHardhatNode } from "./hardhat-node";
import { startNodeProcess, startOnPort, type DevNode } from "./node-process";

/** Foundry's anvil from npm: the platform package ships the binary (its wrapper's postinstall is blocked by npm). */
const ANVIL_PACKAGE_BIN = "node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil";

/**
 * Starts Foundry's anvil, a second node implementation, on a free port of 127.0.0.1. It derives the same well-known
 * dev accounts as Hardhat (same mnemonic) and has real reorgs (`anvil_reorg`, `anvil_rollback`).
 */
export async function startAnvilNode(options: { port?: number; chainId?: number } = {}): Promise<DevNode> {
  // Looked up here, not at import: a production image runs this library without the contracts folder.
  const contracts = contractsDir();
  return startOnPort(options.port, (port) =>
    startNodeProcess({
      name: "anvil",
      command: path.resolve(contracts, "..", ANVIL_PACKAGE_BIN),
      // 20 accounts, as Hardhat has: suites use well-known accounts past the tenth.
      args: [
        "--host",
        "127.0.0.1",
        "--port",
        String(port),
        "--chain-id",
        String(options.chainId ?? LOCAL_CHAIN_ID),
        "--hardfork",
        "cancun",
        "--accounts",
        "20",
      ],
      cwd: contracts,
      port,
      readyText: "Listening on",
    }),
  );
}

/**
 * The node the chain-facing suites run against: Hardhat, or anvil when `TEST_NODE=anvil` (CI runs both). `chainId`
 * serves another chain than 31337 (multi-chain suites run two nodes).
 */
export function startTestNode(options: { port?: number; chainId?: number } = {}): Promise<DevNode> {
  const kind = process.env.TEST_NODE ?? "hardhat";
  if (kind === "anvil") return startAnvilNode(options);
  if (kind === "hardhat") return startHardhatNode(options);
  throw new Error(`TEST_NODE must be hardhat or anvil, not ${kind}`);
}
