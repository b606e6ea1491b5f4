import { Wallet } from "ethers";
import { LOCAL_DEV_KEYS, SECOND_LOCAL_CHAIN_ID } from "@raffle/chain";
import { buyTicket } from "@raffle/chain/testing";
import { TcpGate, eventually, freePort } from "@raffle/testing";

import type { HealthReport } from "../src/health-server";
import { WorkerStack } from "./support/stack";

const EVERY_2_SECONDS = "*/2 * * * * *";
const FIRST = 31337;
const SECOND = SECOND_LOCAL_CHAIN_ID;
const MERCHANT = new Wallet(LOCAL_DEV_KEYS.demoMerchant).address;

async function health(port: number | undefined): Promise<HealthReport> {
  return (await (await fetch(`http://127.0.0.1:${port}/health`)).json()) as HealthReport;
}

describe(`merchant worker on two ${process.env.TEST_NODE ?? "hardhat"} chains`, () => {
  describe("with the API serving both chains (CHAIN_IDS=31337,31338)", () => {
    let stack: WorkerStack;
    let apiKey: string;

    beforeAll(async () => {
      stack = await WorkerStack.start("worker_two_chains", { defaultSchedule: EVERY_2_SECONDS, chainIds: [FIRST, SECOND] });
      apiKey = await stack.apiKey(MERCHANT);
    });

    afterAll(async () => {
      await stack?.close();
    });

    it("rotates a raffle on each chain, each with its own nonces, and --once reaches the raffle on every chain that has it", async () => {
      // The merchant's nonce differs between the chains, so a nonce count shared across chains would show.
      const secondWorld = stack.chain(SECOND).world;
      for (let i = 0; i < 3; i += 1) await (await secondWorld.merchant.sendTransaction({ to: MERCHANT, value: 0n })).wait();
      const first = await stack.deployListedRaffle(apiKey, undefined, FIRST);
      const second = await stack.deployListedRaffle(apiKey, undefined, SECOND);
      // The factory has one address on every chain, so its first raffle does too: the same address on both chains.
      expect(second.raffle).toBe(first.raffle);
      const address = first.raffle;
      await buyTicket(secondWorld, second, secondWorld.players[0]);
      const fromBlock = new Map<number, number>();
      const startNonce = new Map<number, number>();
      for (const chain of stack.chains) {
        fromBlock.set(chain.chainId, (await chain.node.provider.getBlockNumber()) + 1);
        startNonce.set(chain.chainId, await chain.node.provider.getTransactionCount(MERCHANT, "latest"));
      }
      expect(startNonce.get(SECOND)).toBeGreaterThan(startNonce.get(FIRST)!);

      const running = await stack.worker({ API_KEY: apiKey, MERCHANT_PRIVATE_KEY: LOCAL_DEV_KEYS.demoMerchant }, { health: true });
      expect(running.config.chains.map((chain) => chain.rpcUrlSetting)).toEqual(["CHAIN_31337_RPC_URL", "CHAIN_31338_RPC_URL"]);
      await running.worker.start();
      await eventually(async () => {
        expect(await stack.currentRoundId(address, FIRST)).toBeGreaterThanOrEqual(3n);
        expect(await stack.currentRoundId(address, SECOND)).toBeGreaterThanOrEqual(3n);
      }, 40_000);
      const report = await health(running.healthPort);
      await running.close();

      expect(report.status).toBe("ok");
      expect(report.chains.map((chain) => [chain.chainId, chain.state, chain.reachable, chain.raffles])).toEqual([
        [FIRST, "running", true, 1],
        [SECOND, "running", true, 1],
      ]);
      expect(report.raffles.map((record) => [record.chainId, record.contract]).sort()).toEqual([
        [FIRST, address],
        [SECOND, address],
      ]);
      for (const chain of stack.chains) {
        const events = await stack.roundEvents(address, chain.chainId);
        const lastRound = await stack.currentRoundId(address, chain.chainId);
        for (let round = 1n; round <= lastRound; round += 1n) expect(events.started.get(round)).toBe(1);
        for (let round = 1n; round < lastRound; round += 1n) expect(events.ended.get(round)).toBe(1);
        // The worker's transactions on this chain use this chain's nonces, one after the other, none refused.
        const receipts = await stack.receiptsFrom(MERCHANT, fromBlock.get(chain.chainId)!, chain.chainId);
        const nonces = await Promise.all(receipts.map(async (receipt) => (await chain.node.provider.getTransaction(receipt.hash))!.nonce));
        expect(nonces).toEqual(nonces.map((_nonce, index) => startNonce.get(chain.chainId)! + index));
        expect(receipts.every((receipt) => receipt.status === 1)).toBe(true);
        const started = running.logs.lines.filter((line) => line.message === "round started" && line.chainId === chain.chainId);
        expect(started.length).toBe(Number(lastRound) - 1);
      }
      // The second chain's round 1 had a ticket: it was drawn on that chain only.
      expect((await stack.raffle(address, SECOND).getRound(1n)).winningTicketId).not.toBe(0n);
      expect(running.logs.lines.filter((line) => line.level === "error" || line.level === "warn")).toEqual([]);
      expect(running.logs.lines.filter((line) => line.contract !== undefined && line.chainId === undefined)).toEqual([]);

      // --once --contract without --chain: the address is rotated on both chains; with --chain, on that one only.
      const before = [await stack.currentRoundId(address, FIRST), await stack.currentRoundId(address, SECOND)];
      const once = await stack.worker({ API_KEY: apiKey, MERCHANT_PRIVATE_KEY: LOCAL_DEV_KEYS.demoMerchant });
      expect(await once.worker.runOnce(address)).toBe(true);
      expect([await stack.currentRoundId(address, FIRST), await stack.currentRoundId(address, SECOND)]).toEqual([before[0] + 1n, before[1] + 1n]);
      expect(await once.worker.runOnce(address, SECOND)).toBe(true);
      expect([await stack.currentRoundId(address, FIRST), await stack.currentRoundId(address, SECOND)]).toEqual([before[0] + 1n, before[1] + 2n]);
      await once.close();
    });

    it("starts and rotates one chain while the other chain's node is down, and picks that chain up once its node answers", async () => {
      const first = await stack.deployListedRaffle(apiKey, undefined, FIRST);
      const second = await stack.deployListedRaffle(apiKey, undefined, SECOND);
      const secondNode = stack.chain(SECOND).node;
      // The second chain's node, as the worker sees it: refusing connections until the gate opens.
      const gate = new TcpGate({ host: "127.0.0.1", port: secondNode.port }, await freePort());
      try {
        const running = await stack.worker(
          {
            API_KEY: apiKey,
            MERCHANT_PRIVATE_KEY: LOCAL_DEV_KEYS.demoMerchant,
            CHAIN_IDS: `${FIRST},${SECOND}`,
            CHAIN_31337_RPC_URL: stack.chain(FIRST).node.rpcUrl,
            // A provider-style URL that holds a key (in the query: anvil serves the root path only): it must never
            // reach a log line or /health.
            CHAIN_31338_RPC_URL: `${gate.rpcUrl}/?apiKey=secret-provider-key`,
            // Short retries, so the node is picked up soon after it comes up.
            API_RETRY_MAX_DELAY_SECONDS: "2",
          },
          { health: true },
        );
        const startedAt = Date.now();
        await running.worker.start();
        // Not held by the chain that is down (its node would keep it waiting for good), even on a loaded machine.
        expect(Date.now() - startedAt).toBeLessThan(20_000);

        await eventually(async () => expect(await stack.currentRoundId(first.raffle, FIRST)).toBeGreaterThanOrEqual(3n), 30_000);
        const down = await health(running.healthPort);
        expect(await stack.currentRoundId(second.raffle, SECOND)).toBe(1n);
        expect(down.status).toBe("unavailable");
        expect(down.chains.map((chain) => [chain.chainId, chain.state, chain.reachable])).toEqual([
          [FIRST, "running", true],
          [SECOND, "connecting", false],
        ]);
        // Each chain lists this test's raffle and the previous test's.
        expect(down.chains[0]).toMatchObject({ raffles: 2, lastRotation: { status: "rotated" } });
        expect(down.chains[1].lastError?.message).toMatch(/ECONNREFUSED|connect|fetch failed/i);

        // The node answers again: the worker reaches it without a restart and rotates that chain's raffle too.
        await gate.open();
        await eventually(async () => expect(await stack.currentRoundId(second.raffle, SECOND)).toBeGreaterThanOrEqual(3n), 40_000);
        const back = await eventually(
          async () => {
            const report = await health(running.healthPort);
            expect(report.status).toBe("ok");
            return report;
          },
          15_000,
          250,
        );
        await running.close();

        expect(back.chains.map((chain) => [chain.chainId, chain.state, chain.reachable, chain.raffles])).toEqual([
          [FIRST, "running", true, 2],
          [SECOND, "running", true, 2],
        ]);
        const lines = running.logs.lines;
        const retries = lines.filter((line) => line.message === `reaching the chain's node at CHAIN_${SECOND}_RPC_URL failed; retrying`);
        expect(retries.length).toBeGreaterThan(0);
        expect(retries.every((line) => line.chainId === SECOND)).toBe(true);
        expect(lines.filter((line) => line.contract !== undefined && line.chainId === undefined)).toEqual([]);
        expect(JSON.stringify(lines) + JSON.stringify(down) + JSON.stringify(back)).not.toContain("secret-provider-key");
        for (const [address, chainId] of [
          [first.raffle, FIRST],
          [second.raffle, SECOND],
        ] as const) {
          const events = await stack.roundEvents(address, chainId);
          const lastRound = await stack.currentRoundId(address, chainId);
          for (let round = 1n; round <= lastRound; round += 1n) expect(events.started.get(round)).toBe(1);
          for (let round = 1n; round < lastRound; round += 1n) expect(events.ended.get(round)).toBe(1);
        }
      } finally {
        await gate.cut();
      }
    });
  });
});
