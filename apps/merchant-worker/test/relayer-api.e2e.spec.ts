import { spawn, type ChildProcess } from "node:child_process";
import { Client } from "pg";
import { Wallet, parseUnits, type HDNodeWallet } from "ethers";
import { Exchange__factory, LOCAL_DEV_KEYS, RaffleTicket__factory, TestToken__factory } from "@raffle/chain";
import type { TestRaffle } from "@raffle/chain/testing";
import { RaffleApi, type GaslessRequest } from "@raffle/sdk";
import { eventually } from "@raffle/testing";
import { COMPILED, requireCompiled } from "@raffle/test-stack";

import type { HealthReport } from "../src/health-server";
import { hardhatAccountKey } from "./support/accounts";
import { ROOT, WorkerStack } from "./support/stack";

/** Rounds never rotate during these tests: a rotation would close the round the purchases are for. */
const NEVER = "0 0 0 1 1 *";

/**
 * The relayer end to end: the real API's mailbox (PostgreSQL), the merchant worker (in process, or compiled and
 * SIGKILLed), and a local chain. Players hold only the price token; the merchant's worker pays the gas.
 */
describe(`the relayer with the real API on a ${process.env.TEST_NODE ?? "hardhat"} chain`, () => {
  let stack: WorkerStack;
  let apiKey: string;
  let api: RaffleApi;
  let raffle: TestRaffle;
  let contractId: number;

  beforeAll(async () => {
    stack = await WorkerStack.start("relayer", { defaultSchedule: NEVER });
    apiKey = await stack.apiKey(await stack.world.merchant.getAddress());
    api = new RaffleApi({ baseUrl: stack.apiUrl, apiKey });
    raffle = await stack.deployListedRaffle(apiKey);
    const rows = await api.listAllRaffleContracts(stack.world.deployment.chainId);
    contractId = rows.find((row) => row.address.toLowerCase() === raffle.raffle.toLowerCase())!.id;
    await api.setGaslessSettings({ enabled: true, dailyGasBudgetWei: parseUnits("100", 18).toString(), perPlayerDailyLimit: 50 });
  });

  afterAll(async () => {
    await stack?.close();
  });

  const relayerEnv = (relayerId: string, extra: Record<string, string> = {}) => ({
    API_KEY: apiKey,
    MERCHANT_PRIVATE_KEY: LOCAL_DEV_KEYS.demoMerchant,
    EXCHANGE_ADDRESS: stack.world.deployment.exchange,
    RELAYER_ID: relayerId,
    RELAYER_POLL_INTERVAL_MS: "100",
    ...extra,
  });

  async function tokenOnlyPlayer(): Promise<HDNodeWallet> {
    const player = Wallet.createRandom().connect(stack.node.provider);
    await (await TestToken__factory.connect(stack.world.token, stack.world.admin).mint(player.address, parseUnits("100", 18))).wait();
    return player;
  }

  /** `count` signed ERC-3009 purchases submitted as a game backend does (`POST /ticket/sign`, then the SDK's buyWithoutGas). */
  async function submitPurchases(count: number, quantity = 1): Promise<Array<{ player: HDNodeWallet; request: GaslessRequest }>> {
    const submitted = [];
    for (let i = 0; i < count; i += 1) {
      const player = await tokenOnlyPlayer();
      const voucher = await api.signTicket({ account: player.address, contractId, quantity });
      const request = await api.buyWithoutGas({
        voucher,
        contractId,
        exchange: stack.world.deployment.exchange,
        signer: player,
        method: "authorization",
      });
      submitted.push({ player, request });
    }
    return submitted;
  }

  async function allMined(ids: string[], timeoutMs = 60_000): Promise<GaslessRequest[]> {
    let rows: GaslessRequest[] = [];
    await eventually(async () => {
      rows = await Promise.all(ids.map((id) => api.getGaslessRequest(id)));
      const pending = rows.filter((row) => row.state !== "mined");
      if (pending.length > 0) throw new Error(`${pending.length} not mined yet (${pending.map((row) => row.state).join(", ")})`);
    }, timeoutMs);
    return rows;
  }

  /** Every transaction to the Exchange since `fromBlock`, by sender. */
  async function exchangeTxs(fromBlock: number): Promise<Array<{ from: string; nonce: number; hash: string; status: number }>> {
    const provider = stack.node.provider;
    const head = await provider.getBlockNumber();
    const txs = [];
    for (let number = fromBlock; number <= head; number += 1) {
      const block = await provider.getBlock(number, true);
      for (const tx of block!.prefetchedTransactions) {
        if (tx.to?.toLowerCase() !== stack.world.deployment.exchange.toLowerCase()) continue;
        const receipt = await provider.getTransactionReceipt(tx.hash);
        txs.push({ from: tx.from, nonce: tx.nonce, hash: tx.hash, status: receipt!.status! });
      }
    }
    return txs;
  }

  function expectNoGaps(nonces: number[]): void {
    const sorted = [...nonces].sort((a, b) => a - b);
    expect(sorted).toEqual(sorted.map((_, index) => sorted[0] + index));
  }

  it("relays signed purchases to tickets, the merchant paying the gas; /health and /metrics show the relayer", async () => {
    const fromBlock = (await stack.node.provider.getBlockNumber()) + 1;
    const running = await stack.worker(relayerEnv("relayer-main"), { health: true });
    await running.worker.start();
    const submitted = await submitPurchases(5, 2);
    const rows = await allMined(submitted.map((entry) => entry.request.id));

    const ticket = RaffleTicket__factory.connect(raffle.ticket, stack.node.provider);
    for (const [index, row] of rows.entries()) {
      expect(row.ticketIds).toHaveLength(2);
      expect(await ticket.balanceOf(submitted[index].player.address)).toBe(2n);
      expect(await stack.node.provider.getBalance(submitted[index].player.address)).toBe(0n);
    }
    const txs = await exchangeTxs(fromBlock);
    expect(txs).toHaveLength(5);
    expect(new Set(txs.map((tx) => tx.from))).toEqual(new Set([await stack.world.merchant.getAddress()]));
    expect(txs.every((tx) => tx.status === 1)).toBe(true);

    const health = (await (await fetch(`http://127.0.0.1:${running.healthPort}/health`)).json()) as HealthReport;
    expect(health.chains[0].relayer).toMatchObject({
      relayerId: "relayer-main",
      inFlight: 0,
      lastClaim: { ok: true },
      totals: { sent: 5, mined: 5 },
    });
    const metrics = await (await fetch(`http://127.0.0.1:${running.healthPort}/metrics`)).text();
    expect(metrics).toContain('raffle_worker_relay_jobs_mined_total{chainId="31337"} 5');
    const settings = await api.getGaslessSettings();
    expect(BigInt(settings.spentTodayWei)).toBeGreaterThan(0n);
    expect(settings.relayerLastSeenAt).not.toBeNull();
    await running.close();
  });

  it("reports a purchase whose authorization was already used elsewhere as failed with the contract's error", async () => {
    const [{ request }] = await submitPurchases(1);
    // Someone submits the signed purchase first, straight from the API's job (a relayer of another merchant cannot, but any account may).
    const jobs = await api.claimRelayJobs({ chainId: stack.world.deployment.chainId, relayerId: "front-runner" });
    const job = jobs.find((entry) => entry.id === request.id)!;
    const outsider = new Wallet(hardhatAccountKey(9), stack.node.provider);
    await (await outsider.sendTransaction({ to: job.to, data: job.data })).wait();
    // That claim leased it for 120 s: let the lease lapse now, as if the claimer had died.
    const db = new Client({ connectionString: stack.database.url });
    await db.connect();
    await db.query("UPDATE gasless_request SET lease_expires_at = now() WHERE id = $1", [request.id]).finally(() => db.end());

    const running = await stack.worker(relayerEnv("relayer-main"));
    await running.worker.start();
    await eventually(async () => expect((await api.getGaslessRequest(request.id)).state).toBe("failed"), 30_000);
    const failed = await api.getGaslessRequest(request.id);
    expect(failed.failureCode).toBe("nonceAlreadyUsed");
    expect(failed.failureReason).toEqual(expect.any(String));
    await running.close();
  });

  it("two replicas with their own ids and keys never submit the same purchase", async () => {
    const fromBlock = (await stack.node.provider.getBlockNumber()) + 1;
    const otherKey = hardhatAccountKey(12);
    const replicas = [
      await stack.worker(relayerEnv("replica-1", { RELAYER_MAX_IN_FLIGHT: "4" })),
      await stack.worker(relayerEnv("replica-2", { RELAYER_PRIVATE_KEY: otherKey, RELAYER_MAX_IN_FLIGHT: "4" })),
    ];
    await Promise.all(replicas.map((replica) => replica.worker.start()));
    const submitted = await submitPurchases(16);
    await allMined(submitted.map((entry) => entry.request.id));
    await Promise.all(replicas.map((replica) => replica.close()));

    const txs = await exchangeTxs(fromBlock);
    expect(txs).toHaveLength(16);
    expect(txs.every((tx) => tx.status === 1)).toBe(true);
    const senders = [await stack.world.merchant.getAddress(), new Wallet(otherKey).address];
    for (const sender of senders) {
      const own = txs.filter((tx) => tx.from === sender);
      expect(own.length).toBeGreaterThan(0);
      expectNoGaps(own.map((tx) => tx.nonce));
    }
  });

  it("a relayer SIGKILLed mid-run loses and repeats nothing: its successor resumes the pending transactions", async () => {
    const provider = stack.node.provider;
    const fromBlock = (await provider.getBlockNumber()) + 1;
    const relayerKey = hardhatAccountKey(13);
    const relayer = new Wallet(relayerKey).address;
    const env = relayerEnv("relayer-killed", { RELAYER_PRIVATE_KEY: relayerKey, TX_RECEIPT_TIMEOUT_SECONDS: "600" });
    const submitted = await submitPurchases(6);
    const ids = submitted.map((entry) => entry.request.id);
    const nonceBefore = await provider.getTransactionCount(relayer, "latest");

    // Transactions wait in the pool: the first worker sends them all and dies before any is mined.
    await provider.send("evm_setAutomine", [false]);
    let first: ChildProcess | undefined;
    try {
      first = startCompiledWorker(env);
      await eventually(async () => {
        const rows = await Promise.all(ids.map((id) => api.getGaslessRequest(id)));
        if (rows.some((row) => row.state !== "sent")) throw new Error("not all sent yet");
        if ((await provider.getTransactionCount(relayer, "pending")) - nonceBefore < ids.length) throw new Error("not all in the pool yet");
      }, 60_000);
      first.kill("SIGKILL");
      await new Promise((resolve) => first!.once("exit", resolve));
    } finally {
      await provider.send("evm_setAutomine", [true]);
    }

    const second = startCompiledWorker(env);
    try {
      await provider.send("evm_mine", []);
      await allMined(ids);
    } finally {
      second.kill("SIGTERM");
      await new Promise((resolve) => second.once("exit", resolve));
    }
    const txs = (await exchangeTxs(fromBlock)).filter((tx) => tx.from === relayer);
    expect(txs).toHaveLength(ids.length);
    expect(txs.every((tx) => tx.status === 1)).toBe(true);
    expectNoGaps(txs.map((tx) => tx.nonce));
    expect(await provider.getTransactionCount(relayer, "latest")).toBe(nonceBefore + ids.length);
    const exchange = Exchange__factory.connect(stack.world.deployment.exchange, provider);
    expect(await exchange.getAddress()).toBe(stack.world.deployment.exchange);
  });

  function startCompiledWorker(env: Record<string, string>): ChildProcess {
    const child = spawn(process.execPath, [requireCompiled(COMPILED.workerMain)], {
      cwd: ROOT,
      env: {
        ...process.env,
        ...stack.workerChainEnv(),
        API_URL: stack.apiUrl,
        HEALTH_PORT: "0",
        LOG_LEVEL: "warn",
        REFRESH_INTERVAL_SECONDS: "1",
        ...env,
      },
      stdio: ["ignore", "ignore", "inherit"],
    });
    return child;
  }
});
