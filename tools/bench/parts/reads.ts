/** Part "reads": the API's hot reads under load, and how soon a purchase shows in them. */
import { buyTicket as buyOnChain } from "@raffle/chain/testing";

import { figuresOf, runLoad, type LoadResult } from "../load";
import { CONNECTIONS, POLL_MS, READ_SECONDS, getJson, say, sleep } from "../settings";
import type { BenchStack } from "../stack";

export async function readsPart(stack: BenchStack): Promise<void> {
  const { api, auth, contractId, results, rows } = stack;
  for (const [name, url] of [
    ["GET /rounds/current", `${api.url}/rounds/current?contractId=${contractId}`],
    ["GET /raffle/contracts", `${api.url}/raffle/contracts?chainId=31337&skip=0&take=25`],
  ] as const) {
    say(`2. ${name}: ${CONNECTIONS} connections for ${READ_SECONDS} s`);
    const read: LoadResult = figuresOf(await runLoad({ url, headers: auth, connections: CONNECTIONS, durationSeconds: READ_SECONDS }));
    results[name] = read;
    rows.push(
      { measure: `${name}: requests/s`, result: String(read.requestsPerSecond), target: ">= 5000", met: read.requestsPerSecond >= 5_000 },
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
