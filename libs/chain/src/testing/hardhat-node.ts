import * as path from "node:path";

import { contractsDir } from "../contracts-dir";
import { startNodeProcess, startOnPort, type DevNode } from "./node-process";

export type HardhatNode = DevNode;

export interface HardhatNodeOptions {
  port?: number;
  /** Serve another chain id than 31337 (a stand-in for a real network; contracts/hardhat.config.ts reads it). */
  chainId?: number;
  /** Also mine a block every this many milliseconds, as a real chain does (automining stays on). */
  miningIntervalMs?: number;
  /**
   * Keep the chain's clock at wall time: blocks mined within the same second share its timestamp. By default Hardhat
   * adds a second per block, so hundreds of quick transactions put the chain minutes ahead and vouchers expire on
   * arrival. The local stack sets it; tests that expect every block to advance the clock leave it off.
   */
  wallClock?: boolean;
}

/** Starts `hardhat node` on a free port of 127.0.0.1 in its own process group, for tests and the local stack. */
export async function startHardhatNode(options: HardhatNodeOptions = {}): Promise<HardhatNode> {
  // Looked up here, not at import: a production image runs this library without the contracts folder.
  const contracts = contractsDir();
  return startOnPort(options.port, (port) =>
    startNodeProcess({
      name: "hardhat node",
      command: path.resolve(contracts, "../node_modules/.bin/hardhat"),
      // The node's own config (contracts/node.config.js): the same chain without the plugins and tasks.
      args: ["--config", "node.config.js", "node", "--hostname", "127.0.0.1", "--port", String(port)],
      cwd: contracts,
      env: {
        HARDHAT_WALL_CLOCK: options.wallClock ? "true" : "false",
        ...(options.chainId ? { HARDHAT_CHAIN_ID: String(options.chainId) } : {}),
        ...(options.miningIntervalMs ? { HARDHAT_MINING_INTERVAL: String(options.miningIntervalMs) } : {}),
      },
      port,
      readyText: "Started HTTP and WebSocket JSON-RPC server",
    }),
  );
}
