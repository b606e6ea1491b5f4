import * as path from "node:path";
import { freePort } from "@raffle/testing";

import { contractsDir } from "../contracts-dir";
import { LOCAL_CHAIN_ID } from "../deploy/dev-accounts";
import { startNodeProcess, type DevNode } from "./node-process";

/** Foundry's anvil from npm: the platform package ships the binary (its wrapper's postinstall is blocked by npm). */
const ANVIL_BIN = path.resolve(contractsDir(), "../node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil");

/**
 * Starts Foundry's anvil, a second node implementation, on a free port of 127.0.0.1. It derives the same well-known
 * dev accounts as Hardhat (same mnemonic) and has real reorgs (`anvil_reorg`, `anvil_rollback`).
 */
export async function startAnvilNode(options: { port?: number; chainId?: number } = {}): Promise<DevNode> {
  const port = options.port ?? (await freePort());
  return startNodeProcess({
    name: "anvil",
    command: ANVIL_BIN,
    args: ["--host", "127.0.0.1", "--port", String(port), "--chain-id", String(options.chainId ?? LOCAL_CHAIN_ID), "--hardfork", "cancun"],
    cwd: contractsDir(),
    port,
    readyText: "Listening on",
  });
}
