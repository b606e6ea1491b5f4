import { spawn } from "node:child_process";
import { Wallet, parseUnits, type Signer } from "ethers";
import { LOCAL_DEV_KEYS, RoundStatus } from "@raffle/chain";
import { answerDrawWithoutWinners, buyTicket, buyTickets } from "@raffle/chain/testing";
import { eventually, freePort } from "@raffle/testing";
import { COMPILED } from "@raffle/test-stack";

import type { HealthReport } from "../src/health-server";
import type { RaffleRoundsPort } from "../src/rotation";
import { hardhatAccountKey } from "./support/accounts";
import { ROOT, WorkerStack, runCompiledWorker } from "./support/stack";

const EVERY_2_SECONDS = "*/2 * * * * *";

describe(`merchant worker against a ${process.env.TEST_NODE ?? "hardhat"} chain and the real API`, () => {
  let stack: WorkerStack;
  /** API key of the demo merchant (Hardhat account #2), owner of every raffle but the twin-instance one. */
  let merchantKey: string;

  beforeAll(async () => {
    stack = await WorkerStack.start("worker", { defaultSchedule: EVERY_2_SECONDS });
    merchantKey = await stack.apiKey(await stack.world.merchant.getAddress());
  });

  afterAll(async () => {
    await stack?.close();
  });

  const merchantEnv = () => ({ API_KEY: merchantKey, MERCHANT_PRIVATE_KEY: LOCAL_DEV_KEYS.demoMerchant });

  it("rotates a raffle on the schedule the API gives it: rounds 1 → 2 → 3, each ended exactly once", async () => {
    const raffle = await stack.deployListedRaffle(merchantKey);
    await buyTicket(stack.world, raffle, stack.world.players[0]);
    const running = await stack.worker(merchantEnv(), { health: true });
    await running.worker.start();

    await eventually(async () => expect(await stack.currentRoundId(raffle.raffle)).toBeGreaterThanOrEqual(3n), 30_000);
    await running.close();

    const events = await stack.roundEvents(raffle.raffle);
    const lastRound = await stack.currentRoundId(raffle.raffle);
    for (let round = 1n; round <= lastRound; round += 1n) expect(events.started.get(round)).toBe(1);
    for (let round = 1n; round < lastRound; round += 1n) expect(events.ended.get(round)).toBe(1);
    expect(events.ended.has(lastRound)).toBe(false);
    // Round 1 had one ticket: it won outright when the round ended.
    expect((await stack.raffle(raffle.raffle).getRound(1n)).winningTicketId).not.toBe(0n);

    const lines = running.logs.lines.filter((line) => line.contract === raffle.raffle);
    const started = lines.find((line) => line.message === "round started")!;
    expect(started).toMatchObject({ level: "info", chainId: 31337, contract: raffle.raffle, roundId: "1", newRoundId: "2" });
    expect(String(started.txHash)).toMatch(/^0x[0-9a-f]{64}$/);
    expect(typeof started.time).toBe("string");
    expect(running.logs.lines.filter((line) => line.level === "error" || line.level === "warn")).toEqual([]);
  });

  it("keeps a raffle's round rules across its rotations, and draws the winners a VRF callback left to finishDraw", async () => {
    const rules = {
      prizeShares: [5_000, 3_000, 2_000],
      minTickets: 3,
      maxTicketsPerWallet: 20,
      bundles: [{ quantity: 5, price: parseUnits("45", 18) }],
    };
    const raffle = await stack.deployListedRaffle(merchantKey, undefined, undefined, rules);
    await buyTickets(stack.world, raffle, stack.world.players[0], 5);
    await buyTicket(stack.world, raffle, stack.world.players[1]);
    const running = await stack.worker(merchantEnv());
    await running.worker.start();
    // The worker ends round 1 (6 tickets: a VRF draw) and starts round 2 with getCurrentRoundInfo's values alone.
    await eventually(async () => expect(await stack.currentRoundId(raffle.raffle)).toBeGreaterThanOrEqual(2n), 30_000);
    const chainRaffle = stack.raffle(raffle.raffle);
    expect(Number((await chainRaffle.getRound(1n)).status)).toBe(RoundStatus.Drawing);
    const fulfilment = await answerDrawWithoutWinners(stack.world, raffle, 1n);
    const fulfilled = (await stack.node.provider.getTransactionReceipt(fulfilment))!;
    const winnersDrawn = chainRaffle.interface.getEvent("WinnersDrawn").topicHash;
    expect(fulfilled.logs.some((log) => log.topics[0] === winnersDrawn)).toBe(false);

    // A later run finishes the draw: three winners, drawn by the merchant's key.
    await eventually(async () => expect(Number((await chainRaffle.getRound(1n)).status)).toBe(RoundStatus.Drawn), 30_000);
    expect(await chainRaffle.getWinners(1n)).toHaveLength(3);
    const [drawn] = await chainRaffle.queryFilter(chainRaffle.filters.WinnersDrawn(1n));
    expect((await drawn.getTransaction()).from).toBe(new Wallet(LOCAL_DEV_KEYS.demoMerchant).address);
    expect(running.logs.lines.some((line) => line.message === "winners drawn with finishDraw" && line.roundId === "1")).toBe(true);

    await eventually(async () => expect(await stack.currentRoundId(raffle.raffle)).toBeGreaterThanOrEqual(4n), 30_000);
    await running.close();
    const version = (await chainRaffle.getRound(1n)).rulesVersion;
    for (let round = 2n; round <= 4n; round += 1n) {
      expect((await chainRaffle.getRound(round)).rulesVersion).toBe(version);
      const applied = await chainRaffle.getRoundRules(round);
      expect(applied.prizeShares.map(Number)).toEqual([5_000, 3_000, 2_000]);
      expect([Number(applied.minTickets), Number(applied.maxTicketsPerWallet)]).toEqual([3, 20]);
      expect(applied.bundles.map((bundle) => [Number(bundle.quantity), bundle.price])).toEqual([[5, parseUnits("45", 18)]]);
    }
    expect((await chainRaffle.priceOf(5n)).amount).toBe(parseUnits("45", 18));
    expect(running.logs.lines.filter((line) => line.level === "error")).toEqual([]);
  });

  it("serves the last run of each raffle on /health", async () => {
    const raffle = await stack.deployListedRaffle(merchantKey);
    const running = await stack.worker(merchantEnv(), { health: true });
    await running.worker.start();
    const report = await eventually(async () => {
      const response = await fetch(`http://127.0.0.1:${running.healthPort}/health`);
      expect(response.status).toBe(200);
      const body = (await response.json()) as HealthReport;
      const record = body.raffles.find((entry) => entry.contract === raffle.raffle);
      expect(record?.status).toBe("rotated");
      return body;
    }, 15_000);
    await running.close();

    const record = report.raffles.find((entry) => entry.contract === raffle.raffle)!;
    expect(report).toMatchObject({
      status: "ok",
      merchant: new Wallet(LOCAL_DEV_KEYS.demoMerchant).address,
      chains: [{ chainId: 31337, state: "running", reachable: true, lastRefresh: { ok: true }, lastRotation: { status: "rotated" } }],
    });
    expect(record.chainId).toBe(31337);
    expect(record).toMatchObject({ schedule: EVERY_2_SECONDS, roundId: "1", newRoundId: "2" });
    expect(record.txHashes).toHaveLength(2);
    expect(Date.parse(record.time)).not.toBeNaN();
    // Two raffles rotated at the same ticks from one wallet: no nonce trouble, no failure.
    expect(running.logs.lines.filter((line) => line.level === "error" || line.level === "warn")).toEqual([]);
    // Closing the worker closes its endpoint.
    await expect(fetch(`http://127.0.0.1:${running.healthPort}/health`)).rejects.toThrow("fetch failed");
  });

  it("finishes a rotation that crashed after endRound's receipt: no second endRound, no revert", async () => {
    const raffle = await stack.deployListedRaffle(merchantKey);
    const fromBlock = (await stack.node.provider.getBlockNumber()) + 1;
    const crashing = await stack.worker(merchantEnv(), {
      hooks: {
        afterEndRound: () => {
          throw new Error("injected crash after endRound");
        },
      },
    });
    expect(await crashing.worker.runOnce(raffle.raffle)).toBe(false);
    const failed = crashing.worker.lastRun(31337, raffle.raffle)!;
    expect(failed).toMatchObject({ status: "failed", error: "injected crash after endRound" });
    expect(failed.txHashes).toHaveLength(1);
    await crashing.close();

    let info = await stack.raffle(raffle.raffle).getCurrentRoundInfo();
    expect(info.roundId).toBe(1n);
    expect(info.endTimestamp).not.toBe(0n);

    const restarted = await stack.worker(merchantEnv());
    expect(await restarted.worker.runOnce(raffle.raffle)).toBe(true);
    expect(restarted.worker.lastRun(31337, raffle.raffle)).toMatchObject({ status: "rotated", roundId: "1", newRoundId: "2" });
    expect(restarted.worker.lastRun(31337, raffle.raffle)!.txHashes).toHaveLength(1);
    await restarted.close();

    info = await stack.raffle(raffle.raffle).getCurrentRoundInfo();
    expect(info.roundId).toBe(2n);
    expect(info.endTimestamp).toBe(0n);
    const events = await stack.roundEvents(raffle.raffle);
    expect(events.ended.get(1n)).toBe(1);
    expect(events.started.get(2n)).toBe(1);
    const receipts = await stack.receiptsFrom(new Wallet(LOCAL_DEV_KEYS.demoMerchant).address, fromBlock);
    expect(receipts).toHaveLength(2);
    expect(receipts.every((receipt) => receipt.status === 1)).toBe(true);
  });

  it("rotates each round once when two worker instances of one merchant run together", async () => {
    // A merchant of its own, so the two instances see this raffle only.
    const twinKey = hardhatAccountKey(4);
    const twinMerchant: Signer = new Wallet(twinKey, stack.node.provider);
    await stack.allowMerchant(twinMerchant);
    const apiKey = await stack.apiKey(await twinMerchant.getAddress());
    const raffle = await stack.deployListedRaffle(apiKey, twinMerchant);

    const env = { API_KEY: apiKey, MERCHANT_PRIVATE_KEY: twinKey };
    const [first, second] = await Promise.all([stack.worker(env), stack.worker(env)]);
    const startedAt = Date.now();
    await Promise.all([first.worker.start(), second.worker.start()]);
    await eventually(async () => expect(await stack.currentRoundId(raffle.raffle)).toBeGreaterThanOrEqual(4n), 30_000);
    await Promise.all([first.close(), second.close()]);
    const elapsedTicks = Math.ceil((Date.now() - startedAt) / 2_000) + 1;

    const events = await stack.roundEvents(raffle.raffle);
    const lastRound = await stack.currentRoundId(raffle.raffle);
    for (let round = 1n; round <= lastRound; round += 1n) expect(events.started.get(round)).toBe(1);
    for (let round = 1n; round < lastRound; round += 1n) expect(events.ended.get(round)).toBe(1);
    // At most one rotation per tick of the schedule, whichever instance made it.
    expect(Number(lastRound) - 1).toBeLessThanOrEqual(elapsedTicks);
    // Every rotation is claimed by exactly one instance: no run rotated a round the other had rotated.
    const claimed = (message: string) =>
      [...first.logs.lines, ...second.logs.lines].filter((line) => line.message === message && line.contract === raffle.raffle).length;
    expect(claimed("round started")).toBe(Number(lastRound) - 1);
    expect(claimed("round ended")).toBe(Number(lastRound) - 1);
  });

  it("reports a raffle whose round manager is another key, and stops trying", async () => {
    const raffle = await stack.deployListedRaffle(merchantKey);
    const strangerKey = hardhatAccountKey(3);
    const stranger = new Wallet(strangerKey).address;
    const simulations = new Map<string, number>();
    const countSimulations = (port: RaffleRoundsPort): RaffleRoundsPort => {
      const count = () => simulations.set(port.address, (simulations.get(port.address) ?? 0) + 1);
      return {
        address: port.address,
        readRound: () => port.readRound(),
        simulateEndRound: () => (count(), port.simulateEndRound()),
        endRound: () => port.endRound(),
        simulateStartRound: (round) => (count(), port.simulateStartRound(round)),
        startRound: (round) => port.startRound(round),
        roundsAwaitingWinners: (roundIds) => port.roundsAwaitingWinners(roundIds),
        simulateFinishDraw: (roundId) => port.simulateFinishDraw(roundId),
        finishDraw: (roundId) => port.finishDraw(roundId),
      };
    };
    const running = await stack.worker(
      { API_KEY: merchantKey, MERCHANT_PRIVATE_KEY: strangerKey, PERMANENT_FAILURE_RETRY_REFRESHES: "1000" },
      { health: true, decoratePort: countSimulations },
    );
    await running.worker.start();
    const firstFailure = await eventually(async () => {
      const record = running.worker.lastRun(31337, raffle.raffle);
      expect(record?.status).toBe("failedPermanently");
      return record!;
    }, 15_000);
    expect(firstFailure.error).toBe(`merchant key ${stranger} lacks ROUND_MANAGER_ROLE on raffle ${raffle.raffle}`);
    // Several more ticks (and list refreshes) pass without another attempt.
    await eventually(async () => expect(running.worker.lastRun(31337, raffle.raffle)!.skippedTicks).toBeGreaterThanOrEqual(3), 15_000);
    const report = (await (await fetch(`http://127.0.0.1:${running.healthPort}/health`)).json()) as HealthReport;
    await running.close();

    expect(simulations.get(raffle.raffle)).toBe(1);
    expect(report.status).toBe("degraded");
    expect(report.raffles.find((entry) => entry.contract === raffle.raffle)).toMatchObject({
      status: "failedPermanently",
      errorCode: "missingRole",
      runs: 1,
      error: `merchant key ${stranger} lacks ROUND_MANAGER_ROLE on raffle ${raffle.raffle}`,
    });
    const reports = running.logs.lines.filter((line) => line.level === "error" && line.contract === raffle.raffle);
    expect(reports).toHaveLength(1);
    expect(await stack.currentRoundId(raffle.raffle)).toBe(1n);
  });

  it("runs as a daemon from its compiled main: serves /health on HEALTH_PORT and stops on SIGTERM", async () => {
    const raffle = await stack.deployListedRaffle(merchantKey);
    const healthPort = await freePort();
    const daemon = spawn(process.execPath, [COMPILED.workerMain], {
      cwd: ROOT,
      env: {
        ...process.env,
        API_URL: stack.apiUrl,
        API_KEY: merchantKey,
        CHAIN_ID: "31337",
        RPC_URL: stack.node.rpcUrl,
        MERCHANT_PRIVATE_KEY: LOCAL_DEV_KEYS.demoMerchant,
        HEALTH_PORT: String(healthPort),
        LOG_LEVEL: "info",
      },
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    daemon.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    daemon.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => daemon.once("exit", (code) => resolve(code)));
    try {
      const report = await eventually(
        async () => {
          const body = (await (await fetch(`http://127.0.0.1:${healthPort}/health`)).json()) as HealthReport;
          expect(body.raffles.find((entry) => entry.contract === raffle.raffle)?.status).toBe("rotated");
          return body;
        },
        30_000,
        250,
      );
      expect(report.merchant).toBe(new Wallet(LOCAL_DEV_KEYS.demoMerchant).address);
      daemon.kill("SIGTERM");
      expect(await exited).toBe(0);
    } finally {
      if (daemon.exitCode === null && daemon.pid) process.kill(-daemon.pid, "SIGKILL");
    }
    const messages = output
      .trim()
      .split("\n")
      .map((line) => (JSON.parse(line) as { message: string }).message);
    expect(messages).toEqual(expect.arrayContaining(["health endpoint listening", "merchant worker started", "round started", "stopping"]));
    expect(output.toLowerCase()).not.toContain(LOCAL_DEV_KEYS.demoMerchant.slice(2));
  });

  it("`--once` rotates and exits 0; with a key lacking the role it exits 1; the key never reaches the output", async () => {
    const raffle = await stack.deployListedRaffle(merchantKey);
    const env = {
      API_URL: stack.apiUrl,
      CHAIN_ID: "31337",
      RPC_URL: stack.node.rpcUrl,
      API_KEY: merchantKey,
      LOG_LEVEL: "debug",
    };
    const strangerKey = hardhatAccountKey(3);
    const [ok, refused] = await Promise.all([
      runCompiledWorker(["--once", "--contract", raffle.raffle], { ...env, MERCHANT_PRIVATE_KEY: LOCAL_DEV_KEYS.demoMerchant }),
      runCompiledWorker(["--once", "--contract", raffle.raffle], { ...env, MERCHANT_PRIVATE_KEY: strangerKey }),
    ]);
    expect({ code: ok.code, stderr: ok.stderr }).toEqual({ code: 0, stderr: "" });
    expect(refused.code).toBe(1);
    expect(await stack.currentRoundId(raffle.raffle)).toBe(2n);

    const lines = ok.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.find((line) => line.message === "round started")).toMatchObject({ contract: raffle.raffle, roundId: "1", newRoundId: "2" });
    const refusal = refused.stdout.split("\n").find((line) => line.includes("lacks ROUND_MANAGER_ROLE"));
    expect(refusal).toContain(`merchant key ${new Wallet(strangerKey).address} lacks ROUND_MANAGER_ROLE on raffle ${raffle.raffle}`);
    for (const output of [ok.stdout + ok.stderr, refused.stdout + refused.stderr]) {
      expect(output.toLowerCase()).not.toContain(LOCAL_DEV_KEYS.demoMerchant.slice(2));
      expect(output.toLowerCase()).not.toContain(strangerKey.slice(2));
    }
  });
});
