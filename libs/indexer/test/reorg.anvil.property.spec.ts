import * as fc from "fast-check";
import { RaffleTicket__factory, Raffle__factory } from "@raffle/chain";
import {
  buyTicket,
  deployTestRaffle,
  setUpWorld,
  startAnvilNode,
  startNextRound,
  type DevNode,
  type TestRaffle,
  type TestWorld,
} from "@raffle/chain/testing";

import { indexedDatabase, type IndexedDatabase } from "./support/indexer-harness";
import { projectionSnapshot } from "./support/snapshot";
import { endAndDraw } from "./support/v2-world";

/**
 * On Foundry's anvil, a second node implementation: random histories of purchases, transfers, pauses and draws, cut by
 * a real reorg of random depth (`anvil_rollback`) and continued on a new branch. After every run the reorged index
 * must equal a clean index of the final chain.
 */
type Action =
  | { kind: "buy"; player: number; raffle: number }
  | { kind: "transfer"; from: number; to: number; raffle: number }
  | { kind: "togglePause"; raffle: number }
  | { kind: "rotate"; raffle: number }
  | { kind: "mine"; blocks: number };

const player = fc.integer({ min: 0, max: 3 });
const raffleIndex = fc.integer({ min: 0, max: 1 });
const action: fc.Arbitrary<Action> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant("buy" as const), player, raffle: raffleIndex }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("transfer" as const), from: player, to: player, raffle: raffleIndex }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("togglePause" as const), raffle: raffleIndex }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("rotate" as const), raffle: raffleIndex }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("mine" as const), blocks: fc.integer({ min: 1, max: 3 }) }) },
);

const RUNS = Number(process.env.REORG_PROPERTY_RUNS ?? 6);

describe("indexer reorgs on anvil (property)", () => {
  let node: DevNode;
  let world: TestWorld;
  let raffles: TestRaffle[];
  let db: IndexedDatabase;
  const stats = { runs: 0, actions: 0, reorgs: 0, deepest: 0 };

  beforeAll(async () => {
    node = await startAnvilNode();
    world = await setUpWorld(node.provider);
    raffles = [await deployTestRaffle(world, "ERC20"), await deployTestRaffle(world, "NATIVE")];
    db = await indexedDatabase("anvil_reorg", node.provider, world.deployment, { batchBlocks: 7 });
    await db.indexer.syncToHead();
  });

  afterAll(async () => {
    console.log(`anvil reorg property: ${stats.runs} runs, ${stats.actions} actions, ${stats.reorgs} reorgs, deepest ${stats.deepest} blocks`);
    await db?.close();
    await node?.stop();
  });

  /** Applies one action as the chain allows it now (state is read from the chain, which a reorg may have rewound). */
  async function apply(step: Action): Promise<void> {
    if (step.kind === "mine") {
      for (let i = 0; i < step.blocks; i += 1) await node.provider.send("evm_mine", []);
      return;
    }
    const raffle = raffles[step.raffle];
    const contract = Raffle__factory.connect(raffle.raffle, world.merchant);
    const info = await contract.getCurrentRoundInfo();
    const round = await contract.getRound(info.roundId);
    const active = round.status === 1n;
    if (step.kind === "togglePause") {
      await (await ((await contract.paused()) ? contract.unpause() : contract.pause())).wait();
    } else if (step.kind === "buy") {
      if (active && !(await contract.paused())) await buyTicket(world, raffle, world.players[step.player], info.roundId);
    } else if (step.kind === "rotate") {
      if (active) {
        await endAndDraw(world, raffle);
        await startNextRound(world, raffle);
      }
    } else {
      const ticket = RaffleTicket__factory.connect(raffle.ticket, world.players[step.from]);
      const from = await world.players[step.from].getAddress();
      const to = await world.players[step.to].getAddress();
      const owned = await ticket.balanceOf(from);
      if (owned === 0n || from === to) return;
      // The newest ticket of `from`: scan down from the last id minted so far.
      for (let id = round.firstTicketId + round.ticketCount - 1n; id > 0n; id -= 1n) {
        const owner = await ticket.ownerOf(id).catch(() => null);
        if (owner === from) {
          await (await ticket.transferFrom(from, to, id)).wait();
          return;
        }
      }
    }
  }

  it(`equals a clean index after ${RUNS} random histories, each cut by a reorg of random depth`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(action, { minLength: 3, maxLength: 8 }),
        fc.integer({ min: 1, max: 12 }),
        fc.array(action, { minLength: 0, maxLength: 5 }),
        async (history, depthWish, branch) => {
          const start = await node.provider.getBlockNumber();
          for (const step of history) await apply(step);
          await db.indexer.syncToHead();
          const oldHead = await node.provider.getBlockNumber();

          // Roll back at most this run's own blocks, so the platform's deployment always survives.
          const depth = Math.min(depthWish, oldHead - start);
          if (depth > 0) {
            await node.provider.send("anvil_rollback", [depth]);
            stats.reorgs += 1;
            stats.deepest = Math.max(stats.deepest, depth);
          }
          for (const step of branch) await apply(step);
          // The new branch must outgrow the old one for any node to prefer it.
          while ((await node.provider.getBlockNumber()) <= oldHead) await node.provider.send("evm_mine", []);
          await db.indexer.syncToHead();

          const clean = await indexedDatabase("anvil_clean", node.provider, world.deployment, { batchBlocks: 500 });
          try {
            await clean.indexer.syncToHead();
            expect(await projectionSnapshot(db.dataSource)).toEqual(await projectionSnapshot(clean.dataSource));
          } finally {
            await clean.close();
          }
          stats.runs += 1;
          stats.actions += history.length + branch.length;
        },
      ),
      { numRuns: RUNS, endOnFailure: true },
    );
    expect(stats.reorgs).toBeGreaterThan(0);
  });
});
