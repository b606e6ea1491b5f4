/**
 * Reliability fault: the chain node goes away under the merchant worker and comes back. The worker (main.ts, a real
 * child process, rotating every 2 s) reaches the node through a TCP proxy that is taken down, as a node restart looks
 * to a client. Each outage starts at the worst moment, picked by an RPC gate behind the proxy: the node has just
 * accepted the worker's `endRound` (outage 1) or `startRound` (outage 2) and the answer never reaches the worker.
 * The node stays away for several ticks. Afterwards the worker must finish the cut rotation and keep rotating, the
 * chain must show every round started once and ended once, and no transaction of the merchant may be stuck.
 */
import { TcpGate } from "@raffle/testing";

import { printResult } from "./result";
import { RpcGate } from "./rpc-gate";
import {
  cleanUpOnSignals,
  currentRound,
  killAllWorkers,
  merchantNonces,
  merchantTransactions,
  roundEvents,
  roundsProblem,
  say,
  sleep,
  spawnWorker,
  startWorkerWorld,
  type LogLine,
  type Row,
  type WorkerChild,
} from "./worker-harness";

const EVERY_2_SECONDS = "*/2 * * * * *";
const OUTAGE_MS = Number(process.env.WORKER_OUTAGE_SECONDS ?? 6) * 1_000;

async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

interface Outage {
  /** The transaction whose acceptance started the outage. */
  call: "endRound" | "startRound";
  /** Current round id on chain when the node went away. */
  round: number;
  from: number;
  to: number;
  /** /health statuses polled during the outage ("no answer" when the worker did not answer). */
  health: string[];
}

async function main(): Promise<void> {
  const world = await startWorkerWorld("worker_outage", EVERY_2_SECONDS);
  const { node } = world;
  const raffle = world.raffle.raffle;
  const gate = new RpcGate(node.rpcUrl);
  const proxy = new TcpGate({ host: "127.0.0.1", port: await gate.listen() });
  const cleanup = async () => {
    await killAllWorkers();
    await proxy.cut();
    await gate.close();
    await world.close();
  };
  cleanUpOnSignals(cleanup);
  const rows: Row[] = [];
  try {
    await proxy.open();
    const fromBlock = (await node.provider.getBlockNumber()) + 1;
    const worker = spawnWorker(world, proxy.rpcUrl, [], {
      REFRESH_INTERVAL_SECONDS: "2",
      API_RETRY_MAX_DELAY_SECONDS: "2",
      TX_RECEIPT_TIMEOUT_SECONDS: "10",
    });
    let stopping = false;
    let diedEarly = false;
    void worker.closed.then(() => (diedEarly = !stopping));
    await waitFor("the worker's /health port", () => worker.lines.some((line) => line.message === "health endpoint listening"), 60_000);
    const healthPort = Number(worker.lines.find((line) => line.message === "health endpoint listening")!.port);
    const health = async () =>
      fetch(`http://127.0.0.1:${healthPort}/health`, { signal: AbortSignal.timeout(2_000) })
        .then(async (response) => ((await response.json()) as { status: string }).status)
        .catch(() => "no answer");
    const roundId = async () => (await currentRound(node, raffle)).id;
    const rotatedTo = (target: number) => waitFor(`round ${target}`, async () => diedEarly || (await roundId()) >= target, 60_000);

    await rotatedTo(3);
    const outages: Outage[] = [];
    for (const call of ["endRound", "startRound"] as const) {
      let cut: { round: number; from: number } | undefined;
      gate.hooks = {
        after: async (tx) => {
          if (tx.call !== call || cut) return;
          cut = { round: await roundId(), from: Date.now() };
          await proxy.cut();
        },
      };
      await waitFor(`the worker's next ${call}`, () => cut !== undefined || diedEarly, 30_000);
      gate.hooks = {};
      say(`node away from the worker for ${OUTAGE_MS / 1_000} s, from the moment it accepted ${call} (round ${cut!.round})`);
      const statuses: string[] = [];
      while (Date.now() < cut!.from + OUTAGE_MS) {
        statuses.push(await health());
        await sleep(1_000);
      }
      await proxy.open();
      outages.push({ call, ...cut!, to: Date.now(), health: statuses });
      // The cut rotation finished, and one more after it.
      await rotatedTo(cut!.round + 2);
    }
    const back = outages[outages.length - 1].to;
    await waitFor("two rotations after the last outage", () => diedEarly || startedAfter(worker, back).length >= 2, 30_000);
    const finalHealth = await health();
    const aliveAtEnd = worker.alive() && !diedEarly;
    stopping = true;
    const exit = await Promise.race([worker.kill("SIGTERM"), sleep(20_000).then(() => undefined)]);

    for (const outage of outages) {
      const trouble = worker.lines.filter(
        (line) => ["warn", "error"].includes(line.level) && line.receivedAt >= outage.from && line.receivedAt <= outage.to,
      );
      const example = trouble[0] ? `, first: "${trouble[0].message}: ${String(trouble[0].error ?? "").slice(0, 60)}"` : "";
      say(`worker's log during the outage after ${outage.call}:`);
      for (const line of trouble) say(`  ${line.level} ${line.message}: ${String(line.error ?? "").slice(0, 120)}`);
      rows.push({
        check: `outage after ${outage.call}: the worker saw it (logged, kept running)`,
        result: `${trouble.length} warnings/errors${example}`,
        ok: trouble.length > 0,
      });
      const answered = outage.health.filter((status) => status !== "no answer").length;
      rows.push({
        check: `outage after ${outage.call}: /health answered throughout, degraded or unavailable (503)`,
        result: outage.health.join(" "),
        ok: answered === outage.health.length && (outage.health.includes("degraded") || outage.health.includes("unavailable")),
      });
    }
    const events = await roundEvents(node, raffle);
    const [afterEnd, afterStart] = outages;
    // Outage 1: round N was ended on chain, the worker never heard so; it must start N+1 once the node is back.
    const resumed = startedAfter(worker, afterEnd.to).find((line) => Number(line.roundId) === afterEnd.round);
    rows.push({
      check: "rotation cut after endRound: finished once the node was back (no second endRound)",
      result: `round ${afterEnd.round} ended ${events.ended.get(afterEnd.round) ?? 0}×, ${afterEnd.round + 1} started ${events.started.get(afterEnd.round + 1) ?? 0}×${resumed ? ", by the worker after the outage" : ""}`,
      ok: Boolean(resumed) && events.ended.get(afterEnd.round) === 1 && events.started.get(afterEnd.round + 1) === 1,
    });
    // Outage 2: round M was started on chain, the worker never heard so; it must not start it again, and rotate it next.
    const next = worker.lines.find(
      (line) => line.message === "round ended" && Number(line.roundId) === afterStart.round && line.receivedAt > afterStart.to,
    );
    rows.push({
      check: "rotation cut after startRound: that round not started again, rotated next",
      result: `round ${afterStart.round} started ${events.started.get(afterStart.round) ?? 0}×${next ? ", ended by the worker after the outage" : ""}`,
      ok: Boolean(next) && events.started.get(afterStart.round) === 1,
    });
    const after = startedAfter(worker, back);
    rows.push({
      check: "rotations continue after the node returned",
      result: `${after.length} rounds started after the last outage`,
      ok: after.length >= 2,
    });
    const problem = roundsProblem(events);
    const last = Math.max(...events.started.keys());
    rows.push({ check: "round ids consecutive: each started once, ended once, none skipped", result: problem ?? `rounds 1..${last}`, ok: !problem });
    const txs = await merchantTransactions(node, fromBlock);
    const nonces = await merchantNonces(node);
    const reverted = txs.filter((tx) => tx.status !== 1).length;
    const refused = worker.lines.filter((line) => line.message.startsWith("nonce refused")).length;
    rows.push({
      check: "nonces recovered: no stuck or reverted transaction",
      result: `${txs.length} mined, ${reverted} reverted, nonce ${nonces.latest} latest / ${nonces.pending} pending, ${refused} nonce refusals`,
      ok: reverted === 0 && nonces.latest === nonces.pending && txs.length > 0,
    });
    rows.push({ check: "/health ok again after the node returned", result: finalHealth, ok: finalHealth === "ok" });
    const fatal = worker.lines.filter((line) => line.message === "merchant worker failed").length;
    rows.push({
      check: "the worker process never died; exit 0 on SIGTERM",
      result: `${aliveAtEnd ? "alive to the end" : "DIED"}, ${exit ? `exit ${exit.code ?? exit.signal}` : "no exit after SIGTERM"}`,
      ok: aliveAtEnd && fatal === 0 && exit?.code === 0,
    });
    if (!rows.every((row) => row.ok)) say(`worker output (non-JSON tail): ${worker.other().slice(-1_000)}`);
  } finally {
    await cleanup();
  }
  console.table(rows);
  const passed = rows.filter((row) => row.ok).length;
  const ok = rows.length > 0 && passed === rows.length;
  say(ok ? "worker chain outage: all cases passed" : "worker chain outage: FAILED");
  printResult("worker chain outage", rows.length, passed);
  process.exit(ok ? 0 : 1);
}

/** The worker's "round started" log lines received after `time`. */
function startedAfter(worker: WorkerChild, time: number): LogLine[] {
  return worker.lines.filter((line) => line.message === "round started" && line.receivedAt > time);
}

main().catch(async (error: unknown) => {
  process.stderr.write(`worker chain outage failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  await killAllWorkers();
  process.exit(1);
});
