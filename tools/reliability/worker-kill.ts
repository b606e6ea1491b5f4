/**
 * Reliability fault: the merchant worker SIGKILLed in the middle of a rotation (`endRound`, then `startRound`; the
 * worker never waits for the VRF draw, which the coordinator answers on its own), then run again: the next run must
 * complete the rotation, with no round ended twice, none started twice, none skipped, and no transaction stuck.
 *
 * Each cycle runs `main.ts --once` as a real child process while the node does not mine on its own
 * (`evm_setAutomine false`). The worker reaches the node through an RPC gate that acts at the exact moment a
 * transaction is sent: it mines, or SIGKILLs the worker, or both, so each kill point is hit every time rather than
 * by timing. After the kill the node either loses what was still in its pool (`hardhat_dropTransaction`, as a node
 * restart does) or mines it (as a live chain does), automine comes back on, and a second `--once` run must finish.
 */
import { buyTicket, type HardhatNode } from "@raffle/chain/testing";

import { printResult } from "./result";
import { RpcGate, type GateHooks, type GatedTransaction } from "./rpc-gate";
import {
  MERCHANT,
  cleanUpOnSignals,
  currentRound,
  killAllWorkers,
  merchantNonces,
  merchantTransactions,
  nodeRpc,
  roundEvents,
  roundsProblem,
  say,
  spawnWorker,
  startWorkerWorld,
  type Row,
  type WorkerChild,
} from "./worker-harness";

const CYCLES = Number(process.env.WORKER_KILL_CYCLES ?? 10);

interface KillPoint {
  name: string;
  /** Hooks of the gate for the killed run; `kill` SIGKILLs that run's worker and waits until it is gone. */
  hooks(kill: () => Promise<void>, mine: () => Promise<void>): GateHooks;
  /** What the node does with the merchant's transactions still in its pool after the kill. */
  afterKill: "drop" | "mine";
  /** Calls in the pool right after the kill; the round state after `afterKill`, relative to round N of the cycle. */
  poolAtKill: string[];
  stateAfter: { round: 0 | 1; active: boolean };
  /** Calls the next run must send, and the round active at its end. */
  rerunSends: string[];
  finalRound: 1 | 2;
}

const KILL_POINTS: KillPoint[] = [
  {
    name: "endRound sent, not mined; the node loses it",
    hooks: (kill) => ({ after: (tx) => (tx.call === "endRound" ? kill() : undefined) }),
    afterKill: "drop",
    poolAtKill: ["endRound"],
    stateAfter: { round: 0, active: true },
    rerunSends: ["endRound", "startRound"],
    finalRound: 1,
  },
  {
    name: "endRound sent, not mined; mined after the kill",
    hooks: (kill) => ({ after: (tx) => (tx.call === "endRound" ? kill() : undefined) }),
    afterKill: "mine",
    poolAtKill: ["endRound"],
    stateAfter: { round: 0, active: false },
    rerunSends: ["startRound"],
    finalRound: 1,
  },
  {
    // The case of the issue: endRound's receipt seen ("round ended" logged), killed as it sends startRound.
    name: "endRound mined and seen; killed as startRound is sent (never reaches the node)",
    hooks: (kill, mine) => ({
      after: (tx) => (tx.call === "endRound" ? mine() : undefined),
      before: async (tx) => {
        if (tx.call !== "startRound") return true;
        await kill();
        return false;
      },
    }),
    afterKill: "drop",
    poolAtKill: [],
    stateAfter: { round: 0, active: false },
    rerunSends: ["startRound"],
    finalRound: 1,
  },
  {
    name: "startRound sent, not mined; the node loses it",
    hooks: (kill, mine) => ({ after: (tx) => (tx.call === "endRound" ? mine() : tx.call === "startRound" ? kill() : undefined) }),
    afterKill: "drop",
    poolAtKill: ["startRound"],
    stateAfter: { round: 0, active: false },
    rerunSends: ["startRound"],
    finalRound: 1,
  },
  {
    // The rotation completed on chain after the crash: the next --once run simply rotates the new round.
    name: "startRound sent, not mined; mined after the kill",
    hooks: (kill, mine) => ({ after: (tx) => (tx.call === "endRound" ? mine() : tx.call === "startRound" ? kill() : undefined) }),
    afterKill: "mine",
    poolAtKill: ["startRound"],
    stateAfter: { round: 1, active: true },
    rerunSends: ["endRound", "startRound"],
    finalRound: 2,
  },
];

/** Raffle calls of the merchant's transactions in the node's pool. */
async function pooled(node: HardhatNode, gate: RpcGate): Promise<Array<{ hash: string; call: string }>> {
  const pending = await nodeRpc<Array<{ hash: string; from: string }>>(node, "eth_pendingTransactions");
  return pending
    .filter((tx) => tx.from.toLowerCase() === MERCHANT.toLowerCase())
    .map((tx) => ({ hash: tx.hash, call: gate.seen.find((seen) => seen.hash === tx.hash)?.call ?? "?" }));
}

const sentCalls = (worker: WorkerChild) => worker.lines.filter((line) => line.message === "transaction sent").map((line) => String(line.call));

async function main(): Promise<void> {
  const world = await startWorkerWorld("worker_kill", "0 0 * * *");
  const gate = new RpcGate(world.node.rpcUrl);
  const gateUrl = `http://127.0.0.1:${await gate.listen()}`;
  const cleanup = async () => {
    await killAllWorkers();
    await nodeRpc(world.node, "evm_setAutomine", [true]).catch(() => undefined);
    await gate.close();
    await world.close();
  };
  cleanUpOnSignals(cleanup);
  const cycles: Array<Record<string, string | number | boolean>> = [];
  const invariants: Row[] = [];
  const firstBlock = (await world.node.provider.getBlockNumber()) + 1;
  try {
    for (let cycle = 1; cycle <= CYCLES; cycle += 1) {
      const point = KILL_POINTS[(cycle - 1) % KILL_POINTS.length];
      // 0 tickets close the round, 1 wins outright, 2 ask the VRF coordinator: every path of endRound.
      const tickets = (cycle - 1) % 3;
      for (let i = 0; i < tickets; i += 1) await buyTicket(world.world, world.raffle, world.world.players[i], BigInt(cycle));
      const start = await currentRound(world.node, world.raffle.raffle);
      const problems: string[] = [];

      await nodeRpc(world.node, "evm_setAutomine", [false]);
      let killed: WorkerChild | undefined;
      let killedAt: GatedTransaction | undefined;
      const kill = async () => {
        killedAt = gate.seen[gate.seen.length - 1];
        await killed!.kill("SIGKILL");
      };
      const mine = async () => {
        await nodeRpc(world.node, "evm_mine");
      };
      gate.hooks = point.hooks(kill, mine);
      killed = spawnWorker(world, gateUrl, ["--once", "--contract", world.raffle.raffle]);
      const exit = await Promise.race([killed.closed, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 90_000))]);
      gate.hooks = {};
      if (exit?.signal !== "SIGKILL") {
        problems.push(`killed run: ${exit ? `exited ${exit.code} without being killed` : "not killed within 90 s"} ${killed.other().slice(-300)}`);
        await killed.kill("SIGKILL");
      }
      if (point.name.includes("seen") && !killed.lines.some((line) => line.message === "round ended"))
        problems.push("killed before it logged 'round ended'");

      const pool = await pooled(world.node, gate);
      if (pool.map((tx) => tx.call).join() !== point.poolAtKill.join()) problems.push(`pool at kill: [${pool.map((tx) => tx.call)}]`);
      if (point.afterKill === "drop") for (const tx of pool) await nodeRpc(world.node, "hardhat_dropTransaction", [tx.hash]);
      else await mine();
      await nodeRpc(world.node, "evm_setAutomine", [true]);
      const between = await currentRound(world.node, world.raffle.raffle);
      const expectedBetween = { id: start.id + point.stateAfter.round, active: point.stateAfter.active };
      if (between.id !== expectedBetween.id || between.active !== expectedBetween.active) problems.push(`after the kill: ${JSON.stringify(between)}`);

      const rerun = spawnWorker(world, gateUrl, ["--once", "--contract", world.raffle.raffle]);
      const rerunExit = await rerun.closed;
      if (rerunExit.code !== 0) problems.push(`next run exited ${rerunExit.code}: ${rerun.other().slice(-300)}`);
      if (sentCalls(rerun).join() !== point.rerunSends.join()) problems.push(`next run sent [${sentCalls(rerun)}]`);
      const end = await currentRound(world.node, world.raffle.raffle);
      if (end.id !== start.id + point.finalRound || !end.active) problems.push(`at the end: ${JSON.stringify(end)}`);
      const { latest, pending } = await merchantNonces(world.node);
      if (latest !== pending) problems.push(`nonces: latest ${latest}, pending ${pending}`);

      cycles.push({
        cycle,
        "kill point": point.name,
        tickets,
        "killed at": killedAt ? `${killedAt.call} nonce ${killedAt.nonce}` : "-",
        "after kill": `pool ${pool.length === 0 ? "empty" : `[${pool.map((tx) => tx.call)}] ${point.afterKill === "drop" ? "dropped" : "mined"}`}; round ${between.id} ${between.active ? "active" : "ended"}`,
        "next run": `exit ${rerunExit.code}, sent [${sentCalls(rerun)}]`,
        round: `${start.id} → ${end.id}`,
        ok: problems.length === 0,
      });
      if (problems.length > 0) say(`cycle ${cycle} (${point.name}): ${problems.join("; ")}`);
    }

    const events = await roundEvents(world.node, world.raffle.raffle);
    const problem = roundsProblem(events);
    const last = Math.max(...events.started.keys());
    invariants.push({
      check: "rounds 1..last each started once, ended once (none skipped or doubled)",
      result: problem ?? `rounds 1..${last}`,
      ok: !problem,
    });
    const txs = await merchantTransactions(world.node, firstBlock);
    const reverted = txs.filter((tx) => tx.status !== 1).length;
    invariants.push({
      check: "every merchant transaction mined succeeded (no revert)",
      result: `${txs.length} mined, ${reverted} reverted`,
      ok: reverted === 0,
    });
    const nonces = await merchantNonces(world.node);
    invariants.push({
      check: "no transaction left pending (nonce latest = pending)",
      result: `${nonces.latest} / ${nonces.pending}`,
      ok: nonces.latest === nonces.pending,
    });
  } finally {
    await cleanup();
  }
  console.table(cycles);
  console.table(invariants);
  const rows = [...cycles.map((row) => Boolean(row.ok)), ...invariants.map((row) => row.ok)];
  const passed = rows.filter(Boolean).length;
  const ok = passed === rows.length && cycles.length === CYCLES;
  say(ok ? "worker kill: all cases passed" : "worker kill: FAILED");
  printResult("worker kill", rows.length, passed);
  process.exit(ok ? 0 : 1);
}

main().catch(async (error: unknown) => {
  process.stderr.write(`worker kill failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  await killAllWorkers();
  process.exit(1);
});
