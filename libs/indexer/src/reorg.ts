import type { ChainSource } from "./chain-source";
import type { Leadership } from "./leadership";
import type { IndexerLogger } from "./logger";
import type { Projector } from "./projector";
import type { RawLogStore } from "./raw-log-store";
import { undoAfter } from "./undo-log";
import { retractWebhookMessages } from "./webhook-outbox";
import { IndexResetRequired, resetCommand } from "./reset";

export interface ReorgDeps {
  chainId: number;
  /** The platform's first block: with no stored header left on the chain, the index starts again below it. */
  deployBlock: number;
  chain: ChainSource;
  store: RawLogStore;
  projector: Projector;
  leadership: Leadership;
  logger: IndexerLogger;
}

/**
 * Owns the rollback of one chain's index after a reorg: finding the common ancestor among the stored headers, undoing
 * the projection above it from the undo log, dropping the raw rows above it and moving the cursor there. Only this
 * chain's undo entries, events, headers and cursor are touched (all keyed by chain id).
 */
export class ReorgRollback {
  constructor(private readonly deps: ReorgDeps) {}

  /** Rolls back to the highest stored block still on the chain; returns that block (the common ancestor). */
  async rollBack(cursorBlock: number): Promise<number> {
    const { chain, store, leadership, chainId } = this.deps;
    let ancestor = this.deps.deployBlock - 1;
    for (const block of await store.blocksDownFrom(leadership.manager, cursorBlock)) {
      if ((await chain.hashAt(block.number)) === block.hash) {
        ancestor = block.number;
        break;
      }
    }
    const undoFrom = await store.undoFloor(leadership.manager);
    if (ancestor < undoFrom) {
      throw new IndexResetRequired(
        `reorg of chain ${chainId} down to block ${ancestor}, below the undo window (blocks above ${undoFrom}), or the node was reset: ` +
          `reset this chain's index with \`${resetCommand(chainId)}\` and let it index again, or raise reorgWindowBlocks`,
      );
    }
    const ancestorHash = ancestor >= 0 ? (await chain.header(ancestor)).hash : "0x";
    await leadership.transaction(async (manager) => {
      // Webhooks: events above the ancestor that were announced get a `removed: true` message (webhook-outbox.ts).
      await retractWebhookMessages(manager, chainId, ancestor);
      await undoAfter(manager, chainId, ancestor);
      await store.dropAbove(manager, ancestor);
      await store.writeCursor(manager, ancestor, ancestorHash);
    });
    // Raffles registered and price tokens first used in the removed blocks are gone from the database: forget them here too.
    await this.deps.projector.reload(leadership.manager);
    this.deps.logger.warn("reorg: rolled back to the common ancestor", { chainId, from: cursorBlock, ancestor });
    return ancestor;
  }
}
