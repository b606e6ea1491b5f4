/**
 * Part "chains": the sign load against an API that serves a second chain as well: serving more chains must not slow
 * the sign path (a raffle's chain is one map lookup away).
 */
import { SECOND_LOCAL_CHAIN_ID } from "@raffle/chain";
import { setUpWorld, startHardhatNode } from "@raffle/chain/testing";
import { freePort } from "@raffle/testing";

import { startApiProcess } from "../api-process";
import { figuresOf, runLoad, type LoadOutcome } from "../load";
import { API_WORKERS, POLL_MS, REDIS_URL, SIGN_CONNECTIONS, SIGN_RUNS, SIGN_SECONDS, medianRun, say } from "../settings";
import { randomAccounts, type BenchStack } from "../stack";

export async function chainsPart(stack: BenchStack): Promise<void> {
  const { node, world, api, results, rows } = stack;
  say(`1b. POST /raffle/ticket/sign with two chains configured: ${SIGN_CONNECTIONS} connections, median of ${SIGN_RUNS}`);
  const secondNode = await startHardhatNode({ chainId: SECOND_LOCAL_CHAIN_ID });
  const secondWorld = await setUpWorld(secondNode.provider);
  const twoChainApi = await startApiProcess(
    {
      DATABASE_URL: stack.db.url,
      CHAIN_IDS: `${world.deployment.chainId},${SECOND_LOCAL_CHAIN_ID}`,
      [`CHAIN_${world.deployment.chainId}_RPC_URL`]: node.rpcUrl,
      [`CHAIN_${world.deployment.chainId}_DEPLOYMENT_JSON`]: JSON.stringify(world.deployment),
      [`CHAIN_${SECOND_LOCAL_CHAIN_ID}_RPC_URL`]: secondNode.rpcUrl,
      [`CHAIN_${SECOND_LOCAL_CHAIN_ID}_DEPLOYMENT_JSON`]: JSON.stringify(secondWorld.deployment),
      INDEXER_POLL_INTERVAL_MS: String(POLL_MS),
      RATE_LIMIT_SIGN_PER_KEY: "1000000000",
      RATE_LIMIT_SIGN_PER_ACCOUNT: "1000000000",
      ...(API_WORKERS > 1 ? { API_WORKERS: String(API_WORKERS), REDIS_URL, REDIS_KEY_PREFIX: `raffle-bench-2-${process.pid}:` } : {}),
    },
    await freePort(),
  );
  try {
    // A/B, interleaved: both APIs run (so their idle work is on both sides) and take turns, so the machine's drift
    // from minute to minute falls on both alike.
    const accounts = randomAccounts();
    const load = (url: string) =>
      runLoad({
        url: `${url}/raffle/ticket/sign`,
        method: "POST",
        headers: stack.auth,
        connections: SIGN_CONNECTIONS,
        durationSeconds: SIGN_SECONDS,
        bodies: accounts.map((account) => JSON.stringify({ account, contractId: stack.contractId })),
      });
    const oneChainRuns: LoadOutcome[] = [];
    const twoChainRuns: LoadOutcome[] = [];
    for (let run = 0; run < SIGN_RUNS; run += 1) {
      oneChainRuns.push(await load(api.url));
      twoChainRuns.push(await load(twoChainApi.url));
    }
    const [oneChain, twoChains] = [medianRun(oneChainRuns), medianRun(twoChainRuns)];
    results.signTwoChains = { oneChain: oneChainRuns.map(figuresOf), twoChains: twoChainRuns.map(figuresOf) };
    rows.push({
      measure: `sign, 1 chain vs 2 chains configured (interleaved, median of ${SIGN_RUNS}): req/s, p99`,
      result: `${oneChain.requestsPerSecond}, ${oneChain.p99Ms} ms vs ${twoChains.requestsPerSecond}, ${twoChains.p99Ms} ms`,
      target: "2 chains within 10%",
      met: twoChains.requestsPerSecond >= oneChain.requestsPerSecond * 0.9 && twoChains.non2xx === 0,
    });
  } finally {
    await twoChainApi.stop();
    await secondNode.stop();
  }
}
