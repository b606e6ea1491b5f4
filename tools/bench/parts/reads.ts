/** Part "reads": the API's hot reads under load, and how soon a purchase shows in them. */
import * as fs from "node:fs";
import * as path from "node:path";
import { buyTicket as buyOnChain } from "@raffle/chain/testing";
import { freePort } from "@raffle/testing";

import { startApiProcess, type ApiProcess } from "../api-process";
import { apiCpuPerRequest, figuresOf, runLoadMeasuringApi, type MeasuredLoad } from "../load";
import { CONNECTIONS, POLL_MS, READ_SECONDS, getJson, say, sleep } from "../settings";
import type { BenchStack } from "../stack";

/**
 * Another build's compiled API entry (as BENCH_SIGN_COMPARE_MAIN for the sign part): each read then runs
 * READS_AB_RUNS times on each build, alternating, and the two builds' answers are checked byte for byte.
 */
const READS_COMPARE_MAIN = process.env.BENCH_READS_COMPARE_MAIN ?? "";
const READS_AB_RUNS = Number(process.env.BENCH_READS_AB_RUNS ?? 3);
/** An untimed turn of each read on each build before its timed ones: the other build starts cold (no JIT, no cache). */
const WARM_UP_SECONDS = 3;

/**
 * With it, every API process records its event loop's stalls and its collections there (stall-probe.js), and each
 * timed read run lists its slow requests and the load generator's own stalls beside them (`runs.ndjson`), for
 * tools/bench/stall-report.js to set side by side.
 */
const PROBE_DIR = process.env.BENCH_STALL_PROBE_DIR ?? "";

/** A timed read run: with the probe, its slow requests and the load generator's stalls are kept in PROBE_DIR. */
async function timedRead(
  api: ApiProcess,
  url: string,
  headers: Record<string, string>,
  label: { name: string; side: string },
): Promise<MeasuredLoad> {
  const run = await runLoadMeasuringApi(api, {
    url,
    headers,
    connections: CONNECTIONS,
    durationSeconds: READ_SECONDS,
    recordSlow: Boolean(PROBE_DIR),
  });
  if (PROBE_DIR) {
    const { slow, stalls, startedAt, wallMicros, requests, slowRequests, runQueueWaitMicros, apiRunQueueWaitMicros } = run;
    const record = { ...label, apiPid: api.pid, startedAt, endedAt: startedAt + wallMicros / 1e3, requests, slowRequests };
    const line = { ...record, runQueueWaitMicros, apiRunQueueWaitMicros, slow, stalls };
    fs.appendFileSync(path.join(PROBE_DIR, "runs.ndjson"), `${JSON.stringify(line)}\n`);
  }
  return run;
}

/** Vouchers the bench gives its reading account, so that GET /claims answers a page of real rows. */
const READ_CLAIMS = 10;

/** The four reads of issue 33, each with its query as the API names it (spec 4.1-4.3; the round history). */
export function hotReads(apiUrl: string, contractId: number, account: string): Array<[name: string, url: string]> {
  return [
    ["GET /rounds/current", `${apiUrl}/rounds/current?contractId=${contractId}`],
    ["GET /raffle/contracts", `${apiUrl}/raffle/contracts?chainId=31337&skip=0&take=25`],
    ["GET /rounds", `${apiUrl}/rounds?contractId=${contractId}&skip=0&take=25`],
    ["GET /claims", `${apiUrl}/claims?account=${account}&skip=0&take=25`],
  ];
}

/**
 * The account whose claims the bench reads: the first player's, with READ_CLAIMS vouchers (made through POST /claims
 * up to that number, so every API the bench compares answers the same page).
 */
export async function giveReadClaims(stack: Pick<BenchStack, "world">, apiUrl: string, auth: Record<string, string>): Promise<string> {
  const account = await stack.world.players[0].getAddress();
  const token = stack.world.token;
  const { count } = await getJson(`${apiUrl}/claims?account=${account}&take=1`, auth);
  for (let claim = count; claim < READ_CLAIMS; claim += 1) {
    const response = await fetch(`${apiUrl}/claims`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ account, items: [{ tokenType: "ERC20", token, tokenId: "0", amount: String(1_000 + claim) }] }),
    });
    if (response.status !== 201) throw new Error(`POST /claims answered ${response.status}: ${await response.text()}`);
  }
  return account;
}

export async function readsPart(stack: BenchStack): Promise<void> {
  const { api, auth, contractId, results, rows } = stack;
  const account = await giveReadClaims(stack, api.url, auth);
  if (READS_COMPARE_MAIN) await compareBuilds(stack, account);
  for (const [name, url] of hotReads(api.url, contractId, account)) {
    say(`2. ${name}: ${CONNECTIONS} connections for ${READ_SECONDS} s`);
    const run = await timedRead(api, url, auth, { name, side: "ours" });
    const read = figuresOf(run);
    // The API's CPU per request: what a change to the read moves, whatever the machine's load does to requests/s.
    const cpuMicros = Math.round(apiCpuPerRequest([run]));
    results[name] = { ...read, apiCpuMicrosPerRequest: cpuMicros };
    rows.push(
      {
        measure: `${name}: requests/s (API CPU per request)`,
        result: `${read.requestsPerSecond} (${cpuMicros} µs)`,
        target: ">= 5000",
        met: read.requestsPerSecond >= 5_000,
      },
      {
        measure: `${name}: p99`,
        result: `${read.p99Ms} ms (non-2xx ${read.non2xx})`,
        target: "<= 15 ms",
        met: read.p99Ms <= 15 && read.non2xx === 0,
      },
    );
  }
  // ticketCount stays fresh: a purchase shows up within the poll interval.
  const ticketCount = async () => (await getJson(`${api.url}/rounds/current?contractId=${contractId}`, auth)).ticketCount;
  const before = await ticketCount();
  const boughtAt = Date.now();
  await buyOnChain(stack.world, stack.raffle, stack.world.players[0], 1n);
  let freshAfter = -1;
  while (Date.now() - boughtAt <= 10_000) {
    if ((await ticketCount()) === before + 1) {
      freshAfter = Date.now() - boughtAt;
      break;
    }
    await sleep(10);
  }
  rows.push({
    measure: "ticketCount fresh after a purchase",
    result: `${freshAfter} ms`,
    target: `<= poll ${POLL_MS} ms + tx`,
    met: freshAfter >= 0 && freshAfter <= POLL_MS + 1_000,
  });
}

/** The four reads on this build and on READS_COMPARE_MAIN's, alternating runs: CPU per request, p99, same bodies. */
async function compareBuilds(stack: BenchStack, account: string): Promise<void> {
  const { auth, contractId, results, rows } = stack;
  say(`starting this build's and the other build's (${READS_COMPARE_MAIN}) APIs for the reads' A/B comparison`);
  // Both sides are APIs started for the comparison, so neither is the indexers' leader: the stack's API took the
  // chain's leadership lock first and indexes for both. Against the stack's API itself, this build's side carried the
  // leader's work (its polls and writes) and the other's did not.
  const api: ApiProcess = await startApiProcess(stack.apiEnv, await freePort());
  const other: ApiProcess = await startApiProcess(stack.apiEnv, await freePort(), path.resolve(READS_COMPARE_MAIN)).catch(async (error: unknown) => {
    await api.stop();
    throw error;
  });
  try {
    const ours = hotReads(api.url, contractId, account);
    const theirs = hotReads(other.url, contractId, account);
    const ab: Record<string, unknown> = {};
    for (const [index, [name, url]] of ours.entries()) {
      const same = await sameAnswers(url, theirs[index][1], auth);
      const runs: { ours: MeasuredLoad[]; theirs: MeasuredLoad[] } = { ours: [], theirs: [] };
      for (const [target, sideUrl] of [
        [api, url],
        [other, theirs[index][1]],
      ] as const) {
        await runLoadMeasuringApi(target, { url: sideUrl, headers: auth, connections: CONNECTIONS, durationSeconds: WARM_UP_SECONDS });
      }
      for (let run = 0; run < READS_AB_RUNS; run += 1) {
        // Alternating which build goes first, so neither always gets the quieter half of the machine.
        const order: Array<["ours" | "theirs", ApiProcess, string]> = [
          ["ours", api, url],
          ["theirs", other, theirs[index][1]],
        ];
        if (run % 2 === 1) order.reverse();
        for (const [side, target, sideUrl] of order) {
          say(`2. A/B ${name} (${side}): ${CONNECTIONS} connections for ${READ_SECONDS} s`);
          runs[side].push(await timedRead(target, sideUrl, auth, { name, side }));
        }
      }
      const figures = (side: MeasuredLoad[]) => ({
        cpuMicros: Math.round(apiCpuPerRequest(side)),
        requestsPerSecond: side.map((run) => run.requestsPerSecond),
        p99Ms: side.map((run) => run.p99Ms),
        non2xx: side.reduce((sum, run) => sum + run.non2xx, 0),
        // Requests of 15 ms or more, per run; and per second of run, how long the load generator's main thread and
        // the API's main threads were runnable but waited for a CPU (ms/s): the queueing the tail is made of.
        slowRequests: side.map((run) => run.slowRequests),
        loadGeneratorWaitMsPerS: side.map((run) => Math.round(run.runQueueWaitMicros / (run.wallMicros / 1e3))),
        apiWaitMsPerS: side.map((run) => Math.round((run.apiRunQueueWaitMicros ?? 0) / (run.wallMicros / 1e3))),
      });
      const [a, b] = [figures(runs.ours), figures(runs.theirs)];
      ab[name] = { same, ours: a, theirs: b };
      rows.push({
        measure: `${name} A/B, this build vs ${READS_COMPARE_MAIN}: API CPU per request; req/s; p99 (each run)`,
        result:
          `${a.cpuMicros} vs ${b.cpuMicros} µs; ${a.requestsPerSecond.join("/")} vs ${b.requestsPerSecond.join("/")}; ` +
          `${a.p99Ms.join("/")} vs ${b.p99Ms.join("/")} ms; ≥ 15 ms: ${a.slowRequests.join("/")} vs ${b.slowRequests.join("/")}`,
        target: "same answer",
        met: same && a.non2xx === 0 && b.non2xx === 0,
      });
    }
    results.readsOtherBuild = { main: READS_COMPARE_MAIN, ...ab };
  } finally {
    await Promise.all([api.stop(), other.stop()]);
  }
}

/** Whether two builds answer a read with the same status, content type and body, byte for byte. */
async function sameAnswers(ours: string, theirs: string, headers: Record<string, string>): Promise<boolean> {
  const [a, b] = await Promise.all([fetch(ours, { headers }), fetch(theirs, { headers })]);
  const [bodyA, bodyB] = await Promise.all([a.text(), b.text()]);
  const same = a.status === b.status && a.headers.get("content-type") === b.headers.get("content-type") && bodyA === bodyB;
  if (!same)
    say(
      `  answers differ: ${a.status} ${a.headers.get("content-type")} ${bodyA.slice(0, 200)} vs ${b.status} ${b.headers.get("content-type")} ${bodyB.slice(0, 200)}`,
    );
  return same;
}
