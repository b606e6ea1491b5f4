import { ZeroAddress } from "ethers";
import type { EntityManager } from "typeorm";

import { compareLogs, type BlockHeader, type ChainSource, type RawLog } from "./chain-source";
import { ContractKind } from "./decode";
import type { IndexedEvent } from "./indexed-event";
import type { Projector } from "./projector";
import { logKey, type RawLogStore } from "./raw-log-store";
import type { Registry } from "./registry";
import { pruneUndoLog, recordUndoFor, stopRecordingUndo } from "./undo-log";
import { writeWebhookMessages } from "./webhook-outbox";

/**
 * Owns the application of one batch (a block range of one chain) inside the caller's transaction: raw rows, the
 * projection in chain order (purchases in bulk), contracts registered mid-batch, the undo log of blocks within the
 * reorg window, the headers and the cursor. The caller runs it in the leader's fenced transaction.
 */
export interface BatchContext {
  chainId: number;
  chain: ChainSource;
  registry: Registry;
  projector: Projector;
  store: RawLogStore;
  reorgWindowBlocks: number;
}

export class BatchApplier {
  constructor(private readonly ctx: BatchContext) {}

  /** Applies `logs` (of blocks up to `to`, whose headers are given) and moves the cursor to `to`; returns the events applied. */
  async apply(manager: EntityManager, logs: RawLog[], headers: Map<number, BlockHeader>, to: number, undoable: boolean): Promise<number> {
    const { projector, registry, store, chain } = this.ctx;
    const queue = [...logs];
    let undoBlock: number | null = null;
    // Raw rows first, in bulk: what they return is the set of logs never seen before, the only ones to project.
    const fresh = await store.storeRaw(manager, queue, headers);
    const purchases: IndexedEvent[] = [];
    let applied = 0;
    for (let i = 0; i < queue.length; i += 1) {
      const event = fresh.get(logKey(queue[i]));
      if (!event) continue;
      applied += 1;
      const kind = registry.get(event.address)?.kind;
      // Purchases are the bulk of any history: buffer them and write them in one statement. Every other event
      // first flushes the buffer, so events still apply in chain order.
      if (kind === ContractKind.RAFFLE && event.name === "TicketsPurchased") {
        // With the undo log, each block's purchases go in under that block, so a reorg can undo exactly its own.
        if (undoable && event.blockNumber !== undoBlock) {
          await projector.applyPurchases(manager, purchases.splice(0));
          undoBlock = await this.undoableFrom(manager, undoable, undoBlock, event.blockNumber);
        }
        purchases.push(event);
        continue;
      }
      if (kind === ContractKind.TICKET && event.name === "Transfer" && event.args.from === ZeroAddress) continue;
      await projector.applyPurchases(manager, purchases.splice(0));
      undoBlock = await this.undoableFrom(manager, undoable, undoBlock, event.blockNumber);
      const registered = await projector.apply(manager, event);
      if (registered.length > 0) {
        // Contracts deployed in this batch: read their logs for the rest of the batch and merge them in. Their
        // constructor's logs come before the factory's event in the same transaction; they are applied right after.
        const later = await chain.logs(
          registered.map((contract) => contract.address),
          event.blockNumber,
          to,
        );
        const missing = await chain.headers(later.map((candidate) => candidate.blockNumber).filter((n) => !headers.has(n)));
        for (const [number, header] of missing) headers.set(number, header);
        for (const [key, laterEvent] of await store.storeRaw(manager, later, headers)) fresh.set(key, laterEvent);
        queue.splice(i + 1, queue.length - i - 1, ...[...queue.slice(i + 1), ...later].sort(compareLogs));
      }
    }
    await projector.applyPurchases(manager, purchases);
    // Webhooks: the batch's messages go into the outbox in this same transaction (webhook-outbox.ts).
    await writeWebhookMessages(manager, this.ctx.chainId, [...fresh.values()], (block) => headers.get(block)!.hash);
    if (undoable) await stopRecordingUndo(manager);
    await store.storeBlocks(manager, [...headers.values()]);
    await store.writeCursor(manager, to, headers.get(to)!.hash);
    // Below the window nothing can be undone any more: forget those entries, and remember the floor.
    const floor = undoable ? to - this.ctx.reorgWindowBlocks : to;
    if (undoable) await pruneUndoLog(manager, this.ctx.chainId, floor);
    await store.raiseUndoFloor(manager, floor);
    return applied;
  }

  /** Starts recording the undo of `block` unless already recording it; returns the block being recorded. */
  private async undoableFrom(manager: EntityManager, undoable: boolean, current: number | null, block: number): Promise<number | null> {
    if (!undoable || current === block) return current;
    await recordUndoFor(manager, this.ctx.chainId, block);
    return block;
  }
}
