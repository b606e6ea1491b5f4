/**
 * Part "relayer" (issue #52): signed ERC-3009 purchases submitted to the API's mailbox at a steady rate
 * (BENCH_RELAY_RATE per second for BENCH_RELAY_SECONDS), relayed by the merchant worker's relayer to the local chain.
 * Reports submitted and mined per second, lost (accepted, never mined), duplicated (relayer transactions beyond one
 * per mined purchase) and nonce gaps (relayer transactions stuck behind a missing nonce), and the API's CPU per
 * accepted purchase: submission, the relayer's claims and reports and the API's receipt checks, all included.
 */
import * as fs from "node:fs";
import { Wallet, parseUnits, toQuantity, type JsonRpcProvider } from "ethers";
import { TestToken__factory, assetFromJson, signPurchaseAuthorization, tokenDomain } from "@raffle/chain";
import { rpcProvider } from "@raffle/chain/testing";
import { RaffleApi, type TicketSignature } from "@raffle/sdk";
import { ApiRelayMailbox } from "../../../apps/merchant-worker/src/relayer/api-mailbox";
import { ChainRelayer } from "../../../apps/merchant-worker/src/relayer/chain-relayer";
import { TxSender } from "../../../apps/merchant-worker/src/tx-sender";
import { WorkerLogger } from "../../../apps/merchant-worker/src/logger";

import type { NodeKind } from "@raffle/test-stack";

import { say, sleep } from "../settings";
import { startBenchStack, stopBenchStack, type BenchStack } from "../stack";

const RATE = Number(process.env.BENCH_RELAY_RATE ?? 50);
const SECONDS = Number(process.env.BENCH_RELAY_SECONDS ?? 60);
const TARGET_PER_SECOND = 50;
/** Buyers of the run: each signs many purchases (an ERC-3009 nonce per purchase lets them run side by side). */
const BUYERS = 50;
const STALL_MS = 60_000;
/**
 * The chain the relayer part runs on: its own stack on anvil by default, a block a second as a chain makes them, or
 * the bench's Hardhat stack (BENCH_RELAY_NODE=hardhat, a block every 500 ms). Hardhat answers one JSON-RPC call at a
 * time in JavaScript: with 200 jobs in flight its queue of estimates and receipts held each nonce-ordered broadcast,
 * and it mined 12-15 purchases per block every 1.5 s (docs/performance.md "Gasless relaying").
 */
const NODE: NodeKind = process.env.BENCH_RELAY_NODE === "hardhat" ? "hardhat" : "anvil";
/** Hardhat's interval is in milliseconds, anvil's in whole seconds. */
const BLOCK_MS = NODE === "anvil" ? 1_000 : 500;
/**
 * Jobs the relayer holds at once (RELAYER_MAX_IN_FLIGHT). A job holds its slot from its lease to its reported outcome,
 * a few seconds on these shared cores, so 50/s needs well over 50 slots (Little's law: rate × seconds per job).
 */
const MAX_IN_FLIGHT = Number(process.env.BENCH_RELAY_MAX_IN_FLIGHT ?? 400);

interface SignedPurchase {
  body: {
    contractId: number;
    chainId: number;
    voucher: TicketSignature;
    authorization: { validAfter: string; validBefore: string; signature: string };
  };
}

export async function relayerPart(bench: BenchStack): Promise<void> {
  if (NODE === "hardhat") return relayOn(bench);
  const own = await startBenchStack(bench.results, { node: "anvil" });
  try {
    await relayOn({ ...own, rows: bench.rows, results: bench.results });
  } finally {
    await stopBenchStack(own);
  }
}

async function relayOn(stack: BenchStack): Promise<void> {
  const { world, api, node } = stack;
  const total = RATE * SECONDS;
  const chainId = world.deployment.chainId;
  const apiKey = stack.auth.authorization.replace(/^Bearer /, "");
  const client = new RaffleApi({ baseUrl: api.url, apiKey, timeoutMs: 30_000 });
  say(`relayer: ${total} signed ERC-3009 purchases at ${RATE}/s for ${SECONDS} s through the API's mailbox and the worker's relayer`);
  await client.setGaslessSettings({ enabled: true, dailyGasBudgetWei: parseUnits("1000000", 18).toString(), perPlayerDailyLimit: 10_000 });

  // Token-only buyers and their signed purchases, all made before the clock starts.
  const buyers = Array.from({ length: BUYERS }, () => Wallet.createRandom());
  const token = TestToken__factory.connect(world.token, world.admin);
  for (const buyer of buyers) await (await token.mint(buyer.address, BigInt(stack.raffle.price.amount) * BigInt(total))).wait();
  const domain = tokenDomain(await token.name(), "1", chainId, world.token);
  const purchases: SignedPurchase[] = [];
  for (let i = 0; i < total; i += 1) {
    const buyer = buyers[i % BUYERS];
    const voucher = await client.signTicket({ account: buyer.address, contractId: stack.contractId });
    const purchase = {
      chainId,
      exchange: world.deployment.exchange,
      voucher: {
        account: buyer.address,
        params: { ...voucher.params, externalId: BigInt(voucher.params.externalId), expiresAt: BigInt(voucher.params.expiresAt) },
        item: assetFromJson(voucher.item),
        price: assetFromJson(voucher.price),
      },
    };
    const signed = await signPurchaseAuthorization(buyer, domain, purchase, BigInt(voucher.expiresAt));
    purchases.push({
      body: {
        contractId: stack.contractId,
        chainId,
        voucher,
        authorization: { validAfter: "0", validBefore: String(voucher.expiresAt), signature: signed.signature },
      },
    });
  }
  say(`relayer: ${total} purchases signed; starting the relayer and the submissions`);

  // The relayer as the merchant worker runs it, on its own funded key, its own connection and nonce count.
  const relayerKey = Wallet.createRandom();
  await node.provider.send("hardhat_setBalance", [relayerKey.address, toQuantity(parseUnits("1000", 18))]);
  const provider = rpcProvider(node.rpcUrl);
  const wallet = new Wallet(relayerKey.privateKey, provider);
  const nonceBefore = await provider.getTransactionCount(wallet.address, "latest");
  const firstBlock = (await provider.getBlockNumber()) + 1;
  const relayer = new ChainRelayer({
    chainId,
    exchange: world.deployment.exchange,
    mailbox: new ApiRelayMailbox({ baseUrl: api.url, apiKey, relayerId: "bench-relayer" }),
    sender: new TxSender(wallet, {
      chainId,
      confirmations: 1,
      pollMs: 100,
      fees: { maxFeePerGas: parseUnits("500", "gwei"), bumpPercent: 25, receiptTimeoutMs: 60_000 },
    }),
    provider,
    logger: new WorkerLogger({ level: (process.env.BENCH_RELAY_LOG_LEVEL as "warn" | undefined) ?? "warn" }),
    pollIntervalMs: 100,
    maxInFlight: MAX_IN_FLIGHT,
  });

  // Blocks at an interval, as a chain makes them: automine's block per transaction would run the chain's clock ahead of
  // the wall clock (each block at least a second after the last) and expire the vouchers on-chain.
  await node.provider.send("evm_setAutomine", [false]);
  await node.provider.send("evm_setIntervalMining", [NODE === "anvil" ? BLOCK_MS / 1000 : BLOCK_MS]);
  const cpuBefore = api.cpuSeconds();
  const nodePid = listeningNodePid(node.port);
  const nodeCpuBefore = nodePid ? processCpuSeconds(nodePid) : 0;
  const relayerCpuBefore = process.cpuUsage();
  const started = Date.now();
  relayer.start();
  const refusals = new Map<string, number>();
  let accepted = 0;
  const requests: Array<Promise<void>> = [];
  for (let i = 0; i < total; i += 1) {
    const due = started + (i * 1000) / RATE;
    if (due > Date.now()) await sleep(due - Date.now());
    requests.push(
      client.submitGaslessPurchase(purchases[i].body).then(
        () => void (accepted += 1),
        (error: { code?: unknown; name?: string }) => {
          // A problem's code, or the client's own timeout (a DOMException, whose numeric code says nothing).
          const code = error.name === "TimeoutError" ? "timeout" : typeof error.code === "string" ? error.code : "error";
          refusals.set(code, (refusals.get(code) ?? 0) + 1);
        },
      ),
    );
  }
  await Promise.all(requests);
  const submitSeconds = (Date.now() - started) / 1000;
  // What the API queued: a submission whose answer timed out may still have been accepted.
  const [{ count: queued }]: Array<{ count: string }> = await stack.keyDataSource.query("SELECT count(*) AS count FROM gasless_request");
  accepted = Number(queued);

  // Drained when every accepted purchase is mined or failed, or when nothing moved for STALL_MS (the rest is lost).
  let states: Record<string, number>;
  let done = -1;
  let movedAt = Date.now();
  for (;;) {
    const rows: Array<{ state: string; count: string }> = await stack.keyDataSource.query(
      "SELECT state, count(*) AS count FROM gasless_request GROUP BY state",
    );
    states = Object.fromEntries(rows.map((row) => [row.state, Number(row.count)]));
    const finished = (states.mined ?? 0) + (states.failed ?? 0);
    if (finished !== done) [done, movedAt] = [finished, Date.now()];
    if (finished >= accepted || Date.now() - movedAt > STALL_MS) break;
    await sleep(250);
  }
  const seconds = (Date.now() - started) / 1000;
  // Throughput over the span the purchases were mined in (first to last reported), and each one's latency from its
  // acceptance to its reported outcome: the drain's total also holds the last purchase's latency (a block or two).
  const [span]: Array<{ span: number | null; p50: number | null; p99: number | null }> = await stack.keyDataSource.query(
    `SELECT extract(epoch FROM max(mined_at) - min(mined_at))::float8 AS span,
            percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM mined_at - created_at))::float8 AS p50,
            percentile_cont(0.99) WITHIN GROUP (ORDER BY extract(epoch FROM mined_at - created_at))::float8 AS p99
       FROM gasless_request WHERE state = 'mined'`,
  );
  const failures: Array<{ code: string; count: string }> = await stack.keyDataSource.query(
    "SELECT failure_code AS code, count(*) AS count FROM gasless_request WHERE state = 'failed' GROUP BY failure_code",
  );
  const apiCpu = api.cpuSeconds() - cpuBefore;
  const nodeCpu = nodePid ? processCpuSeconds(nodePid) - nodeCpuBefore : 0;
  // This process runs the relayer, and the submissions too (the load generator's share: its HTTP requests).
  const relayerCpuUsage = process.cpuUsage(relayerCpuBefore);
  const benchCpu = (relayerCpuUsage.user + relayerCpuUsage.system) / 1e6;
  await relayer.stop();
  await node.provider.send("evm_setIntervalMining", [0]);
  await node.provider.send("evm_setAutomine", [true]);

  const mined = states.mined ?? 0;
  const failed = states.failed ?? 0;
  const sentByRelayer = (await provider.getTransactionCount(wallet.address, "latest")) - nonceBefore;
  const pendingBehindGap =
    (await provider.getTransactionCount(wallet.address, "pending")) - (await provider.getTransactionCount(wallet.address, "latest"));
  const reverted = await revertedTransactions(provider, wallet.address, firstBlock);
  provider.destroy();
  const lost = accepted - mined - failed;
  // The Exchange buys each voucher once: a job sent twice shows as a reverted transaction (its voucher already used).
  const duplicated = reverted;
  const minedUnreported = sentByRelayer - reverted - mined;
  const cpuMicrosPerPurchase = (apiCpu * 1e6) / Math.max(accepted, 1);
  const submittedPerSecond = accepted / submitSeconds;
  const minedPerSecond = mined / Math.max(span.span ?? seconds, 1);
  const latency = `accepted to mined: median ${(span.p50 ?? 0).toFixed(1)} s, p99 ${(span.p99 ?? 0).toFixed(1)} s`;
  const refused = [...refusals.entries()].map(([code, count]) => `${code} ${count}`).join(", ");
  stack.results.relayer = {
    rate: RATE,
    seconds: SECONDS,
    submitted: total,
    accepted,
    refusals: Object.fromEntries(refusals),
    mined,
    failed,
    failureCodes: Object.fromEntries(failures.map((row) => [row.code, Number(row.count)])),
    reverted,
    lost,
    duplicated,
    minedUnreported,
    pendingBehindGap,
    submitSeconds: Number(submitSeconds.toFixed(1)),
    drainedSeconds: Number(seconds.toFixed(1)),
    minedSpanSeconds: Number((span.span ?? 0).toFixed(1)),
    latencySeconds: { p50: Number((span.p50 ?? 0).toFixed(2)), p99: Number((span.p99 ?? 0).toFixed(2)) },
    apiCpuMicrosPerPurchase: Math.round(cpuMicrosPerPurchase),
    nodeCpuMicrosPerMined: Math.round((nodeCpu * 1e6) / Math.max(mined, 1)),
    relayerAndLoadCpuMicrosPerMined: Math.round((benchCpu * 1e6) / Math.max(mined, 1)),
    maxInFlight: MAX_IN_FLIGHT,
  };
  stack.rows.push(
    {
      measure: `relayer: signed ERC-3009 purchases at ${RATE}/s for ${SECONDS} s through the API and the worker's relayer (${NODE}, a block every ${BLOCK_MS} ms): submitted / mined per second (over the span they were mined in)`,
      result: `${submittedPerSecond.toFixed(1)} / ${minedPerSecond.toFixed(1)} per s (${mined} of ${accepted} mined, all in ${seconds.toFixed(0)} s; ${latency}${failed ? `; ${failed} failed` : ""}${refused ? `; refused: ${refused}` : ""})`,
      target: `>= ${TARGET_PER_SECOND}/s both`,
      met: submittedPerSecond >= TARGET_PER_SECOND * 0.98 && minedPerSecond >= TARGET_PER_SECOND * 0.98,
    },
    {
      measure: "relayer: lost (accepted, never mined or failed) / duplicated (relayer transactions reverted) / nonce gaps",
      result: `${lost} / ${duplicated} / ${pendingBehindGap}${minedUnreported ? ` (${minedUnreported} mined, not yet reported)` : ""}`,
      target: "0 / 0 / 0",
      met: lost === 0 && duplicated === 0 && pendingBehindGap === 0 && failed === 0,
    },
    {
      measure: `relayer: CPU per purchase of the API (per accepted: submission, claims, reports, receipt checks; beside sign's per request) / the chain node / the relayer with the load generator (per mined; in-flight cap ${MAX_IN_FLIGHT})`,
      result: `${cpuMicrosPerPurchase.toFixed(0)} / ${((nodeCpu * 1e6) / Math.max(mined, 1)).toFixed(0)} / ${((benchCpu * 1e6) / Math.max(mined, 1)).toFixed(0)} µs`,
      target: "",
      met: null,
    },
  );
}

/** Transactions of `account` mined reverted since `fromBlock`. */
async function revertedTransactions(provider: JsonRpcProvider, account: string, fromBlock: number): Promise<number> {
  const head = await provider.getBlockNumber();
  let reverted = 0;
  for (let number = fromBlock; number <= head; number += 1) {
    const block = await provider.getBlock(number, true);
    for (const tx of block?.prefetchedTransactions ?? []) {
      if (tx.from !== account) continue;
      const receipt = await provider.getTransactionReceipt(tx.hash);
      if (receipt?.status === 0) reverted += 1;
    }
  }
  return reverted;
}

/** The chain node's process: the one whose command line serves `port` (the bench's node, started by the test stack). */
function listeningNodePid(port: number): number | undefined {
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const args = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      const at = args.indexOf("--port");
      if (at >= 0 && args[at + 1] === String(port)) return Number(entry);
    } catch {
      // The process ended meanwhile.
    }
  }
  return undefined;
}

/** /proc/<pid>/stat's user + system time, in seconds (Linux's clock ticks are hundredths). */
function processCpuSeconds(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}
