/**
 * Reliability fault: the chain node goes away and comes back under the indexer (through a proxy that is taken down,
 * as a node restart looks to a client). Purchases made meanwhile must all be indexed afterwards: no gap, no
 * duplicate, and the indexer never stops.
 */
import { buyTicket, deployTestRaffle, rpcProvider } from "@raffle/chain/testing";
import { TcpGate } from "@raffle/testing";
import { openDatabase } from "@raffle/db";
import { Indexer, silentLogger } from "@raffle/indexer";
import { startTestStack } from "@raffle/test-stack";

import { printResult } from "./result";

const say = (line: string) => process.stdout.write(`${line}\n`);

async function main(): Promise<void> {
  const stack = await startTestStack({ label: "chain_outage", node: "hardhat" });
  const { node, world, database } = stack;
  const raffle = await deployTestRaffle(world, "NATIVE", 0n);
  const proxy = new TcpGate({ host: "127.0.0.1", port: node.port });
  await proxy.open();
  const dataSource = await openDatabase({ url: database.url, poolSize: 4 });
  const provider = rpcProvider(proxy.rpcUrl);
  const errors: string[] = [];
  const indexer = new Indexer(dataSource, provider, {
    deployment: world.deployment,
    pollIntervalMs: 100,
    logger: { ...silentLogger, error: (message, fields) => errors.push(`${message} ${String(fields?.error ?? "")}`) },
  });
  const rows: Array<{ check: string; result: string; ok: boolean }> = [];
  try {
    indexer.start();
    for (let i = 0; i < 5; i += 1) await buyTicket(world, raffle, world.players[i % 4], 1n);
    say("taking the node away from the indexer for 5 s while players keep buying");
    await proxy.cut();
    for (let i = 0; i < 10; i += 1) await buyTicket(world, raffle, world.players[i % 4], 1n);
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    await proxy.open();
    for (let i = 0; i < 5; i += 1) await buyTicket(world, raffle, world.players[i % 4], 1n);
    const head = await node.provider.getBlockNumber();
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && (indexer.status().cursor ?? 0) < head) await new Promise((resolve) => setTimeout(resolve, 100));

    const [{ tickets, distinct, maxId }] = await dataSource.query(
      `SELECT count(*)::int AS tickets, count(DISTINCT token_id)::int AS distinct, max(token_id)::int AS "maxId" FROM ticket`,
    );
    const [{ count: roundCount }] = await dataSource.query(`SELECT ticket_count AS count FROM round`);
    rows.push({ check: "the indexer saw the outage (errors logged, loop kept running)", result: `${errors.length} errors`, ok: errors.length > 0 });
    rows.push({
      check: "every purchase indexed after the outage (no gap)",
      result: `${tickets} of 20, ids up to ${maxId}`,
      ok: tickets === 20 && maxId === 20,
    });
    rows.push({ check: "no duplicate tickets", result: `${distinct} distinct`, ok: distinct === tickets });
    rows.push({ check: "ticketCount of the round", result: String(roundCount), ok: roundCount === 20 });
    rows.push({ check: "caught up with the head", result: `cursor ${indexer.status().cursor} / head ${head}`, ok: indexer.status().cursor === head });
  } finally {
    await indexer.stop();
    provider.destroy();
    await proxy.cut();
    await dataSource.destroy();
    await stack.close();
  }
  console.table(rows);
  const ok = rows.every((row) => row.ok);
  say(ok ? "chain outage: all cases passed" : "chain outage: FAILED");
  printResult("chain outage", rows.length, rows.filter((row) => row.ok).length);
  process.exit(ok ? 0 : 1);
}

main().catch((error: unknown) => {
  process.stderr.write(`chain outage failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
