import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { LOCAL_CHAIN_ID } from "@raffle/chain";
import { setUpWorld, startAnvilNode, startHardhatNode, type DevNode, type TestWorld, type WorldOptions } from "@raffle/chain/testing";
import { createTestDatabase, type TestDatabase } from "@raffle/db/testing";

import { createApiKey, startApiProcess, type ApiProcess, type ApiProcessOptions } from "./api-process";

export type NodeKind = "hardhat" | "anvil";

export interface TestStackOptions {
  /** Names the stack's database (lowercased and shortened; a unique suffix is added). */
  label: string;
  /** Its chains, each on a node of its own with the platform deployed: 31337 alone by default. */
  chainIds?: number[];
  /** The node program: TEST_NODE's (CI runs the chain-facing suites on both), Hardhat by default. */
  node?: NodeKind;
  /** Hardhat only: keep the chain's clock at wall time (startHardhatNode's wallClock; the browser and bench stacks). */
  wallClock?: boolean;
  /** What setUpWorld deploys besides the platform. */
  world?: WorldOptions;
  /**
   * A database the caller made instead of a fresh one on the machine's PostgreSQL (a script's private server, a given
   * DATABASE_URL, an embedded PGlite); close() calls its `drop`.
   */
  database?: TestDatabase;
}

/** One chain of a stack: its node and the platform deployed on it. */
export interface StackChain {
  chainId: number;
  node: DevNode;
  world: TestWorld;
}

/**
 * Local chains with the platform, a fresh PostgreSQL database, and what a suite starts on them (the compiled API, its
 * own servers); `close()` stops all of it, last started first.
 */
export interface TestStack {
  chains: StackChain[];
  /** The first chain's node and world (the only ones of a one-chain stack). */
  node: DevNode;
  world: TestWorld;
  database: TestDatabase;
  chain(chainId: number): StackChain;
  /**
   * The API's chain settings for every chain of the stack: RPC_URL, CHAIN_ID and DEPLOYMENT_FILE for one chain;
   * CHAIN_IDS and CHAIN_<id>_RPC_URL / _DEPLOYMENT_FILE for several (the API's multi-chain convention).
   */
  apiChainEnv(): Record<string, string>;
  /** The compiled API on this stack's chains and database, with `env` on top; stopped by close(). */
  startApi(env?: Record<string, string>, options?: ApiProcessOptions): Promise<ApiProcess>;
  /** A fresh API key of a merchant, written to this stack's database by the API's own CLI. */
  apiKey(merchant: string): Promise<string>;
  /** Runs `cleanup` at close(), before what was started earlier is stopped. */
  onClose(cleanup: () => Promise<unknown>): void;
  close(): Promise<void>;
}

function nodeKind(options: TestStackOptions): NodeKind {
  const kind = options.node ?? process.env.TEST_NODE ?? "hardhat";
  if (kind !== "hardhat" && kind !== "anvil") throw new Error(`TEST_NODE must be hardhat or anvil, not ${kind}`);
  return kind;
}

function startNode(kind: NodeKind, chainId: number, options: TestStackOptions): Promise<DevNode> {
  if (kind === "anvil") return startAnvilNode({ chainId });
  return startHardhatNode({ chainId: chainId === LOCAL_CHAIN_ID ? undefined : chainId, wallClock: options.wallClock });
}

export async function startTestStack(options: TestStackOptions): Promise<TestStack> {
  const cleanups: Array<() => Promise<unknown>> = [];
  const close = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  };
  try {
    const kind = nodeKind(options);
    const chainIds = options.chainIds ?? [LOCAL_CHAIN_ID];
    // The nodes and the database start side by side: each node's start-up is a second or more of its own CPU. Every
    // one that started is stopped at close(), also when another failed.
    const [database, ...nodes] = await Promise.allSettled([
      options.database ?? createTestDatabase(options.label),
      ...chainIds.map((chainId) => startNode(kind, chainId, options)),
    ]);
    if (database.status === "fulfilled") cleanups.push(() => database.value.drop());
    for (const started of nodes) if (started.status === "fulfilled") cleanups.push(() => (started.value as DevNode).stop());
    const failed = [database, ...nodes].find((started) => started.status === "rejected");
    if (failed) throw (failed as PromiseRejectedResult).reason;
    const chains = await Promise.all(
      nodes.map(async (started, index) => {
        const node = (started as PromiseFulfilledResult<DevNode>).value;
        return { chainId: chainIds[index], node, world: await setUpWorld(node.provider, options.world) };
      }),
    );
    const databaseUrl = (database as PromiseFulfilledResult<TestDatabase>).value.url;
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "raffle-test-stack-"));
    cleanups.push(async () => fs.rmSync(folder, { recursive: true, force: true }));

    const apiChainEnv = (): Record<string, string> => {
      const several = chains.length > 1;
      const env: Record<string, string> = several ? { CHAIN_IDS: chainIds.join(",") } : { CHAIN_ID: String(chainIds[0]) };
      for (const chain of chains) {
        const file = path.join(folder, `deployment-${chain.chainId}.json`);
        if (!fs.existsSync(file)) fs.writeFileSync(file, JSON.stringify(chain.world.deployment));
        const prefix = several ? `CHAIN_${chain.chainId}_` : "";
        env[`${prefix}RPC_URL`] = chain.node.rpcUrl;
        env[`${prefix}DEPLOYMENT_FILE`] = file;
      }
      return env;
    };
    return {
      chains,
      node: chains[0].node,
      world: chains[0].world,
      database: (database as PromiseFulfilledResult<TestDatabase>).value,
      chain: (chainId) => {
        const found = chains.find((chain) => chain.chainId === chainId);
        if (!found) throw new Error(`the stack has no chain ${chainId}`);
        return found;
      },
      apiChainEnv,
      startApi: async (env = {}, apiOptions) => {
        const api = await startApiProcess({ DATABASE_URL: databaseUrl, ...apiChainEnv(), ...env }, apiOptions);
        cleanups.push(() => api.stop());
        return api;
      },
      apiKey: (merchant) => createApiKey(databaseUrl, merchant),
      onClose: (cleanup) => void cleanups.push(cleanup),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
