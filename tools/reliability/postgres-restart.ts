/**
 * Reliability fault: PostgreSQL restarted under load. While the database is down, requests that need it must fail
 * fast with 503 (and a Retry-After), never hang or answer 500; once it is back the API recovers by itself.
 */
import { deployTestRaffle } from "@raffle/chain/testing";
import { freePort } from "@raffle/testing";
import { openDatabase } from "@raffle/db";
import { ApiKeyService } from "@raffle/api";
import { startTestStack } from "@raffle/test-stack";

import { PrivatePostgres } from "./private-postgres";
import { printResult } from "./result";

const say = (line: string) => process.stdout.write(`${line}\n`);

async function main(): Promise<void> {
  const postgres = PrivatePostgres.create(await freePort());
  postgres.start();
  // The stack's database is on this script's own PostgreSQL server, the one it stops and starts.
  const stack = await startTestStack({
    label: "postgres_restart",
    node: "hardhat",
    database: { url: postgres.url, name: "postgres", drop: async () => postgres.destroy() },
  });
  const { world } = stack;
  const raffle = await deployTestRaffle(world, "NATIVE", 0n);
  const keys = await openDatabase({ url: postgres.url, poolSize: 1 });
  const apiKey = (await new ApiKeyService(keys, { apiKeyCacheSeconds: 0 }).create(await world.merchant.getAddress())).key;
  await keys.destroy();
  const api = await stack.startApi({ LOG_LEVEL: "silent" });
  const headers = { authorization: `Bearer ${apiKey}`, "content-type": "application/json" };
  const results: Array<{ phase: string; requests: number; statuses: string; slowestMs: number; ok: boolean }> = [];
  try {
    let contractId = 0;
    for (let i = 0; i < 240 && contractId === 0; i += 1) {
      const listed = (await (await fetch(`${api.url}/raffle/contracts?take=100`, { headers })).json()) as {
        rows?: Array<{ id: number; address: string }>;
      };
      contractId = listed.rows?.find((row) => row.address === raffle.raffle)?.id ?? 0;
      if (contractId === 0) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    if (contractId === 0) throw new Error("the API never listed the raffle");

    const probe = async (phase: string, count: number, expect: (status: number) => boolean) => {
      const statuses = new Map<number, number>();
      let slowest = 0;
      let ok = true;
      for (let i = 0; i < count; i += 1) {
        const started = Date.now();
        const response = await fetch(`${api.url}/raffle/ticket/sign`, {
          method: "POST",
          headers,
          body: JSON.stringify({ account: `0x${(i + 1).toString(16).padStart(40, "0")}`, contractId }),
          signal: AbortSignal.timeout(10_000),
        }).catch(() => null);
        const status = response?.status ?? 0;
        slowest = Math.max(slowest, Date.now() - started);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (!expect(status)) ok = false;
        if (status === 503 && !response!.headers.get("retry-after")) ok = false;
      }
      results.push({ phase, requests: count, statuses: JSON.stringify(Object.fromEntries(statuses)), slowestMs: slowest, ok });
    };

    await probe("before the restart", 50, (status) => status === 200);
    say("stopping PostgreSQL");
    postgres.stop("immediate");
    await probe("while PostgreSQL is down", 50, (status) => status === 503);
    say("starting PostgreSQL again");
    postgres.start();
    // Recovery: the pool reconnects on its own; allow a few seconds, then everything must succeed.
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      const response = await fetch(`${api.url}/raffle/ticket/sign`, {
        method: "POST",
        headers,
        body: JSON.stringify({ account: `0x${"ab".repeat(20)}`, contractId }),
      });
      if (response.status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await probe("after the restart", 50, (status) => status === 200);
    results.push({
      phase: "fails fast while down (slowest answer under 6 s)",
      requests: 1,
      statuses: "",
      slowestMs: results[1].slowestMs,
      ok: results[1].slowestMs < 6_000,
    });
  } finally {
    await stack.close();
  }
  console.table(results);
  const ok = results.every((row) => row.ok);
  say(ok ? "postgres restart: all cases passed" : "postgres restart: FAILED");
  printResult("postgres restart", results.length, results.filter((row) => row.ok).length);
  process.exit(ok ? 0 : 1);
}

main().catch((error: unknown) => {
  process.stderr.write(`postgres restart failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
