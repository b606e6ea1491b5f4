/**
 * Reliability fault: a game launch (issue 54). A ramp finds the highest purchase rate the local chain takes; then
 * purchases at one ramp step below it (headroom for a rate held 120 s, not 8) for LAUNCH_SECONDS (120 s by default), on a private PostgreSQL and anvil mining a block a second, with each role of the compiled API in
 * an OS process of its own: two indexers (one leads, one stands by) and two delivery workers. A third of the way in
 * the indexing leader is SIGKILLed, two thirds in a delivery worker, in the middle of a delivery (the receiver holds
 * one of its requests open, and the worker that sent it is found by the connection's socket). Each killed process is
 * started again 10 s later, as Kubernetes restarts a pod: the returning indexer must stand by, the returning worker
 * must share the outbox without sending anything twice.
 *
 * The index lag (chain head minus the indexed block) is sampled every 250 ms all run long. After the load the run
 * drains and checks: every purchase sent was mined, each mined one has exactly one ticket row and exactly one
 * webhook-id at the receiver; raw re-deliveries of one webhook-id (the killed worker had sent it, not recorded it) are
 * counted apart and allowed, since receivers dedupe by webhook-id (Standard Webhooks' idempotency key).
 *
 * Settings: LAUNCH_SECONDS; LAUNCH_RATE skips the ramp; LAUNCH_PORT_BASE takes ports from there upwards instead of
 * free ones the OS picks. INDEXER_POLL_INTERVAL_MS, as every API setting, reaches the processes from this environment.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Client } from "pg";
import { freePort } from "@raffle/config";
import { HeadWatcher, silentLogger } from "@raffle/indexer";
import { deployTestRaffle, setUpWorld, startAnvilNode } from "@raffle/chain/testing";
import { createApiKey, startApiProcess, type ApiProcess } from "@raffle/test-stack";

import { CpuMeter, listenerPid, postgresCpuSeconds } from "./launch-cpu";
import { accountPurchases, redeliveriesAfter, summarizeLag, type LagSample } from "./launch-accounting";
import { PurchaseLoad, rpc, rpcBatch } from "./launch-load";
import { LaunchReceiver, socketOwner } from "./launch-receiver";
import { PrivatePostgres } from "./private-postgres";
import { printResult } from "./result";

const SECONDS = Number(process.env.LAUNCH_SECONDS ?? 120);
const GIVEN_RATE = process.env.LAUNCH_RATE ? Number(process.env.LAUNCH_RATE) : undefined;
const PORT_BASE = process.env.LAUNCH_PORT_BASE ? Number(process.env.LAUNCH_PORT_BASE) : undefined;
/** The issue's bound on the index lag, in blocks. */
const LAG_BOUND = 2;
/** A block a second, as the relayer bench mines (anvil's interval is in whole seconds). */
const BLOCK_SECONDS = 1;
const SAMPLE_MS = 250;
/** The standby's promise (apps/api-e2e roles spec): it leads within 8 s of the leader's end. */
const TAKEOVER_BOUND_MS = 8_000;
const RESTART_AFTER_MS = 10_000;
const BUYERS = 64;
/** Purchase rates tried, 8 s each, until one is not taken: each ~1.25× the one before. */
const RAMP = [20, 30, 40, 50, 60, 80, 100, 125, 150, 190, 240, 300, 380, 480, 600, 750, 950];
const STEP_MS = 8_000;
/** anvil's default block gas limit (30 M) would cap a 1 s block near 150 purchases: the CPU is the limit measured. */
const BLOCK_GAS_LIMIT = 1_000_000_000;
const CHAIN_ID = 31337;

const say = (line: string) => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let nextPort = PORT_BASE;
async function port(): Promise<number> {
  if (nextPort === undefined) return freePort();
  nextPort += 1;
  return nextPort - 1;
}

async function until(check: () => Promise<boolean>, timeoutMs: number, everyMs = 200): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return true;
    await sleep(everyMs);
  }
  return false;
}

async function isLeader(api: ApiProcess): Promise<boolean> {
  const response = await fetch(`${api.url}/status`, { signal: AbortSignal.timeout(2_000) });
  const { chains } = (await response.json()) as { chains: Array<{ chainId: number; leader: boolean }> };
  return chains.some((chain) => chain.chainId === CHAIN_ID && chain.leader);
}

/** SIGKILL to the process's group (no goodbye: its PostgreSQL sessions and connections simply end). */
async function kill(api: ApiProcess): Promise<void> {
  const child = api.child.process;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  process.kill(-child.pid!, "SIGKILL");
  await exited;
}

interface Row {
  case: string;
  figure: string;
  ok: boolean;
}

async function main(): Promise<void> {
  say(
    `launch: ${SECONDS} s of purchases on ${os.cpus().length} cores (load average ${os
      .loadavg()
      .map((load) => load.toFixed(2))
      .join(" ")}), Node ${process.version}`,
  );
  const cleanups: Array<() => Promise<unknown>> = [];
  // One cleanup, however many times it is asked for: a second signal (npm passes SIGINT on, then SIGTERM) waits for
  // the first one's cleanup instead of exiting in the middle of it and leaving a PostgreSQL server behind.
  let cleaning: Promise<void> | undefined;
  const cleanup = () =>
    (cleaning ??= (async () => {
      for (const step of cleanups.splice(0).reverse()) await step().catch(() => undefined);
    })());
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => void cleanup().finally(() => process.exit(130)));
  const rows: Row[] = [];
  try {
    const postgres = PrivatePostgres.create(await port());
    cleanups.push(async () => postgres.destroy());
    postgres.start();
    const node = await startAnvilNode({ port: await port(), chainId: CHAIN_ID });
    cleanups.push(() => node.stop());
    const world = await setUpWorld(node.provider);
    const raffle = await deployTestRaffle(world, "NATIVE", 0n);
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "raffle-launch-"));
    cleanups.push(async () => fs.rmSync(folder, { recursive: true, force: true }));
    const deploymentFile = path.join(folder, "deployment.json");
    fs.writeFileSync(deploymentFile, JSON.stringify(world.deployment));
    const receiver = new LaunchReceiver();
    await receiver.start(await port());
    cleanups.push(() => receiver.close());

    const env = {
      LOG_LEVEL: "error",
      DATABASE_URL: postgres.url,
      CHAIN_ID: String(CHAIN_ID),
      RPC_URL: node.rpcUrl,
      INDEXER_WS_URL: node.wsUrl,
      DEPLOYMENT_FILE: deploymentFile,
      WEBHOOK_ALLOW_PRIVATE_URLS: "true",
    };
    const start = async (roles: string): Promise<ApiProcess> => {
      const api = await startApiProcess({ ...env, API_ROLES: roles }, { port: await port() });
      cleanups.push(() => api.stop());
      return api;
    };

    // The endpoint is registered through the API before anything is indexed, so every purchase has its message. The
    // load signs its vouchers itself, so the serving process then stops: its CPU goes to the chain and the roles.
    const server = await start("serve");
    const apiKey = await createApiKey(postgres.url, await world.merchant.getAddress());
    const created = await fetch(`${server.url}/webhooks`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ url: receiver.url, events: ["ticket.purchased"] }),
    });
    if (created.status !== 201) throw new Error(`POST /webhooks answered ${created.status}: ${await created.text()}`);
    receiver.secret = ((await created.json()) as { secret: string }).secret;
    await server.stop();

    const indexers = [await start("index")];
    if (!(await until(() => isLeader(indexers[0]), 30_000))) throw new Error("the first indexer never led");
    indexers.push(await start("index"));
    const deliverers = [await start("deliver"), await start("deliver")];
    const db = new Client({ connectionString: postgres.url });
    await db.connect();
    cleanups.push(() => db.end());
    const cursor = async () => {
      const { rows: found } = await db.query<{ block: string }>(`SELECT block_number AS block FROM indexer_cursor WHERE chain_id = $1`, [CHAIN_ID]);
      return found.length === 0 ? -1 : Number(found[0].block);
    };
    const head = async () => Number(BigInt(await rpc<string>(node.rpcUrl, "eth_blockNumber")));
    if (!(await until(async () => (await cursor()) >= (await head()), 60_000))) throw new Error("the indexer never reached the head");

    await rpc(node.rpcUrl, "evm_setBlockGasLimit", [`0x${BLOCK_GAS_LIMIT.toString(16)}`]);
    await rpc(node.rpcUrl, "evm_setAutomine", [false]);
    await rpc(node.rpcUrl, "evm_setIntervalMining", [BLOCK_SECONDS]);
    const load = await PurchaseLoad.create(node.rpcUrl, world, raffle, BUYERS);
    const poolSize = async () => {
      const status = await rpc<{ pending: string; queued: string }>(node.rpcUrl, "txpool_status");
      return Number(BigInt(status.pending) + BigInt(status.queued));
    };

    // The ramp: a rate is taken when the schedule was kept (98 % of its purchases offered: this script's event loop
    // kept up), the node took every purchase offered (none refused, none skipped because its answers fell so far
    // behind that MAX_IN_FLIGHT were out) and mined what was sent within two blocks of the step's end (at most one
    // block's worth still in its pool). A skip in a short step is the first sign of a rate that would not hold for the
    // whole run.
    let rate = GIVEN_RATE ?? 0;
    let peak = rate;
    if (GIVEN_RATE === undefined) {
      const steps: Array<Record<string, string | number | boolean>> = [];
      for (const tried of RAMP) {
        const fromBlock = await head();
        const refusedBefore = load.refused;
        const skippedBefore = load.skipped;
        const { scheduled, offered, sent } = await load.run(tried, STEP_MS);
        await sleep(2 * BLOCK_SECONDS * 1_000);
        const toBlock = await head();
        const blocks = await rpcBatch<{ transactions: string[] }>(
          node.rpcUrl,
          "eth_getBlockByNumber",
          Array.from({ length: toBlock - fromBlock }, (_, index) => [`0x${(fromBlock + 1 + index).toString(16)}`, false]),
        );
        const mined = blocks.reduce((total, block) => total + block.transactions.length, 0);
        const waiting = await poolSize();
        const skipped = load.skipped - skippedBefore;
        const taken = offered >= scheduled * 0.98 && skipped === 0 && load.refused === refusedBefore && waiting <= tried * BLOCK_SECONDS;
        steps.push({
          "rate /s": tried,
          scheduled,
          offered,
          sent,
          skipped,
          mined,
          "in pool after 2 blocks": waiting,
          "index lag": (await head()) - (await cursor()),
          taken,
        });
        if (!taken) break;
        // The run goes one step below the highest step taken: 8 s at a rate is not 120 s of it, and on a machine
        // shared with other work a rate taken at the edge did not hold for the whole run (the sender fell behind).
        rate = peak > 0 ? peak : tried;
        peak = tried;
        await until(async () => (await poolSize()) === 0, 30_000);
      }
      console.table(steps);
    }
    rows.push({
      case: "highest purchase rate the chain takes (ramp, a block a second); the run's rate, a step below",
      figure:
        GIVEN_RATE !== undefined
          ? `run at ${rate}/s (LAUNCH_RATE: no ramp)`
          : `${peak}/s${peak === RAMP[RAMP.length - 1] ? " or more (the ramp's top: every step taken)" : ""}; run at ${rate}/s`,
      ok: rate > 0,
    });
    if (rate === 0) throw new Error("the chain took no rate of the ramp");
    await until(async () => (await poolSize()) === 0 && (await cursor()) >= (await head()), 60_000);

    // The run: the load, the lag sampler and the kills side by side.
    say(
      `launch: ${rate} purchases/s for ${SECONDS} s; the indexing leader is killed at ${Math.round(SECONDS / 3)} s, a delivery worker at ${Math.round((2 * SECONDS) / 3)} s`,
    );
    // CPU by role over the run, so the rate found can be read against where the two cores went.
    const meter = new CpuMeter();
    const nodePid = listenerPid(node.port);
    if (nodePid) meter.track("chain node (anvil)", nodePid);
    const postmaster = Number(fs.readFileSync(path.join(postgres.dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
    meter.track("PostgreSQL", postmaster, () => postgresCpuSeconds(postmaster));
    for (const api of indexers) meter.track("indexers", api.child.process.pid!);
    for (const api of deliverers) meter.track("delivery workers", api.child.process.pid!);
    meter.track("load and receiver (this script)", process.pid, () => (process.cpuUsage().user + process.cpuUsage().system) / 1e6);
    const killTracked = async (api: ApiProcess) => {
      meter.update(api.child.process.pid);
      await kill(api);
    };
    const runStart = Date.now();
    const sentBefore = load.sent.length;
    const samples: LagSample[] = [];
    let sampling = true;
    // The head as the node announces it (newHeads, as the indexers hear it): asking the node for it at each sample
    // would wait in line behind the load's transactions, and a sample that takes 500 ms misreads the lag.
    let latestHead = await head();
    const heads = new HeadWatcher(node.wsUrl, (block) => (latestHead = Math.max(latestHead, block)), silentLogger);
    heads.start();
    cleanups.push(async () => heads.stop());
    const sampler = (async () => {
      while (sampling) {
        const at = Date.now();
        // The cursor first, then the head: a block announced in between counts against the indexer, never for it.
        const indexed = await cursor().catch(() => -1);
        if (indexed >= 0) samples.push({ at, lag: Math.max(0, latestHead - indexed) });
        await sleep(Math.max(0, at + SAMPLE_MS - Date.now()));
      }
    })();

    const events: { killedAt: number; leaderAt: number | null; standbyPid?: number; deliverKilledAt: number; deliverer: string } = {
      killedAt: 0,
      leaderAt: null,
      deliverKilledAt: 0,
      deliverer: "",
    };
    const restarts: Array<Promise<void>> = [];
    const restartAfter = async (roles: string, group: ApiProcess[], role: string) => {
      await sleep(RESTART_AFTER_MS);
      const api = await start(roles);
      group.push(api);
      meter.track(role, api.child.process.pid!);
    };
    const timeline = (async () => {
      await sleep(Math.max(0, runStart + (SECONDS * 1_000) / 3 - Date.now()));
      const leads = await Promise.all(indexers.map((api) => isLeader(api).catch(() => false)));
      const leader = indexers[leads.indexOf(true)];
      if (!leader) throw new Error(`no indexer led at the kill (${JSON.stringify(leads)})`);
      const standby = indexers.find((api) => api !== leader)!;
      events.killedAt = Date.now();
      await killTracked(leader);
      say(`launch: killed the indexing leader (pid ${leader.child.process.pid})`);
      // Restarts run beside the timeline: a start that takes long on a loaded machine must not delay the next kill.
      restarts.push(restartAfter("index", indexers, "indexers"));
      if (await until(() => isLeader(standby), 30_000, 100)) events.leaderAt = Date.now();

      await sleep(Math.max(0, runStart + (2 * SECONDS * 1_000) / 3 - Date.now()));
      const held = await Promise.race([receiver.holdNext(), sleep(10_000).then(() => undefined)]);
      const pids = deliverers.map((api) => api.child.process.pid!);
      const owner = held === undefined ? undefined : socketOwner(held, receiver.port, pids);
      const victim = deliverers.find((api) => api.child.process.pid === owner) ?? deliverers[0];
      events.deliverKilledAt = Date.now();
      events.deliverer = owner === undefined ? "none found delivering: the first killed" : `pid ${owner}, a request held open`;
      await killTracked(victim);
      say(`launch: killed a delivery worker (${events.deliverer})`);
      restarts.push(restartAfter("deliver", deliverers, "delivery workers"));
    })();
    const result = await load.run(rate, SECONDS * 1_000);
    const loadEnded = Date.now();
    meter.update();
    await timeline;
    await Promise.all(restarts);
    sampling = false;
    await sampler;
    const sentInRun = load.sent.length - sentBefore;
    say(
      `launch: load done: ${sentInRun} sent, ${result.offered} offered of ${result.scheduled} scheduled, ${load.refused} refused ${load.lastRefusal}, ${load.skipped} skipped`,
    );

    // The drain: the pool mined, the index at the last block, every message out of the outbox.
    await until(async () => (await poolSize()) === 0, 60_000);
    const receipts = await rpcBatch<{ transactionHash: string; status: string; blockNumber: string } | null>(
      node.rpcUrl,
      "eth_getTransactionReceipt",
      load.sent.map((sent) => [sent.hash]),
    );
    const mined = receipts.filter((receipt) => receipt?.status === "0x1").map((receipt) => receipt!.transactionHash);
    const reverted = receipts.filter((receipt) => receipt && receipt.status !== "0x1").length;
    const lastBlock = Math.max(...receipts.map((receipt) => (receipt ? Number(BigInt(receipt.blockNumber)) : 0)));
    const indexedAll = await until(async () => (await cursor()) >= lastBlock, 60_000);
    const outboxLeft = async () => {
      const { rows: left } = await db.query<{ count: number }>(`SELECT count(*)::int AS count FROM webhook_delivery WHERE status <> 'DELIVERED'`);
      return left[0].count;
    };
    const drainStarted = Date.now();
    const drained = await until(async () => (await outboxLeft()) === 0, 120_000, 500);
    const drainSeconds = (Date.now() - drainStarted) / 1_000;
    // Late re-deliveries would come within a poll or two of the outbox emptying.
    await sleep(2_000);

    const { rows: ticketRows } = await db.query<{ tx: string; count: number }>(
      `SELECT lower(tx_hash) AS tx, count(*)::int AS count FROM ticket GROUP BY 1`,
    );
    const account = accountPurchases(mined, new Map(ticketRows.map((row) => [row.tx, row.count])), receiver.received);
    const lag = summarizeLag(samples, events.killedAt, events.leaderAt, LAG_BOUND);
    const leadsAtEnd = await Promise.all(indexers.map((api) => isLeader(api).catch(() => false)));

    const live = indexers.filter((api) => api.child.process.exitCode === null && api.child.process.signalCode === null);
    rows.push({
      case: "the load sent the rate (≥ 95 % of the scheduled purchases, none refused by the node)",
      figure: `${sentInRun} of ${result.scheduled} in ${((loadEnded - runStart) / 1_000).toFixed(1)} s (${(sentInRun / SECONDS).toFixed(1)}/s), ${load.refused} refused`,
      ok: sentInRun >= result.scheduled * 0.95 && load.refused === 0,
    });
    rows.push({
      case: "every purchase sent (ramp and run) was mined and succeeded",
      figure: `${load.sent.length} sent, ${mined.length} mined, ${reverted} reverted, ${receipts.length - mined.length - reverted} not mined`,
      ok: mined.length === load.sent.length,
    });
    rows.push({
      case: `index lag outside the takeover window ≤ ${LAG_BOUND} blocks (sampled every ${SAMPLE_MS} ms)`,
      figure: `max ${lag.maxOutside} over ${lag.samples} samples (one per ${Math.round((loadEnded - runStart) / Math.max(lag.samples, 1))} ms); ${lag.breachesOutside} above ${LAG_BOUND}`,
      ok: lag.maxOutside <= LAG_BOUND && lag.samples > 0,
    });
    const windowSeconds = lag.windowEnd === null ? null : (lag.windowEnd - lag.windowStart) / 1_000;
    rows.push({
      case: `index lag across the leader's kill ≤ ${LAG_BOUND} blocks (the standby tries the lock every poll interval)`,
      figure: `max ${lag.maxAcross} blocks; back within ${LAG_BOUND} ${windowSeconds === null ? "never" : `${windowSeconds.toFixed(1)} s after the kill`}`,
      ok: lag.windowEnd !== null && lag.maxAcross <= LAG_BOUND,
    });
    const takeoverMs = events.leaderAt === null ? null : events.leaderAt - events.killedAt;
    rows.push({
      case: `the standby leads within ${TAKEOVER_BOUND_MS / 1_000} s of the leader's SIGKILL; the restarted one stands by`,
      figure: `${takeoverMs === null ? "never" : `${(takeoverMs / 1_000).toFixed(1)} s`}; leaders at the end: ${leadsAtEnd.filter(Boolean).length} of ${live.length} live`,
      ok: takeoverMs !== null && takeoverMs <= TAKEOVER_BOUND_MS && leadsAtEnd.filter(Boolean).length === 1,
    });
    rows.push({
      case: "every mined purchase in the database exactly once (one ticket row)",
      figure: `${account.inDatabaseOnce} of ${account.mined}; ${account.missingInDatabase.length} missing, ${account.duplicatedInDatabase.length} doubled, ${account.unexpectedInDatabase} unexpected; index at the last block: ${indexedAll}`,
      ok: account.inDatabaseOnce === account.mined && account.unexpectedInDatabase === 0 && account.mined > 0,
    });
    rows.push({
      case: "every mined purchase has exactly one webhook message (one distinct webhook-id)",
      figure: `${account.webhookOnce} of ${account.mined}; ${account.missingWebhook.length} missing, ${account.splitWebhook.length} under two ids, ${account.unexpectedWebhooks} unexpected; outbox drained ${drained ? `${drainSeconds.toFixed(1)} s after the index` : "never"}`,
      ok: account.webhookOnce === account.mined && account.splitWebhook.length === 0 && account.unexpectedWebhooks === 0 && drained,
    });
    const lateRedeliveries = redeliveriesAfter(receiver.received, events.deliverKilledAt);
    rows.push({
      case: "raw re-deliveries of one webhook-id (allowed: receivers dedupe by it), only of messages sent before the worker's kill",
      figure: `${account.redeliveries} re-deliveries; ${lateRedeliveries} of messages first sent after the kill`,
      ok: lateRedeliveries === 0,
    });
    const unverified = receiver.received.filter((received) => !received.verified).length;
    rows.push({
      case: "a delivery worker killed in the middle of a delivery; every request's signature verified",
      figure: `${events.deliverer}; ${receiver.received.length} requests, ${unverified} unverified`,
      ok: !events.deliverer.startsWith("none") && unverified === 0,
    });
    const runSeconds = (loadEnded - runStart) / 1_000;
    console.table(
      [...meter.byRole()].map(([role, seconds]) => ({
        "CPU over the run": role,
        "cpu s": Number(seconds.toFixed(1)),
        cores: Number((seconds / runSeconds).toFixed(2)),
        "cpu ms per purchase": Number(((seconds * 1_000) / Math.max(sentInRun, 1)).toFixed(2)),
      })),
    );
    if (account.missingInDatabase.length + account.missingWebhook.length > 0)
      say(`missing: database ${account.missingInDatabase.slice(0, 5).join(", ")}; webhooks ${account.missingWebhook.slice(0, 5).join(", ")}`);
    const lagOverTime = samples
      .filter((sample) => sample.lag > LAG_BOUND)
      .map((sample) => `${((sample.at - runStart) / 1_000).toFixed(1)} s: ${sample.lag}`);
    if (lagOverTime.length > 0) say(`lag above ${LAG_BOUND} at: ${lagOverTime.join(", ")}`);
  } finally {
    await cleanup();
  }
  console.table(rows);
  const ok = rows.every((row) => row.ok);
  say(ok ? "launch: PASS (all cases passed)" : "launch: FAIL");
  printResult("launch", rows.length, rows.filter((row) => row.ok).length);
  process.exit(ok ? 0 : 1);
}

main().catch((error: unknown) => {
  process.stderr.write(`launch failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  printResult("launch", 1, 0);
  process.exit(1);
});
