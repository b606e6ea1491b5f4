import type { EntityManager } from "typeorm";

import { compareLogs, type BlockHeader, type ChainSource, type RawLog } from "./chain-source";
import { isBulk, type BulkEventHandler } from "./event-handlers";
import type { IndexedEvent } from "./indexed-event";
import type { Announcement, Projector } from "./projector";
import type { RawLogStore } from "./raw-log-store";
import { pruneUndoLog, recordUndoFor, stopRecordingUndo } from "./undo-log";
import { writeWebhookMessages } from "./webhook-outbox";

export interface BatchDeps {
  chainId: number;
  chain: ChainSource;
  projector: Projector;
  store: RawLogStore;
  reorgWindowBlocks: number;
}

/**
 * Owns the application of one batch (a block range of one chain) inside the caller's transaction: raw rows, the
 * projection in chain order (bulk handlers' events in runs), contracts registered mid-batch, the webhook messages,
 * the undo log of blocks within the reorg window, the headers and the cursor. The caller runs it in the leader's
 * fenced transaction.
 */
export class BatchApplier {
  constructor(private readonly deps: BatchDeps) {}

  /** Applies `logs` (of blocks up to `to`, whose headers are given) and moves the cursor to `to`; returns the events applied. */
  async apply(manager: EntityManager, logs: RawLog[], headers: Map<number, BlockHeader>, to: number, undoable: boolean): Promise<number> {
    const { projector, store, chain, chainId } = this.deps;
    const queue = [...logs];
    let undoBlock = null as number | null;
    /** Starts recording the undo of `block` unless already recording it. */
    const recordUndo = async (block: number) => {
      if (!undoable || undoBlock === block) return;
      await recordUndoFor(manager, chainId, block);
      undoBlock = block;
    };
    const announcements: Announcement[] = [];
    // Purchases are the bulk of any history: a bulk handler's consecutive events are buffered and written in one
    // statement. Every other event first flushes the buffer, so events still apply in chain order.
    let run = null as { handler: BulkEventHandler; events: IndexedEvent[] } | null;
    const flush = async () => {
      if (run) announcements.push(...(await projector.applyAll(manager, run.handler, run.events)));
      run = null;
    };

    // Raw rows first, in bulk: what they return is the set of logs never seen before, the only ones to project.
    const fresh = await store.storeRaw(manager, queue, headers);
    let applied = 0;
    for (let i = 0; i < queue.length; i += 1) {
      const event = fresh.get(queue[i]);
      if (!event) continue;
      applied += 1;
      const route = projector.route(event);
      if (!route) continue; // kept in the raw log only
      if (isBulk(route.handler)) {
        // With the undo log, each block's run goes in under that block, so a reorg can undo exactly its own.
        if (run?.handler !== route.handler || (undoable && event.blockNumber !== undoBlock)) {
          await flush();
          await recordUndo(event.blockNumber);
        }
        (run ??= { handler: route.handler, events: [] }).events.push(event);
        continue;
      }
      await flush();
      await recordUndo(event.blockNumber);
      const { registered, announcement } = await projector.apply(manager, route, event);
      if (announcement) announcements.push(announcement);
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
        for (const [log, laterEvent] of await store.storeRaw(manager, later, headers)) fresh.set(log, laterEvent);
        queue.splice(i + 1, queue.length - i - 1, ...[...queue.slice(i + 1), ...later].sort(compareLogs));
      }
    }
    await flush();
    // Webhooks: the batch's messages go into the outbox in this same transaction (webhook-outbox.ts).
    await writeWebhookMessages(manager, chainId, announcements, (block) => headers.get(block)!.hash);
    if (undoable) await stopRecordingUndo(manager);
    await store.storeBlocks(manager, [...headers.values()]);
    await store.writeCursor(manager, to, headers.get(to)!.hash);
    // Below the window nothing can be undone any more: forget those entries, and remember the floor.
    const floor = undoable ? to - this.deps.reorgWindowBlocks : to;
    if (undoable) await pruneUndoLog(manager, chainId, floor);
    await store.raiseUndoFloor(manager, floor);
    return applied;
  }
}
