/**
 * Part "growth": the hot reads and the sign path against a database grown by SQL to 1,000 merchants, 10,000 raffles,
 * 1M rounds, 10M tickets and 1M claims (BENCH_GROWTH_SCALE scales the merchants, e.g. 0.01 while developing), each
 * beside its figure on the bench's small database. A second API runs on the grown database (its own indexer, which
 * registers the bench's raffle there too), and the two take turns under the same load, so the machine's drift falls
 * on both. The plans of the hot queries (EXPLAIN ANALYZE) and the table sizes go into bench/results.json.
 */
import { Client } from "pg";
import { freePort } from "@raffle/testing";
import { openDatabase } from "@raffle/db";
import { ApiKeyService } from "@raffle/api";

import { startApiProcess, type ApiProcess } from "../api-process";
import { apiCpuPerRequest, apiIdleCpuMicrosPerSecond, figuresOf, runLoad, runLoadMeasuringApi, type MeasuredLoad } from "../load";
import { CONNECTIONS, READ_SECONDS, SIGN_CONNECTIONS, SIGN_SECONDS, medianRun, say } from "../settings";
import { benchDatabase, listedContractId, randomAccounts, type BenchStack } from "../stack";
import { fillGrowthData, namedTableRows, tableSizes } from "./growth-fill";
import { explainHotQueries } from "./growth-plans";
import { giveReadClaims, hotReads } from "./reads";

const SCALE = Number(process.env.BENCH_GROWTH_SCALE ?? 1);
/** Turns each database takes per measure; the median is reported. */
const RUNS = Number(process.env.BENCH_GROWTH_RUNS ?? 2);
const WARM_UP_SECONDS = 5;
const IDLE_SECONDS = 5;
/** The issue's bound: each figure on the grown database within 20 % of the small one's. */
const WITHIN = 0.2;

type Load = (side: Side) => Parameters<typeof runLoadMeasuringApi>[1];

interface Side {
  api: ApiProcess;
  auth: Record<string, string>;
  contractId: number;
}

export async function growthPart(stack: BenchStack): Promise<void> {
  const { results, rows } = stack;
  const merchants = Math.max(1, Math.round(1_000 * SCALE));
  say(`4. growth: a second database, grown by SQL to ${merchants} merchants (scale ${SCALE}), and an API on it`);
  const db = await benchDatabase("growth");
  const keys = await openDatabase({ url: db.url, poolSize: 2 });
  let api: ApiProcess | null = null;
  try {
    const apiKey = (await new ApiKeyService(keys, { apiKeyCacheSeconds: 0 }).create(await stack.world.merchant.getAddress())).key;
    api = await startApiProcess(
      {
        ...stack.apiEnv,
        DATABASE_URL: db.url,
        // Its own indexing leadership and counters: it indexes the grown database, not as a follower of the first API.
        REDIS_KEY_PREFIX: `raffle-bench-growth-${process.pid}:`,
      },
      await freePort(),
    );
    const auth = { ...stack.auth, authorization: `Bearer ${apiKey}` };
    const grown: Side = { api, auth, contractId: await listedContractId({ api, auth, raffle: stack.raffle }) };
    const small: Side = { api: stack.api, auth: stack.auth, contractId: stack.contractId };
    const account = await giveReadClaims(stack, small.api.url, small.auth);
    await giveReadClaims(stack, grown.api.url, grown.auth);

    const client = new Client({ connectionString: db.url });
    await client.connect();
    try {
      const started = Date.now();
      const fill = await fillGrowthData(client, merchants, say);
      const fillSeconds = (Date.now() - started) / 1000;
      const sizes = await tableSizes(client);
      const counts = await namedTableRows(client);
      say(`   filled in ${fillSeconds.toFixed(0)} s`);
      results.growth = { scale: SCALE, merchants, fillSeconds, fill, counts, sizes };
      rows.push({
        measure: `growth: fill by SQL (scale ${SCALE}: ${Object.entries(counts)
          .map(([table, n]) => `${n.toLocaleString("en-US")} ${table}`)
          .join(", ")})`,
        result: `${fillSeconds.toFixed(0)} s`,
        target: "<= 300 s",
        met: fillSeconds <= 300,
      });

      // Each API's own background (its indexer, monitors, timers) right after the fill: CPU per request includes it.
      const idleMicrosPerSecond = {
        small: Math.round(await apiIdleCpuMicrosPerSecond(small.api, IDLE_SECONDS)),
        grown: Math.round(await apiIdleCpuMicrosPerSecond(grown.api, IDLE_SECONDS)),
      };
      (results.growth as Record<string, unknown>).idleCpuMicrosPerSecond = idleMicrosPerSecond;
      say(`   idle API CPU: small ${idleMicrosPerSecond.small} µs/s, grown ${idleMicrosPerSecond.grown} µs/s`);
      const accounts = randomAccounts();
      const measures: Array<[name: string, load: Load]> = [
        ...hotReads("", 0, account).map(([name], index): [string, Load] => [
          name,
          (side) => ({
            url: hotReads(side.api.url, side.contractId, account)[index][1],
            headers: side.auth,
            connections: CONNECTIONS,
            durationSeconds: READ_SECONDS,
          }),
        ]),
        [
          "POST /raffle/ticket/sign",
          (side) => ({
            url: `${side.api.url}/raffle/ticket/sign`,
            method: "POST",
            headers: side.auth,
            connections: SIGN_CONNECTIONS,
            durationSeconds: SIGN_SECONDS,
            bodies: accounts.map((buyer) => JSON.stringify({ account: buyer, contractId: side.contractId })),
          }),
        ],
      ];
      // An untimed pass of every measure on each side first: the grown side's API is younger, and its first
      // seconds on each route (the JIT's compiling, first loads) would otherwise be charged to the grown database.
      say(`   warming both APIs up: ${WARM_UP_SECONDS} s of each measure`);
      for (const [, load] of measures) for (const side of [small, grown]) await runLoad({ ...load(side), durationSeconds: WARM_UP_SECONDS });
      for (const [name, load] of measures) await compare(stack, name, load, small, grown);

      const plans = await explainHotQueries(client, {
        merchantWallet: await stack.world.merchant.getAddress(),
        contractId: grown.contractId,
        account,
      });
      (results.growth as Record<string, unknown>).plans = plans;
      const withoutIndex = plans.filter((plan) => !plan.usesIndexes);
      rows.push({
        measure: `growth: plans of the ${plans.length} hot queries (EXPLAIN ANALYZE, grown database)`,
        result: withoutIndex.length === 0 ? "index scans only" : `sequential scans in: ${withoutIndex.map((plan) => plan.name).join(", ")}`,
        target: "index scans, no Seq Scan",
        met: withoutIndex.length === 0,
      });
    } finally {
      await client.end();
    }
  } finally {
    await api?.stop();
    await keys.destroy();
    await db.drop();
  }
}

/** Runs `load` against the small and the grown side in turn, RUNS times, and adds the rows comparing them. */
async function compare(stack: BenchStack, name: string, load: Load, small: Side, grown: Side): Promise<void> {
  const runs: Record<"small" | "grown", MeasuredLoad[]> = { small: [], grown: [] };
  for (let run = 0; run < RUNS; run += 1) {
    for (const [label, side] of [
      ["small", small],
      ["grown", grown],
    ] as const) {
      say(`   ${name} (${label} database), run ${run + 1} of ${RUNS}`);
      runs[label].push(await runLoadMeasuringApi(side.api, load(side)));
    }
  }
  const [before, after] = [medianRun(runs.small), medianRun(runs.grown)];
  const [cpuBefore, cpuAfter] = [apiCpuPerRequest(runs.small), apiCpuPerRequest(runs.grown)];
  (stack.results.growth as Record<string, unknown>)[name] = {
    small: runs.small.map(figuresOf),
    grown: runs.grown.map(figuresOf),
    cpuBefore,
    cpuAfter,
  };
  const ratio = after.requestsPerSecond / Math.max(before.requestsPerSecond, 1);
  stack.rows.push(
    {
      measure: `growth: ${name}, grown vs small database (interleaved, median of ${RUNS}): req/s, p99`,
      result: `${after.requestsPerSecond} vs ${before.requestsPerSecond} (${Math.round(ratio * 100)} %), p99 ${after.p99Ms} vs ${before.p99Ms} ms, non-2xx ${after.non2xx}`,
      target: `req/s >= ${Math.round((1 - WITHIN) * 100)} % of small`,
      met: ratio >= 1 - WITHIN && after.non2xx === 0 && before.non2xx === 0,
    },
    {
      measure: `growth: ${name}, API CPU per request, grown vs small database`,
      result: `${Math.round(cpuAfter)} vs ${Math.round(cpuBefore)} µs (${Math.round((cpuAfter / cpuBefore) * 100)} %)`,
      target: `<= ${Math.round((1 + WITHIN) * 100)} % of small`,
      met: cpuAfter <= cpuBefore * (1 + WITHIN),
    },
  );
}
