import type { JsonRpcProvider } from "ethers";
import type { DataSource, EntityManager, QueryRunner } from "typeorm";
import type { PlatformDeployment } from "@raffle/chain";
import { IndexedEventStatus, richText } from "@raffle/db";

import { ChainSource, compareLogs, type BlockHeader, type RawLog } from "./chain-source";
import { ContractKind, decodeLog } from "./decode";
import type { IndexedEvent } from "./indexed-event";
import { jsonLogger, type IndexerLogger } from "./logger";
import { Projector } from "./projector";
import { Registry } from "./registry";
import { rollbackTo } from "./rollback";
import { TokenMetadataReader } from "./token-metadata";

export interface IndexerOptions {
  deployment: PlatformDeployment;
  /** Blocks behind the head that are treated as final (0 on a local chain). */
  confirmations?: number;
  /** Most blocks read per batch; each batch is one database transaction. */
  batchBlocks?: number;
  pollIntervalMs?: number;
  /** Cron schedule of newly registered raffles. */
  defaultSchedule?: string;
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
}

export type StepResult = { kind: "idle" } | { kind: "batch"; from: number; to: number; events: number } | { kind: "reorg"; ancestor: number } | { kind: "retry"; reason: string };

const LOCK_NAMESPACE = 0x72616666; // "raff"

/**
 * Keeps PostgreSQL in step with the chain: polls logs of registered contracts in block ranges, stores them raw and
 * projects them, one transaction per batch, and rolls back on reorgs. One leader per chain via an advisory lock.
 */
export class Indexer {
  private readonly chain: ChainSource;
  private readonly registry: Registry;
  private readonly tokens: TokenMetadataReader;
  private readonly logger: IndexerLogger;
  private readonly options: Required<Omit<IndexerOptions, "logger">>;
  private projector: Projector | null = null;
  private lockRunner: QueryRunner | null = null;
  private running = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private readonly state: IndexerStatus;
  private progress = { since: Date.now(), blocks: 0, events: 0 };

  constructor(
    private readonly dataSource: DataSource,
    provider: JsonRpcProvider,
    options: IndexerOptions,
  ) {
    this.chain = new ChainSource(provider);
    this.tokens = new TokenMetadataReader(provider);
    this.registry = new Registry(options.deployment);
    this.logger = options.logger ?? jsonLogger;
    this.options = {
      deployment: options.deployment,
      confirmations: options.confirmations ?? 0,
      batchBlocks: options.batchBlocks ?? 2_000,
      pollIntervalMs: options.pollIntervalMs ?? 1_000,
      defaultSchedule: options.defaultSchedule ?? "0 0 * * *",
      progressIntervalMs: options.progressIntervalMs ?? 5_000,
    };
    this.state = {
      chainId: options.deployment.chainId,
      leader: false,
      cursor: null,
      head: null,
      lag: null,
      lastBatchAt: null,
      lastError: null,
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
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    this.loop = null;
    await this.releaseLeadership();
  }

  /** Processes batches until the cursor reaches the confirmed head. */
  async syncToHead(): Promise<void> {
    for (;;) {
      const result = await this.step();
      if (result.kind === "idle") return;
    }
  }

  /** One unit of work: a batch, a reorg rollback, or nothing when caught up. */
  async step(): Promise<StepResult> {
    if (!this.projector) await this.init();
    const head = await this.chain.head();
    const safeHead = head - this.options.confirmations;
    this.state.head = head;
    const cursor = (await this.readCursor(this.dataSource.manager)) ?? (await this.initialCursor());
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
    const to = Math.min(from + this.options.batchBlocks - 1, safeHead);
    const end = await this.chain.header(to);
    const logs = await this.chain.logs(this.registry.addresses(), from, to);
    const headers = await this.chain.headers([...logs.map((log) => log.blockNumber), to]);
    // Logs must come from the blocks we hold headers of; otherwise the chain moved under us: try again.
    if (headers.get(to)!.hash !== end.hash || logs.some((log) => headers.get(log.blockNumber)!.hash !== log.blockHash)) {
      return { kind: "retry", reason: "the chain changed during the batch" };
    }

    const applied = await this.dataSource.transaction((manager) => this.applyBatch(manager, logs, headers, to));
    await this.expireVouchers();
    this.state.cursor = to;
    this.state.lag = Math.max(0, safeHead - to);
    this.state.lastBatchAt = new Date().toISOString();
    this.state.lastError = null;
    this.reportProgress(to - from + 1, applied, safeHead - to);
    return { kind: "batch", from, to, events: applied };
  }

  // ------------------------------------------------------------------ batch

  private async applyBatch(manager: EntityManager, logs: RawLog[], headers: Map<number, BlockHeader>, to: number): Promise<number> {
    const queue = [...logs];
    let applied = 0;
    for (let i = 0; i < queue.length; i += 1) {
      const log = queue[i];
      const registered = await this.applyLog(manager, log, headers.get(log.blockNumber)!);
      applied += 1;
      if (registered.length > 0) {
        // Contracts deployed in this batch: read their logs for the rest of the batch and merge them in. Their
        // constructor's logs come before the factory's event in the same transaction; they are applied right after.
        const later = await this.chain.logs(registered, log.blockNumber, to);
        const missing = await this.chain.headers(later.map((candidate) => candidate.blockNumber).filter((n) => !headers.has(n)));
        for (const [number, header] of missing) headers.set(number, header);
        queue.splice(i + 1, queue.length - i - 1, ...[...queue.slice(i + 1), ...later].sort(compareLogs));
      }
    }
    const blockRows = [...headers.values()];
    for (const header of blockRows) {
      await manager.query(
        `INSERT INTO indexer_block (chain_id, number, hash, parent_hash, timestamp) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (chain_id, number) DO UPDATE SET hash = EXCLUDED.hash, parent_hash = EXCLUDED.parent_hash, timestamp = EXCLUDED.timestamp`,
        [this.chainId, header.number, header.hash, header.parentHash, header.timestamp],
      );
    }
    await this.writeCursor(manager, to, headers.get(to)!.hash);
    return applied;
  }

  /** Stores one log raw and, the first time it is seen, projects it. Returns addresses it registered. */
  private async applyLog(manager: EntityManager, log: RawLog, header: BlockHeader): Promise<string[]> {
    const contract = this.registry.get(log.address);
    if (!contract) return [];
    const decoded = decodeLog(contract.kind, log);
    const inserted: unknown[] = await manager.query(
      `INSERT INTO indexer_event (chain_id, block_number, block_hash, block_timestamp, tx_hash, log_index, address, name,
                                  args, topics, data, status)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
       ON CONFLICT (chain_id, tx_hash, log_index) DO NOTHING RETURNING id`,
      [
        this.chainId,
        log.blockNumber,
        log.blockHash,
        header.timestamp,
        log.txHash,
        log.logIndex,
        log.address,
        decoded.name,
        decoded.args === null ? null : JSON.stringify(decoded.args),
        log.topics,
        log.data,
        decoded.status,
      ],
    );
    if (inserted.length === 0) return []; // seen before: a replayed range changes nothing
    if (decoded.status !== IndexedEventStatus.APPLIED) {
      this.logger.warn("skipped a log the indexer cannot read", {
        chainId: this.chainId,
        contract: log.address,
        txHash: log.txHash,
        logIndex: log.logIndex,
        status: decoded.status,
        reason: decoded.reason,
      });
      return [];
    }
    const event: IndexedEvent = {
      chainId: this.chainId,
      blockNumber: log.blockNumber,
      blockTimestamp: header.timestamp,
      txHash: log.txHash,
      logIndex: log.logIndex,
      address: log.address,
      name: decoded.name!,
      args: decoded.args!,
    };
    const registered = await this.projector!.apply(manager, event);
    return registered.map((contract) => contract.address);
  }

  /** Claim vouchers past their expiry that nobody redeemed become EXPIRED. */
  private async expireVouchers(): Promise<void> {
    await this.dataSource.query(
      `UPDATE claim SET claim_status = 'EXPIRED', updated_at = now()
        WHERE claim_type = 'VOUCHER' AND claim_status = 'NEW' AND end_timestamp < now()`,
    );
  }

  // ------------------------------------------------------------------ reorgs

  /** Finds the highest stored block still on the chain, rolls back to it, and moves the cursor there. */
  private async handleReorg(cursorBlock: number): Promise<StepResult> {
    const stored: Array<{ number: string; hash: string }> = await this.dataSource.query(
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
    const ancestorHash = ancestor >= 0 ? (await this.chain.header(ancestor)).hash : "0x";
    await this.dataSource.transaction(async (manager) => {
      await rollbackTo(manager, this.chainId, ancestor, this.projector!);
      await this.writeCursor(manager, ancestor, ancestorHash);
    });
    await this.registry.load(this.dataSource.manager, this.chainId);
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
    await this.writeCursor(this.dataSource.manager, blockNumber, blockHash);
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
      try {
        if (!this.state.leader) await this.tryLeadership();
        if (this.state.leader) {
          const result = await this.step();
          if (result.kind === "batch" || result.kind === "reorg") continue;
        }
      } catch (error) {
        this.state.lastError = error instanceof Error ? error.message : String(error);
        this.logger.error("indexer step failed; retrying", { chainId: this.chainId, error: this.state.lastError });
        if (this.lockRunner?.isReleased) this.state.leader = false;
      }
      await this.sleep(this.state.leader ? this.options.pollIntervalMs : this.options.pollIntervalMs * 5);
    }
  }

  private async tryLeadership(): Promise<void> {
    this.lockRunner ??= this.dataSource.createQueryRunner();
    const [{ locked }] = await this.lockRunner.query(`SELECT pg_try_advisory_lock($1, $2) AS locked`, [LOCK_NAMESPACE, this.chainId]);
    if (locked && !this.state.leader) this.logger.info("indexer leadership acquired", { chainId: this.chainId });
    this.state.leader = Boolean(locked);
  }

  private async releaseLeadership(): Promise<void> {
    if (!this.lockRunner) return;
    if (this.state.leader && !this.lockRunner.isReleased) {
      await this.lockRunner.query(`SELECT pg_advisory_unlock($1, $2)`, [LOCK_NAMESPACE, this.chainId]).catch(() => undefined);
    }
    await this.lockRunner.release().catch(() => undefined);
    this.lockRunner = null;
    this.state.leader = false;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
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
