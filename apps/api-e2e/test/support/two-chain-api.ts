import type { NestFastifyApplication } from "@nestjs/platform-fastify";
import request from "supertest";
import { LOCAL_CHAIN_ID, SECOND_LOCAL_CHAIN_ID } from "@raffle/chain";
import { deployTestRaffle, type HardhatNode, type TestRaffle, type TestWorld } from "@raffle/chain/testing";
import type { TestDatabase } from "@raffle/db/testing";
import { eventually } from "@raffle/testing";
import { startTestStack } from "@raffle/test-stack";

import { ApiKeyService } from "../../../api/src/app/auth/api-key.service";
import { createApp } from "../../../api/src/app/create-app";
import { loadApiConfig, type ApiConfig } from "../../../api/src/config/api-config";
import { startRpcProxy, type RpcProxy } from "./rpc-proxy";

/** One of the two local chains: its node (reached through a proxy that can pretend it is down), world and raffle. */
export interface TestChain {
  chainId: number;
  node: HardhatNode;
  proxy: RpcProxy;
  world: TestWorld;
  raffle: TestRaffle;
  /** The raffle's id in the API, once indexed. */
  contractId: number;
}

export interface TwoChainApi {
  chains: TestChain[];
  database: TestDatabase;
  config: ApiConfig;
  app: NestFastifyApplication;
  http: ReturnType<typeof request>;
  /** An API key of the merchant (Hardhat's #2) who owns a raffle on each chain. */
  key: string;
  close(): Promise<void>;
}

/**
 * One in-process API and one fresh database serving both local chains, each with a native raffle already indexed.
 * `env` adds to or overrides the settings (fast polling, no key cache); `overrides` the config (reads are not cached).
 */
export async function startTwoChainApi(
  databaseName: string,
  env: Record<string, string> = {},
  overrides: Partial<ApiConfig> = {},
): Promise<TwoChainApi> {
  process.env.LOG_LEVEL ??= "silent";
  const stack = await startTestStack({ label: databaseName, chainIds: [LOCAL_CHAIN_ID, SECOND_LOCAL_CHAIN_ID] });
  const { database } = stack;
  const chains: TestChain[] = [];
  for (const { chainId, node, world } of stack.chains) {
    const proxy = await startRpcProxy(node.rpcUrl);
    stack.onClose(() => proxy.close());
    const raffle = await deployTestRaffle(world, "NATIVE");
    chains.push({ chainId, node, proxy, world, raffle, contractId: 0 });
  }
  const loaded = loadApiConfig(
    {
      DATABASE_URL: database.url,
      CHAIN_IDS: chains.map((chain) => chain.chainId).join(","),
      ...Object.fromEntries(chains.map((chain) => [`CHAIN_${chain.chainId}_RPC_URL`, chain.proxy.url])),
      INDEXER_POLL_INTERVAL_MS: "50",
      ...env,
    },
    chains.map((chain) => chain.world.deployment),
  );
  const config: ApiConfig = { ...loaded, readCacheMs: 0, apiKeyCacheSeconds: 0, ...overrides };
  const app = await createApp(config);
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  const http = request(app.getHttpServer());
  const key = (await app.get(ApiKeyService).create(await chains[0].world.merchant.getAddress())).key;
  for (const chain of chains) {
    chain.contractId = await eventually(async () => {
      const { body } = await http
        .get("/raffle/contracts")
        .query({ chainId: chain.chainId })
        .set({ Authorization: `Bearer ${key}` })
        .expect(200);
      const row = body.rows.find((candidate: { address: string }) => candidate.address === chain.raffle.raffle);
      if (!row) throw new Error(`raffle of chain ${chain.chainId} not indexed yet`);
      return row.id as number;
    }, 30_000);
  }
  return {
    chains,
    database,
    config,
    app,
    http,
    key,
    close: async () => {
      await app.close();
      await stack.close();
    },
  };
}
