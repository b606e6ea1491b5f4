import * as path from "node:path";
import { freePort } from "@raffle/testing";

import { contractsDir } from "../contracts-dir";
import { startNodeProcess, type DevNode } from "./node-process";

const CONTRACTS_DIR = contractsDir();
const HARDHAT_BIN = path.resolve(CONTRACTS_DIR, "../node_modules/.bin/hardhat");

export type HardhatNode = DevNode;

/** Starts `hardhat node` on a free port of 127.0.0.1 in its own process group, for tests and the local stack. */
export async function startHardhatNode(options: { port?: number; quiet?: boolean } = {}): Promise<HardhatNode> {
  const port = options.port ?? (await freePort());
  return startNodeProcess({
    name: "hardhat node",
    command: HARDHAT_BIN,
    args: ["node", "--hostname", "127.0.0.1", "--port", String(port)],
    cwd: CONTRACTS_DIR,
    port,
    readyText: "Started HTTP and WebSocket JSON-RPC server",
  });
}
