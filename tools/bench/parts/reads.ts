/** Part "reads": the API's hot reads under load, and how soon a purchase shows in them. */
import { buyTicket as buyOnChain } from "@raffle/chain/testing";

import { apiCpuPerRequest, figuresOf, runLoadMeasuringApi } from "../load";
import { CONNECTIONS, POLL_MS, READ_SECONDS, getJson, say, sleep } from "../settings";
import type { BenchStack } from "../stack";

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
  for (const [name, url] of hotReads(api.url, contractId, account)) {
    say(`2. ${name}: ${CONNECTIONS} connections for ${READ_SECONDS} s`);
    const run = await runLoadMeasuringApi(api, { url, headers: auth, connections: CONNECTIONS, durationSeconds: READ_SECONDS });
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
