/**
 * Reliability fault: the read replica killed under read load (issue 54). A PostgreSQL primary and a streaming replica
 * of their own (startStreamingReplica); one compiled API process indexes (API_ROLES=index), two serve
 * (API_ROLES=serve, DATABASE_REPLICA_URL) while 8 connections read GET /rounds/current from both. The replica is killed
 * (pg_ctl -m immediate) mid-load: each serving process must move its reads to the primary within 5 s, and no request
 * may fail after that; started again, the replica must be taken back by both, with no failed request meanwhile.
 */
import { deployTestRaffle } from "@raffle/chain/testing";
import { openDatabase } from "@raffle/db";
import { startStreamingReplica } from "@raffle/db/testing";
import { ApiKeyService } from "@raffle/api";
import { startTestStack, type ApiProcess } from "@raffle/test-stack";

import { printResult } from "./result";

const say = (line: string) => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const CONNECTIONS = 8;
const MOVE_BOUND_MS = 5_000;

async function readsOnReplica(api: ApiProcess): Promise<number | null> {
  const text = await fetch(`${api.url}/metrics`)
    .then((response) => response.text())
    .catch(() => "");
  const match = /^raffle_db_reads_on_replica (\S+)$/m.exec(text);
  return match ? Number(match[1]) : null;
}

/** Resolves with the ms from `since` until every server reports `wanted`, or null past `timeoutMs`. */
async function until(servers: ApiProcess[], wanted: number, since: number, timeoutMs: number): Promise<Array<number | null>> {
  return Promise.all(
    servers.map(async (server) => {
      while (Date.now() - since < timeoutMs) {
        if ((await readsOnReplica(server)) === wanted) return Date.now() - since;
        await sleep(50);
      }
      return null;
    }),
  );
}

async function main(): Promise<void> {
  const pair = await startStreamingReplica();
  // The stack's database is the pair's primary: close() stops both servers.
  const stack = await startTestStack({ label: "replica_failover", node: "hardhat", database: pair.primary });
  const rows: Array<{ case: string; figure: string; ok: boolean }> = [];
  try {
    const { world } = stack;
    const raffle = await deployTestRaffle(world, "NATIVE", 0n);
    const keys = await openDatabase({ url: pair.primary.url, poolSize: 1 });
    const apiKey = (await new ApiKeyService(keys, { apiKeyCacheSeconds: 0 }).create(await world.merchant.getAddress())).key;
    await keys.destroy();
    await stack.startApi({ LOG_LEVEL: "silent", API_ROLES: "index" });
    const servers = await Promise.all(
      [0, 1].map(() => stack.startApi({ LOG_LEVEL: "silent", API_ROLES: "serve", DATABASE_REPLICA_URL: pair.replicaUrl })),
    );
    const headers = { authorization: `Bearer ${apiKey}` };
    let contractId = 0;
    for (let i = 0; i < 240 && contractId === 0; i += 1) {
      const listed = (await (await fetch(`${servers[0].url}/raffle/contracts?take=100`, { headers })).json()) as {
        rows?: Array<{ id: number; address: string }>;
      };
      contractId = listed.rows?.find((row) => row.address === raffle.raffle)?.id ?? 0;
      if (contractId === 0) await sleep(250);
    }
    if (contractId === 0) throw new Error("the serving processes never listed the raffle");
    const onReplica = await until(servers, 1, Date.now(), 20_000);
    rows.push({
      case: "both serving processes read from the replica at start",
      figure: JSON.stringify(onReplica),
      ok: onReplica.every((ms) => ms !== null),
    });

    const answers: Array<{ at: number; status: number }> = [];
    let reading = true;
    const load = Array.from({ length: CONNECTIONS }, async (_, connection) => {
      for (let i = 0; reading; i += 1) {
        const server = servers[(connection + i) % servers.length];
        const status = await fetch(`${server.url}/rounds/current?contractId=${contractId}`, { headers, signal: AbortSignal.timeout(10_000) })
          .then(async (response) => {
            await response.arrayBuffer();
            return response.status;
          })
          .catch(() => 0);
        answers.push({ at: Date.now(), status });
      }
    });
    await sleep(4_000);
    const killedAt = Date.now();
    say("killing the replica");
    pair.killReplica();
    const moved = await until(servers, 0, killedAt, 15_000);
    rows.push({
      case: `each serving process reads from the primary within ${MOVE_BOUND_MS / 1000} s of the kill`,
      figure: `${JSON.stringify(moved)} ms`,
      ok: moved.every((ms) => ms !== null && ms <= MOVE_BOUND_MS),
    });
    await sleep(Math.max(0, killedAt + 10_000 - Date.now()));
    const restartedAt = Date.now();
    say("starting the replica again");
    await pair.startReplica();
    const back = await until(servers, 1, restartedAt, 30_000);
    await sleep(2_000);
    reading = false;
    await Promise.all(load);

    const failed = (from: number, to: number) => answers.filter((answer) => answer.at >= from && answer.at < to && answer.status !== 200);
    const count = (from: number, to: number) => answers.filter((answer) => answer.at >= from && answer.at < to).length;
    const end = Date.now();
    rows.push({
      case: "no failed read before the kill",
      figure: `${failed(0, killedAt).length} of ${count(0, killedAt)}`,
      ok: failed(0, killedAt).length === 0 && count(0, killedAt) > 0,
    });
    rows.push({
      case: "failed reads in the first 5 s after the kill (requests in flight)",
      figure: `${failed(killedAt, killedAt + MOVE_BOUND_MS).length} of ${count(killedAt, killedAt + MOVE_BOUND_MS)}`,
      ok: failed(killedAt, killedAt + MOVE_BOUND_MS).every((answer) => answer.status === 503),
    });
    rows.push({
      case: "no failed read from 5 s after the kill to the end (the replica back in between)",
      figure: `${failed(killedAt + MOVE_BOUND_MS, end).length} of ${count(killedAt + MOVE_BOUND_MS, end)}`,
      ok: failed(killedAt + MOVE_BOUND_MS, end).length === 0 && count(killedAt + MOVE_BOUND_MS, end) > 0,
    });
    rows.push({
      case: "both serving processes take the replica back once it is up",
      figure: `${JSON.stringify(back)} ms after its start`,
      ok: back.every((ms) => ms !== null),
    });
  } finally {
    await stack.close();
    await pair.stop();
  }
  console.table(rows);
  const ok = rows.every((row) => row.ok);
  say(ok ? "replica failover: all cases passed" : "replica failover: FAILED");
  printResult("replica failover", rows.length, rows.filter((row) => row.ok).length);
  process.exit(ok ? 0 : 1);
}

main().catch((error: unknown) => {
  process.stderr.write(`replica failover failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
