/**
 * Part "chains": serving more chains must not tax the sign path. An API serving the stack's chain takes turns under
 * the sign load with one serving 2 chains and one serving 5, started alike, the extra chains quiet (no traffic, no blocks, as a
 * chain the platform is deployed on but nobody uses). The measure is the API's CPU per sign request, its idle
 * chains' indexers and monitors included: throughput follows the machine's drift, CPU per request far less.
 */
import { randomBytes } from "node:crypto";
import { LOCAL_CHAIN_IDS, LOCAL_DEV_KEYS, SECOND_LOCAL_CHAIN_ID, type PlatformDeployment } from "@raffle/chain";
import type { DevNode } from "@raffle/chain/testing";
import { freePort } from "@raffle/testing";
import { startTestStack, type TestStack } from "@raffle/test-stack";

import { startApiProcess, type ApiProcess } from "../api-process";
import { apiCpuPerRequest, apiIdleCpuMicrosPerSecond, figuresOf, type MeasuredLoad } from "../load";
import { API_WORKERS, POLL_MS, REDIS_URL, SIGN_CONNECTIONS, SIGN_RUNS, SIGN_SECONDS, medianRun, say } from "../settings";
import { randomAccounts, signLoad, warmUpSignPath, type BenchStack } from "../stack";

/** The quiet chains' ids: the second local chain, then ids no network uses. */
const EXTRA_CHAIN_IDS = [SECOND_LOCAL_CHAIN_ID, 31339, 31340, 31341];
/** Seconds each API is watched idle, for its background CPU. */
const IDLE_SECONDS = 10;

export interface QuietChain {
  chainId: number;
  node: DevNode;
  deployment: PlatformDeployment;
}

/** Targets: API CPU per sign request with this many chains at most this much above one chain's. */
const TARGETS: Array<{ chains: number; maxPercent: number }> = [
  { chains: 2, maxPercent: 5 },
  { chains: 5, maxPercent: 10 },
];

export async function chainsPart(stack: BenchStack): Promise<void> {
  const { results, rows } = stack;
  say(`1b. POST /raffle/ticket/sign with 1, 2 and 5 chains configured: ${SIGN_CONNECTIONS} connections, ${SIGN_RUNS} runs each`);
  let quietStack: TestStack | undefined;
  const apis: Array<{ chains: number; api: ApiProcess }> = [];
  try {
    quietStack = await startQuietChains(EXTRA_CHAIN_IDS.length);
    const quiet = quietChainsOf(quietStack);
    // Each API started alike, differing in its chains only (the stack's API, started otherwise, stays idle meanwhile).
    for (const chains of [1, ...TARGETS.map((target) => target.chains)]) {
      apis.push({ chains, api: await startApiServing(stack, quiet.slice(0, chains - 1)) });
    }
    const all = apis;
    // Background CPU of each API while nothing is asked of it (its indexers' polls, its chain monitors).
    const idle: number[] = [];
    for (const { api: each } of all) idle.push(await apiIdleCpuMicrosPerSecond(each, IDLE_SECONDS));
    // Interleaved: every API runs throughout (so the others' idle work falls on all alike) and they take turns, each
    // run in another order, so no API always follows the same one.
    const accounts = randomAccounts();
    for (const { chains, api: each } of all) await warmUpSignPath(stack, accounts, each, `warm-up, ${chains} chain(s)`);
    const runs: MeasuredLoad[][] = all.map(() => []);
    for (let run = 0; run < SIGN_RUNS; run += 1) {
      for (let turn = 0; turn < all.length; turn += 1) {
        const index = (run + turn) % all.length;
        runs[index].push(await signLoad(stack, accounts, SIGN_CONNECTIONS, all[index].api, `${all[index].chains} chain(s)`));
      }
    }
    const cpu = runs.map((apiRuns) => apiCpuPerRequest(apiRuns));
    const medians = runs.map((apiRuns) => medianRun(apiRuns));
    results.signChains = all.map(({ chains }, index) => ({
      chains,
      apiIdleCpuMicrosPerSecond: Math.round(idle[index]),
      apiCpuMicrosPerRequest: Math.round(cpu[index]),
      runs: runs[index].map(figuresOf),
    }));
    rows.push({
      measure: `chains: API idle CPU with 1 / 2 / 5 chains configured (extra chains quiet, ${IDLE_SECONDS} s each)`,
      result: idle.map((micros) => `${(micros / 1000).toFixed(1)}`).join(" / ") + " ms/s",
      target: "",
      met: null,
    });
    rows.push({
      measure: `chains: sign req/s with 1 / 2 / 5 chains configured (interleaved, median of ${SIGN_RUNS})`,
      result: medians.map((median) => `${median.requestsPerSecond}`).join(" / "),
      target: "",
      met: null,
    });
    for (const [index, { chains, maxPercent }] of TARGETS.entries()) {
      const percent = (cpu[index + 1] / cpu[0] - 1) * 100;
      rows.push({
        measure: `chains: API CPU per sign request, 1 vs ${chains} chains configured (interleaved, ${SIGN_RUNS} runs of ${SIGN_SECONDS} s each)`,
        result: `${cpu[0].toFixed(0)} vs ${cpu[index + 1].toFixed(0)} µs (${percent >= 0 ? "+" : ""}${percent.toFixed(1)}%)`,
        target: `<= +${maxPercent}%`,
        met: percent <= maxPercent && medians[index + 1].non2xx === 0,
      });
    }
  } finally {
    for (const { api: each } of apis) await each.stop();
    await quietStack?.close();
  }
}

/**
 * `count` anvil nodes, each its own chain id with the platform deployed (these throwaway ids take the local VRF mock
 * and dev keys here), from the shared test-stack builder: anvil is a light node, so four of them leave the cores to
 * the APIs. Its database goes unused; close() stops the nodes and drops it.
 */
export function startQuietChains(count: number): Promise<TestStack> {
  return startTestStack({
    label: "bench_quiet_chains",
    node: "anvil",
    chainIds: EXTRA_CHAIN_IDS.slice(0, count),
    world: { localChainIds: [...LOCAL_CHAIN_IDS, ...EXTRA_CHAIN_IDS] },
  });
}

export function quietChainsOf(stack: TestStack): QuietChain[] {
  return stack.chains.map(({ chainId, node, world }) => ({ chainId, node, deployment: world.deployment }));
}

/** An API like the stack's, serving the stack's chain (its WebSocket included) and `quiet` chains (HTTP only). */
export async function startApiServing(stack: BenchStack, quiet: QuietChain[]): Promise<ApiProcess> {
  const { node, world } = stack;
  const env: Record<string, string> = {
    DATABASE_URL: stack.db.url,
    CHAIN_IDS: [world.deployment.chainId, ...quiet.map((chain) => chain.chainId)].join(","),
    [`CHAIN_${world.deployment.chainId}_RPC_URL`]: node.rpcUrl,
    [`CHAIN_${world.deployment.chainId}_INDEXER_WS_URL`]: node.wsUrl,
    [`CHAIN_${world.deployment.chainId}_DEPLOYMENT_JSON`]: JSON.stringify(world.deployment),
    INDEXER_POLL_INTERVAL_MS: String(POLL_MS),
    RATE_LIMIT_SIGN_PER_KEY: "1000000000",
    RATE_LIMIT_SIGN_PER_ACCOUNT: "1000000000",
    // Chains past 31338 are not local dev chains: their key and the webhook key must be given.
    WEBHOOK_ENCRYPTION_KEY: randomBytes(32).toString("hex"),
    API_WORKERS: String(API_WORKERS),
    REDIS_URL,
    REDIS_KEY_PREFIX: `raffle-bench-${quiet.length + 1}-${process.pid}:`,
  };
  for (const chain of quiet) {
    env[`CHAIN_${chain.chainId}_RPC_URL`] = chain.node.rpcUrl;
    env[`CHAIN_${chain.chainId}_DEPLOYMENT_JSON`] = JSON.stringify(chain.deployment);
    env[`CHAIN_${chain.chainId}_SIGNER_PRIVATE_KEY`] = LOCAL_DEV_KEYS.voucherSigner;
  }
  return startApiProcess(env, await freePort());
}
