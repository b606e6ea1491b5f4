import { ZeroAddress, type JsonRpcProvider } from "ethers";
import type { DataSource, EntityManager } from "typeorm";
import type { PlatformDeployment } from "@raffle/chain";
import { IndexedEventStatus, richText } from "@raffle/db";

import { ChainSource, compareLogs, type BlockHeader, type RawLog } from "./chain-source";
import { ContractKind, decodeLog } from "./decode";
import { HeadWatcher } from "./head-watcher";
import type { IndexedEvent } from "./indexed-event";
import { Leadership } from "./leadership";
import { jsonLogger, type IndexerLogger } from "./logger";
import { Projector } from "./projector";
import { Registry } from "./registry";
import { pruneUndoLog, recordUndoFor, stopRecordingUndo, undoAfter } from "./undo-log";
import { TokenMetadataReader } from "./token-metadata";
import { retractWebhookMessages, writeWebhookMessages } from "./webhook-outbox";

export interface IndexerOptions {
  deployment: PlatformDeployment;
  /** Blocks behind the head that are treated as final (0 on a local chain). */
  confirmations?: number;
  /** Most blocks read per batch; each batch is one database transaction. */
  batchBlocks?: number;
  pollIntervalMs?: number;
  /**
   * The node's WebSocket endpoint (ws:// or wss://). A new head it announces wakes the poll loop at once, so the lag is
   * the step's own time; polling stays as the fallback while the socket is down.
   */
  wsUrl?: string;
  /** Cron schedule of newly registered raffles. */
  defaultSchedule?: string;
  /**
   * How far below the head a reorg can reach: blocks within it are applied with the undo log, deeper ones without
   * (and a reorg below them stops the indexer with an error). Default 256.
   */
  reorgWindowBlocks?: number;
  progressIntervalMs?: number;
  logger?: IndexerLogger;
}

export interface IndexerStatus {
  chainId: number;
  leader: boolean;
  cursor: number | null;
  head: number | null;
  /** Blocks between the confirmed head and the cursor. */
  lag: number | null;
  lastBatchAt: string | null;
  lastError: string | null;
  /** New heads announced over the WebSocket that woke the leader or queued its next step (0 without `wsUrl`). */
  headWakes: number;
}

export type StepResult =
  | { kind: "idle" }
  | { kind: "batch"; from: number; to: number; events: number }
  | { kind: "reorg"; ancestor: number }
  | { kind: "retry"; reason: string }
  /** Another process holds the chain's indexing lock: nothing was read or written. */
  | { kind: "follower" };

/** How long syncToHead() waits for the leadership before it gives up. */
const SYNC_LEADERSHIP_TIMEOUT_MS = 30_000;
const RAW_CHUNK = 2_000;
const TARGET_LOGS_PER_BATCH = 2_000;

function logKey(log: { txHash: string; logIndex: number }): string {
  return `${log.txHash}:${log.logIndex}`;
}

/**
 * Keeps PostgreSQL in step with the chain: polls logs of registered contracts in block ranges, stores them raw and
 * projects them, one transaction per batch, and rolls back on reorgs. One leader per chain via an advisory lock.
 */
export class Indexer {
  private readonly chain: ChainSource;
  private readonly registry: Registry;
  private readonly tokens: TokenMetadataReader;
  private readonly logger: IndexerLogger;
  private readonly options: Required<Omit<IndexerOptions, "logger" | "wsUrl">>;
  private readonly headWatcher: HeadWatcher | null;
  /** A head was announced since the current step began: the step may not have seen it, so another one follows. */
  private headArrived = false;
  private projector: Projector | null = null;
  private readonly leadership: Leadership;
  /** The error last logged and how many steps in a row failed: an outage is logged once, and its end once. */
  private failure: { message: string; steps: number } | null = null;
  private running = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private wakeOnHead = false;
  private readonly state: IndexerStatus;
  private progress = { since: Date.now(), blocks: 0, events: 0 };
  /** Blocks read per batch, adapted so a batch holds a few thousand logs: nodes answer huge ranges slowly. */
  private rangeBlocks: number;

  constructor(
    private readonly dataSource: DataSource,
    provider: JsonRpcProvider,
    options: IndexerOptions,
  ) {
    this.chain = new ChainSource(provider);
    this.tokens = new TokenMetadataReader(provider);
    this.registry = new Registry(options.deployment);
    this.leadership = new Leadership(dataSource, options.deployment.chainId);
    this.logger = options.logger ?? jsonLogger;
    this.options = {
      deployment: options.deployment,
      confirmations: options.confirmations ?? 0,
      batchBlocks: options.batchBlocks ?? 2_000,
      pollIntervalMs: options.pollIntervalMs ?? 1_000,
      defaultSchedule: options.defaultSchedule ?? "0 0 * * *",
      progressIntervalMs: options.progressIntervalMs ?? 5_000,
      reorgWindowBlocks: options.reorgWindowBlocks ?? 256,
    };
    this.rangeBlocks = Math.min(this.options.batchBlocks, 16);
    this.headWatcher = options.wsUrl ? new HeadWatcher(options.wsUrl, () => this.onNewHead(), this.logger) : null;
    this.state = {
      chainId: options.deployment.chainId,
      leader: false,
      cursor: null,
      head: null,
      lag: null,
      lastBatchAt: null,
      lastError: null,
      headWakes: 0,
    };
  }

  get chainId(): number {
    return this.options.deployment.chainId;
  }

  status(): IndexerStatus {
    return { ...this.state };
  }

  /** Registers the platform's contracts and loads the registry. Idempotent. */
  async init(): Promise<void> {
    const { deployment } = this.options;
    const platformMerchantId = await this.dataSource.transaction(async (manager) => {
      const [{ id }] = await manager.query(
        `INSERT INTO merchant (wallet, title) VALUES ($1, 'Platform') ON CONFLICT (wallet) DO UPDATE SET wallet = EXCLUDED.wallet RETURNING id`,
        [deployment.admin],
      );
      for (const [address, title] of [
        [deployment.exchange, "Exchange"],
        [deployment.raffleFactory, "RaffleFactory"],
      ]) {
        await manager.query(
          `INSERT INTO contract (address, chain_id, title, description, merchant_id, name, from_block, contract_module,
                                 contract_features, indexed_block)
           VALUES ($1, $2, $3, $4, $5, $3, $6, 'SYSTEM', $7, 0) ON CONFLICT (chain_id, address) DO NOTHING`,
          [address, this.chainId, title, richText(title), id, deployment.deployBlock, title === "Exchange" ? "{PAUSABLE}" : "{}"],
        );
      }
      return id as number;
    });
    this.projector = new Projector({
      chainId: this.chainId,
      platformMerchantId,
      defaultSchedule: this.options.defaultSchedule,
      registry: this.registry,
      tokens: this.tokens,
    });
    await this.registry.load(this.dataSource.manager, this.chainId);
    const cursor = await this.readCursor(this.dataSource.manager);
    this.state.cursor = cursor?.blockNumber ?? null;
  }

  /** Runs the poll loop in the background until `stop()`; waits for leadership first. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.headWatcher?.start();
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.headWatcher?.stop();
    this.wake?.();
    await this.loop;
    this.loop = null;
    await this.leadership.release();
    this.state.leader = false;
  }

  /** Processes batches until the cursor reaches the confirmed head (waiting a while for the leadership if needed). */
  async syncToHead(): Promise<void> {
    const deadline = Date.now() + SYNC_LEADERSHIP_TIMEOUT_MS;
    for (;;) {
      const result = await this.step();
      if (result.kind === "idle") return;
      if (result.kind === "follower") {
        if (Date.now() > deadline) throw new Error(`another process holds the indexing leadership of chain ${this.chainId}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }

  /**
   * One unit of work of the leader: a batch, a reorg rollback, or nothing when caught up. Takes the leadership first
   * if it is free; a follower does nothing. Every database read and write of the step goes through the lock's session.
   */
  async step(): Promise<StepResult> {
    if (!this.projector) await this.init();
    if (!(await this.takeLeadership())) return { kind: "follower" };
    const [head, servedChainId] = await Promise.all([this.chain.head(), this.chain.chainId()]);
    // Checked on every step, not once: after a reconnect the URL may lead to another node, whose blocks must never be
    // stored under this chain's id.
    if (servedChainId !== this.chainId)
      throw new Error(`the node serves chain ${servedChainId}, not chain ${this.chainId}: nothing is indexed from it`);
    const safeHead = head - this.options.confirmations;
    this.state.head = head;
    const cursor = (await this.readCursor(this.leadership.manager)) ?? (await this.initialCursor());
    this.state.cursor = cursor.blockNumber;
    this.state.lag = Math.max(0, safeHead - cursor.blockNumber);
    if (cursor.blockNumber >= 0 && (await this.chain.hashAt(cursor.blockNumber)) !== cursor.blockHash) {
      return this.handleReorg(cursor.blockNumber);
    }
    if (cursor.blockNumber >= safeHead) {
      await this.expireVouchers();
      return { kind: "idle" };
    }

    const from = cursor.blockNumber + 1;
    const to = Math.min(from + this.rangeBlocks - 1, safeHead);
    const end = await this.chain.header(to);
    const logs = await this.chain.logs(this.registry.addresses(), from, to);
    const headers = await this.chain.headers([...logs.map((log) => log.blockNumber), to]);
    // Logs must come from the blocks we hold headers of; otherwise the chain moved under us: try again.
    if (headers.get(to)!.hash !== end.hash || logs.some((log) => headers.get(log.blockNumber)!.hash !== log.blockHash)) {
      return { kind: "retry", reason: "the chain changed during the batch" };
    }

    this.adaptRange(logs.length);
    // Blocks the window reaches get the undo log; older ones are final enough to skip its cost (a backfill).
    const undoable = to > head - this.options.reorgWindowBlocks;
    const applied = await this.leadership.transaction((manager) => this.applyBatch(manager, logs, headers, to, undoable));
    await this.expireVouchers();
    this.state.cursor = to;
    this.state.lag = Math.max(0, safeHead - to);
    this.state.lastBatchAt = new Date().toISOString();
    this.state.lastError = null;
    this.reportProgress(to - from + 1, applied, safeHead - to);
    return { kind: "batch", from, to, events: applied };
  }

  // ------------------------------------------------------------------ batch

  private async applyBatch(
    manager: EntityManager,
    logs: RawLog[],
    headers: Map<number, BlockHeader>,
    to: number,
    undoable: boolean,
  ): Promise<number> {
    const queue = [...logs];
    let undoBlock: number | null = null;
    // Raw rows first, in bulk: what they return is the set of logs never seen before, the only ones to project.
    const fresh = await this.storeRaw(manager, queue, headers);
    const purchases: IndexedEvent[] = [];
    let applied = 0;
    for (let i = 0; i < queue.length; i += 1) {
      const event = fresh.get(logKey(queue[i]));
      if (!event) continue;
      applied += 1;
      const kind = this.registry.get(event.address)?.kind;
      // Purchases are the bulk of any history: buffer them and write them in one statement. Every other event
      // first flushes the buffer, so events still apply in chain order.
      if (kind === ContractKind.RAFFLE && event.name === "TicketPurchased") {
        // With the undo log, each block's purchases go in under that block, so a reorg can undo exactly its own.
        if (undoable && event.blockNumber !== undoBlock) {
          await this.projector!.applyPurchases(manager, purchases.splice(0));
          undoBlock = await this.undoableFrom(manager, undoable, undoBlock, event.blockNumber);
        }
        purchases.push(event);
        continue;
      }
      if (kind === ContractKind.TICKET && event.name === "Transfer" && event.args.from === ZeroAddress) continue;
      await this.projector!.applyPurchases(manager, purchases.splice(0));
      undoBlock = await this.undoableFrom(manager, undoable, undoBlock, event.blockNumber);
      const registered = await this.projector!.apply(manager, event);
      if (registered.length > 0) {
        // Contracts deployed in this batch: read their logs for the rest of the batch and merge them in. Their
        // constructor's logs come before the factory's event in the same transaction; they are applied right after.
        const later = await this.chain.logs(
          registered.map((contract) => contract.address),
          event.blockNumber,
          to,
        );
        const missing = await this.chain.headers(later.map((candidate) => candidate.blockNumber).filter((n) => !headers.has(n)));
        for (const [number, header] of missing) headers.set(number, header);
        for (const [key, laterEvent] of await this.storeRaw(manager, later, headers)) fresh.set(key, laterEvent);
        queue.splice(i + 1, queue.length - i - 1, ...[...queue.slice(i + 1), ...later].sort(compareLogs));
      }
    }
    await this.projector!.applyPurchases(manager, purchases);
    // Webhooks: the batch's messages go into the outbox in this same transaction (webhook-outbox.ts).
    await writeWebhookMessages(manager, this.chainId, [...fresh.values()], (block) => headers.get(block)!.hash);
    if (undoable) await stopRecordingUndo(manager);
    await this.storeBlocks(manager, [...headers.values()]);
    await this.writeCursor(manager, to, headers.get(to)!.hash);
    // Below the window nothing can be undone any more: forget those entries, and remember the floor.
    const floor = undoable ? to - this.options.reorgWindowBlocks : to;
    if (undoable) await pruneUndoLog(manager, this.chainId, floor);
    await manager.query(`UPDATE indexer_cursor SET undo_from = GREATEST(undo_from, $2) WHERE chain_id = $1`, [this.chainId, floor]);
    return applied;
  }

  /** Starts recording the undo of `block` unless already recording it; returns the block being recorded. */
  private async undoableFrom(manager: EntityManager, undoable: boolean, current: number | null, block: number): Promise<number | null> {
    if (!undoable || current === block) return current;
    await recordUndoFor(manager, this.chainId, block);
    return block;
  }

  /**
   * Inserts the raw rows of `logs` (unique on chain, tx hash and log index) and returns, by log, the decoded events
   * of those inserted now and readable. Unreadable logs are stored with their status and reported.
   */
  private async storeRaw(manager: EntityManager, logs: RawLog[], headers: Map<number, BlockHeader>): Promise<Map<string, IndexedEvent | null>> {
    const fresh = new Map<string, IndexedEvent | null>();
    const rows = logs.flatMap((log) => {
      const contract = this.registry.get(log.address);
      return contract ? [{ log, decoded: decodeLog(contract.kind, log), timestamp: headers.get(log.blockNumber)!.timestamp }] : [];
    });
    for (let start = 0; start < rows.length; start += RAW_CHUNK) {
      const chunk = rows.slice(start, start + RAW_CHUNK);
      const inserted: Array<{ tx_hash: string; log_index: number }> = await manager.query(
        `INSERT INTO indexer_event (chain_id, block_number, block_hash, block_timestamp, tx_hash, log_index, address, name,
                                    args, topics, data, status)
         SELECT $1, v.block_number, v.block_hash, v.block_timestamp, v.tx_hash, v.log_index, v.address, v.name,
                v.args::jsonb, string_to_array(v.topics, ','), v.data, v.status::indexer_event_status_enum
           FROM unnest($2::bigint[], $3::text[], $4::timestamptz[], $5::text[], $6::int[], $7::text[], $8::text[],
                       $9::text[], $10::text[], $11::text[], $12::text[])
             AS v(block_number, block_hash, block_timestamp, tx_hash, log_index, address, name, args, topics, data, status)
         ON CONFLICT (chain_id, tx_hash, log_index) DO NOTHING RETURNING tx_hash, log_index`,
        [
          this.chainId,
          chunk.map((row) => row.log.blockNumber),
          chunk.map((row) => row.log.blockHash),
          chunk.map((row) => row.timestamp),
          chunk.map((row) => row.log.txHash),
          chunk.map((row) => row.log.logIndex),
          chunk.map((row) => row.log.address),
          chunk.map((row) => row.decoded.name),
          chunk.map((row) => (row.decoded.args === null ? null : JSON.stringify(row.decoded.args))),
          chunk.map((row) => row.log.topics.join(",")),
          chunk.map((row) => row.log.data),
          chunk.map((row) => row.decoded.status),
        ],
      );
      const insertedKeys = new Set(inserted.map((row) => `${row.tx_hash}:${row.log_index}`));
      for (const { log, decoded, timestamp } of chunk) {
        const key = logKey(log);
        if (!insertedKeys.has(key)) continue; // seen before: a replayed range changes nothing
        if (decoded.status !== IndexedEventStatus.APPLIED) {
          this.logger.warn("skipped a log the indexer cannot read", {
            chainId: this.chainId,
            contract: log.address,
            txHash: log.txHash,
            logIndex: log.logIndex,
            status: decoded.status,
            reason: decoded.reason,
          });
          fresh.set(key, null);
          continue;
        }
        fresh.set(key, {
          chainId: this.chainId,
          blockNumber: log.blockNumber,
          blockTimestamp: timestamp,
          txHash: log.txHash,
          logIndex: log.logIndex,
          address: log.address,
          name: decoded.name!,
          args: decoded.args!,
        });
      }
    }
    return fresh;
  }

  private async storeBlocks(manager: EntityManager, headers: BlockHeader[]): Promise<void> {
    if (headers.length === 0) return;
    await manager.query(
      `INSERT INTO indexer_block (chain_id, number, hash, parent_hash, timestamp)
       SELECT $1, v.number, v.hash, v.parent_hash, v.timestamp
         FROM unnest($2::bigint[], $3::text[], $4::text[], $5::timestamptz[]) AS v(number, hash, parent_hash, timestamp)
       ON CONFLICT (chain_id, number) DO UPDATE SET hash = EXCLUDED.hash, parent_hash = EXCLUDED.parent_hash, timestamp = EXCLUDED.timestamp`,
      [
        this.chainId,
        headers.map((header) => header.number),
        headers.map((header) => header.hash),
        headers.map((header) => header.parentHash),
        headers.map((header) => header.timestamp),
      ],
    );
  }

  private adaptRange(logCount: number): void {
    if (logCount > TARGET_LOGS_PER_BATCH * 2) this.rangeBlocks = Math.max(1, Math.floor(this.rangeBlocks / 2));
    else if (logCount < TARGET_LOGS_PER_BATCH / 2) this.rangeBlocks = Math.min(this.options.batchBlocks, this.rangeBlocks * 2);
  }

  /** Claim vouchers past their expiry that nobody redeemed become EXPIRED. */
  private async expireVouchers(): Promise<void> {
    await this.dataSource.query(
      `UPDATE claim SET claim_status = 'EXPIRED', updated_at = now()
        WHERE claim_type = 'VOUCHER' AND claim_status = 'NEW' AND end_timestamp < now()`,
    );
  }

  // ------------------------------------------------------------------ reorgs

  /**
   * Finds the highest stored block still on the chain, undoes the projection of every block above it from the undo
   * log, drops their raw events and headers, and moves the cursor there.
   */
  private async handleReorg(cursorBlock: number): Promise<StepResult> {
    const stored: Array<{ number: string; hash: string }> = await this.leadership.manager.query(
      `SELECT number, hash FROM indexer_block WHERE chain_id = $1 AND number <= $2 ORDER BY number DESC`,
      [this.chainId, cursorBlock],
    );
    let ancestor = this.options.deployment.deployBlock - 1;
    for (const block of stored) {
      if ((await this.chain.hashAt(Number(block.number))) === block.hash) {
        ancestor = Number(block.number);
        break;
      }
    }
    const [{ undo_from: undoFrom }] = await this.leadership.manager.query(`SELECT undo_from FROM indexer_cursor WHERE chain_id = $1`, [this.chainId]);
    if (ancestor < Number(undoFrom)) {
      throw new Error(
        `reorg of chain ${this.chainId} down to block ${ancestor}, below the undo window (blocks above ${undoFrom}): ` +
          `reset this chain's index (resetIndexedChain) and let it index again, or raise reorgWindowBlocks`,
      );
    }
    const ancestorHash = ancestor >= 0 ? (await this.chain.header(ancestor)).hash : "0x";
    await this.leadership.transaction(async (manager) => {
      // Webhooks: events above the ancestor that were announced get a `removed: true` message (webhook-outbox.ts).
      await retractWebhookMessages(manager, this.chainId, ancestor);
      await undoAfter(manager, this.chainId, ancestor);
      await manager.query(`DELETE FROM indexer_event WHERE chain_id = $1 AND block_number > $2`, [this.chainId, ancestor]);
      await manager.query(`DELETE FROM indexer_block WHERE chain_id = $1 AND number > $2`, [this.chainId, ancestor]);
      await this.writeCursor(manager, ancestor, ancestorHash);
    });
    await this.registry.load(this.leadership.manager, this.chainId);
    this.logger.warn("reorg: rolled back to the common ancestor", { chainId: this.chainId, from: cursorBlock, ancestor });
    this.state.cursor = ancestor;
    return { kind: "reorg", ancestor };
  }

  // ------------------------------------------------------------------ cursor

  private async readCursor(manager: EntityManager): Promise<{ blockNumber: number; blockHash: string } | null> {
    const [row] = await manager.query(`SELECT block_number, block_hash FROM indexer_cursor WHERE chain_id = $1`, [this.chainId]);
    return row ? { blockNumber: Number(row.block_number), blockHash: row.block_hash } : null;
  }

  private async initialCursor(): Promise<{ blockNumber: number; blockHash: string }> {
    const blockNumber = this.options.deployment.deployBlock - 1;
    const blockHash = blockNumber >= 0 ? (await this.chain.header(blockNumber)).hash : "0x";
    await this.leadership.transaction((manager) => this.writeCursor(manager, blockNumber, blockHash));
    return { blockNumber, blockHash };
  }

  private async writeCursor(manager: EntityManager, blockNumber: number, blockHash: string): Promise<void> {
    await manager.query(
      `INSERT INTO indexer_cursor (chain_id, block_number, block_hash, updated_at) VALUES ($1, $2, $3, now())
       ON CONFLICT (chain_id) DO UPDATE SET block_number = EXCLUDED.block_number, block_hash = EXCLUDED.block_hash, updated_at = now()`,
      [this.chainId, blockNumber, blockHash],
    );
  }

  // ------------------------------------------------------------------ loop and leadership

  private async run(): Promise<void> {
    while (this.running) {
      // Polls start a poll interval apart whatever a step took, so a new block waits at most one interval for the
      // step that reads it (sleeping a full interval after each step would add the step's own time to that wait).
      const stepStarted = Date.now();
      this.headArrived = false;
      let failed = false;
      try {
        const result = await this.step();
        this.recovered();
        if (result.kind === "batch" || result.kind === "reorg") continue;
      } catch (error) {
        this.stepFailed(error);
        // A failure may mean the lock's session is gone: then this process stops leading before its next step.
        if (this.state.leader && !(await this.leadership.confirm())) this.lostLeadership();
        failed = true;
      }
      const interval = this.state.leader ? this.options.pollIntervalMs : this.options.pollIntervalMs * 5;
      // After a failure, a full interval that no head cuts short: a failing node or database is not retried back to
      // back, nor on every block.
      if (failed) await this.sleep(interval, false);
      else if (!this.headArrived) await this.sleep(Math.max(0, stepStarted + interval - Date.now()), true);
    }
  }

  /** Logs a failure once per distinct error, not at every retry of an outage. */
  private stepFailed(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    this.state.lastError = message;
    if (this.failure?.message === message) {
      this.failure.steps += 1;
      return;
    }
    this.failure = { message, steps: 1 };
    this.logger.error("indexer step failed; retrying until it succeeds (logged once per distinct error)", { chainId: this.chainId, error: message });
  }

  private recovered(): void {
    if (!this.failure) return;
    this.logger.info("indexer steps succeed again", { chainId: this.chainId, failedSteps: this.failure.steps });
    this.failure = null;
    this.state.lastError = null;
  }

  /** Only the leader is woken: the others would retry the advisory lock on every block. */
  private onNewHead(): void {
    if (!this.running || !this.state.leader) return;
    this.headArrived = true;
    this.state.headWakes += 1;
    if (this.wakeOnHead) this.wake?.();
  }

  /** Leads if this process holds the lock or can take it now. */
  private async takeLeadership(): Promise<boolean> {
    if (this.leadership.isHeld) return true;
    if (this.state.leader) this.lostLeadership();
    const acquired = await this.leadership.tryAcquire();
    if (acquired) {
      // The former leader may have registered raffles (or rolled some back) since this process last looked.
      await this.registry.load(this.leadership.manager, this.chainId);
      this.logger.info("indexer leadership acquired", { chainId: this.chainId });
    }
    this.state.leader = acquired;
    return acquired;
  }

  private lostLeadership(): void {
    this.state.leader = false;
    this.logger.warn("indexer leadership lost: the lock's database session ended; stepping down", { chainId: this.chainId });
  }

  /** Sleeps until the time is up, `stop()`, or (if `wakeOnHead`) a new head. */
  private sleep(ms: number, wakeOnHead: boolean): Promise<void> {
    // stop() may have come during the step, when there was no sleep to cut short.
    if (!this.running) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = null;
        this.wakeOnHead = false;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
      this.wakeOnHead = wakeOnHead;
    });
  }

  private reportProgress(blocks: number, events: number, behind: number): void {
    this.progress.blocks += blocks;
    this.progress.events += events;
    const elapsed = Date.now() - this.progress.since;
    if (elapsed < this.options.progressIntervalMs) return;
    if (behind > 0 || this.progress.events > 0) {
      this.logger.info("indexer progress", {
        chainId: this.chainId,
        blocksPerSecond: Math.round((this.progress.blocks * 1000) / elapsed),
        eventsPerSecond: Math.round((this.progress.events * 1000) / elapsed),
        blocksBehind: behind,
        cursor: this.state.cursor,
      });
    }
    this.progress = { since: Date.now(), blocks: 0, events: 0 };
  }
}

export { ContractKind };
