/**
 * What every part of the bench measures against: a local Hardhat chain with the platform and an ERC20-priced raffle,
 * a database, a merchant's API key and the API in its own process (API_WORKERS workers), its indexer caught up.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { getAddress, hexlify, randomBytes } from "ethers";
import { deployTestRaffle, type DevNode, type TestWorld } from "@raffle/chain/testing";
import { openDatabase, startEmbeddedPglite } from "@raffle/db";
import { createTestDatabase, type TestDatabase } from "@raffle/db/testing";
import { ApiKeyService } from "@raffle/api";
import { startTestStack, type NodeKind, type TestStack } from "@raffle/test-stack";
import type { DataSource } from "typeorm";

import { benchNodeArgs, measuredApi, type ApiProcess } from "./api-process";
import { runLoadMeasuringApi, type MeasuredLoad } from "./load";
import type { BenchRow } from "./record";
import { API_WORKERS, POLL_MS, REDIS_URL, SIGN_CONNECTIONS, SIGN_SECONDS, SIGN_WARM_UP_SECONDS, getJson, say, sleep } from "./settings";

export type BenchDatabase = TestDatabase;

export interface BenchStack {
  /** The chain, the database and the API process, built by the shared test-stack builder; closed by stopBenchStack. */
  testStack: TestStack;
  node: DevNode;
  world: TestWorld;
  raffle: Awaited<ReturnType<typeof deployTestRaffle>>;
  db: BenchDatabase;
  /** The bench's own connection, for API keys and webhook endpoints. */
  keyDataSource: DataSource;
  api: ApiProcess;
  /** The API's environment, for parts that start another API like it. */
  apiEnv: Record<string, string>;
  auth: Record<string, string>;
  /** The raffle's id in the API. */
  contractId: number;
  /** What the parts measured: `results` goes to bench/results.json, `rows` make the table and the record. */
  results: Record<string, unknown>;
  rows: BenchRow[];
}

/** DATABASE_URL, else a database of the machine's PostgreSQL, else an embedded PGlite. */
export async function benchDatabase(label: string): Promise<BenchDatabase> {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL, name: label, drop: async () => undefined };
  try {
    return await createTestDatabase(label);
  } catch {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "raffle-bench-pglite-"));
    const embedded = await startEmbeddedPglite(dir);
    return { url: embedded.url, name: label, drop: () => embedded.stop() };
  }
}

/** `node`: the chain's node program, Hardhat unless a part asks for anvil (the relayer part's own stack). */
export async function startBenchStack(
  results: Record<string, unknown>,
  { node: nodeKind = "hardhat" }: { node?: NodeKind } = {},
): Promise<BenchStack> {
  say(`starting a local chain (${nodeKind}) and deploying the platform and a raffle`);
  const db = await benchDatabase("bench");
  const testStack = await startTestStack({ label: "bench", node: nodeKind, database: db });
  const { node, world } = testStack;
  const raffle = await deployTestRaffle(world, "ERC20", 0n);
  const keyDataSource = await openDatabase({ url: db.url, poolSize: 2 });
  const apiKey = (await new ApiKeyService(keyDataSource, { apiKeyCacheSeconds: 0 }).create(await world.merchant.getAddress())).key;
  say("starting the API in its own process");
  const apiEnv: Record<string, string> = {
    DATABASE_URL: db.url,
    ...testStack.apiChainEnv(),
    INDEXER_WS_URL: node.wsUrl,
    INDEXER_POLL_INTERVAL_MS: String(POLL_MS),
    RATE_LIMIT_SIGN_PER_KEY: "1000000000",
    RATE_LIMIT_SIGN_PER_ACCOUNT: "1000000000",
    // The webhook part's receiver is on 127.0.0.1.
    WEBHOOK_ALLOW_PRIVATE_URLS: "true",
    // Rate limits in Redis whatever the workers: every check as an API of several replicas makes it.
    API_WORKERS: String(API_WORKERS),
    REDIS_URL,
    REDIS_KEY_PREFIX: `raffle-bench-${process.pid}:`,
  };
  const api = measuredApi(await testStack.startApi({ ...apiEnv, LOG_LEVEL: "silent" }, { nodeArgs: benchNodeArgs() }));
  const auth = { authorization: `Bearer ${apiKey}`, "content-type": "application/json" };
  const stack = { testStack, node, world, raffle, db, keyDataSource, api, apiEnv, auth, contractId: 0, results, rows: [] };
  try {
    stack.contractId = await listedContractId(stack);
    return stack;
  } catch (error) {
    await stopBenchStack(stack);
    throw error;
  }
}

/** Waits until the indexer has registered the raffle, and returns its id. */
export async function listedContractId({ api, auth, raffle }: Pick<BenchStack, "api" | "auth" | "raffle">): Promise<number> {
  for (let tries = 0; tries < 240; tries += 1) {
    const list = await getJson(`${api.url}/raffle/contracts?chainId=31337&take=100`, auth);
    const id = list.rows?.find((row: { address: string }) => row.address === raffle.raffle)?.id;
    if (id) return id;
    await sleep(250);
  }
  throw new Error("the API never listed the raffle");
}

export async function stopBenchStack(stack: Pick<BenchStack, "api" | "keyDataSource" | "testStack">): Promise<void> {
  await stack.api.stop();
  await stack.keyDataSource.destroy();
  await stack.testStack.close();
}

/** Random addresses without Wallet.createRandom, which derives each from a mnemonic (slow; no key is needed). */
export function randomAccounts(count = 2_000): string[] {
  return Array.from({ length: count }, () => getAddress(hexlify(randomBytes(20))));
}

/** One run of the sign load against `target` (the stack's API unless another is given), measuring its CPU. */
export function signLoad(
  stack: BenchStack,
  accounts: string[],
  connections: number,
  target = stack.api,
  label = "metrics on",
  seconds = SIGN_SECONDS,
): Promise<MeasuredLoad> {
  say(`1. POST /raffle/ticket/sign (${label}): ${connections} connections for ${seconds} s`);
  return runLoadMeasuringApi(target, {
    url: `${target.url}/raffle/ticket/sign`,
    method: "POST",
    headers: stack.auth,
    connections,
    durationSeconds: seconds,
    bodies: accounts.map((account) => JSON.stringify({ account, contractId: stack.contractId })),
    sampleEvery: 97,
  });
}

/** The untimed sign load a freshly started API gets before its measured runs (SIGN_WARM_UP_SECONDS). */
export async function warmUpSignPath(stack: BenchStack, accounts: string[], target = stack.api, label = "warm-up"): Promise<void> {
  if (SIGN_WARM_UP_SECONDS > 0) await signLoad(stack, accounts, SIGN_CONNECTIONS, target, label, SIGN_WARM_UP_SECONDS);
}
