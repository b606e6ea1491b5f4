import type { EntityManager } from "typeorm";
import { IndexedEventStatus, isPostgresServer } from "@raffle/db";

import type { BlockHeader, RawLog } from "./chain-source";
import { decodeLog, type DecodedLog } from "./decode";
import type { IndexedEvent } from "./indexed-event";
import type { IndexerLogger } from "./logger";
import { copyRawRows, type RawRow } from "./raw-copy";
import { runNamed } from "./prepared";
import type { Registry } from "./registry";

/**
 * Owns what the indexer keeps of one chain as it was read, before any projection: the raw events (`indexer_event`),
 * the block headers (`indexer_block`) and the cursor (`indexer_cursor`). Every statement is scoped to this chain's id:
 * two chains' indexers share the tables, and with CREATE2 even their contract addresses may be equal.
 */

const RAW_CHUNK = 2_000;

/** The statements of every step or batch, named (prepared.ts). */
const STATEMENTS = {
  anyFrom: {
    name: "indexer-raw-any-from",
    text: `SELECT EXISTS (SELECT 1 FROM indexer_event WHERE chain_id = $1 AND block_number >= $2) AS found`,
  },
  storeBlocks: {
    name: "indexer-store-blocks",
    text: `INSERT INTO indexer_block (chain_id, number, hash, parent_hash, timestamp)
           SELECT $1, v.number, v.hash, v.parent_hash, v.timestamp
             FROM unnest($2::bigint[], $3::text[], $4::text[], $5::timestamptz[]) AS v(number, hash, parent_hash, timestamp)
           ON CONFLICT (chain_id, number) DO UPDATE SET hash = EXCLUDED.hash, parent_hash = EXCLUDED.parent_hash, timestamp = EXCLUDED.timestamp`,
  },
  readCursor: { name: "indexer-read-cursor", text: `SELECT block_number, block_hash FROM indexer_cursor WHERE chain_id = $1` },
  writeCursor: {
    name: "indexer-write-cursor",
    text: `INSERT INTO indexer_cursor (chain_id, block_number, block_hash, updated_at) VALUES ($1, $2, $3, now())
           ON CONFLICT (chain_id) DO UPDATE SET block_number = EXCLUDED.block_number, block_hash = EXCLUDED.block_hash, updated_at = now()`,
  },
  raiseUndoFloor: { name: "indexer-raise-undo-floor", text: `UPDATE indexer_cursor SET undo_from = GREATEST(undo_from, $2) WHERE chain_id = $1` },
};

export interface Cursor {
  blockNumber: number;
  blockHash: string;
}

function logKey(log: { txHash: string; logIndex: number }): string {
  return `${log.txHash}:${log.logIndex}`;
}

interface DecodedRow {
  log: RawLog;
  decoded: DecodedLog;
  timestamp: Date;
}

function rawRow({ log, decoded, timestamp }: DecodedRow): RawRow {
  return {
    blockNumber: log.blockNumber,
    blockHash: log.blockHash,
    timestamp,
    txHash: log.txHash,
    logIndex: log.logIndex,
    address: log.address,
    name: decoded.name,
    args: decoded.args === null ? null : JSON.stringify(decoded.args),
    // The args alone where they give back the log exactly (decode.ts): half the row's bytes, sent, parsed and stored.
    topics: decoded.argsImplyLog ? null : log.topics,
    data: decoded.argsImplyLog ? null : log.data,
    status: decoded.status,
  };
}

export class RawLogStore {
  constructor(
    private readonly chainId: number,
    private readonly registry: Registry,
    private readonly logger: IndexerLogger,
  ) {}

  /**
   * Inserts the raw rows of `logs` (unique on chain, tx hash and log index) and returns, by log (the objects given:
   * no key strings per log), the decoded events of those inserted now and readable. Unreadable logs are stored with
   * their status and reported.
   */
  async storeRaw(manager: EntityManager, logs: RawLog[], headers: Map<number, BlockHeader>): Promise<Map<RawLog, IndexedEvent | null>> {
    const rows = logs.flatMap((log) => {
      const contract = this.registry.get(log.address);
      return contract ? [{ log, decoded: decodeLog(contract.kind, log), timestamp: headers.get(log.blockNumber)!.timestamp }] : [];
    });
    if (rows.length === 0) return new Map();
    // Nothing to skip when the chain has no raw row from the batch's first block on (a batch always starts above the
    // cursor, and a reorg drops the rows above its ancestor): then every row is new, and COPY writes them fastest.
    // A replayed range, or contracts registered mid-batch, take the INSERT below.
    if (
      (await this.nothingFrom(
        manager,
        rows.reduce((low, row) => Math.min(low, row.log.blockNumber), Infinity),
      )) &&
      (await copyRawRows(manager, this.chainId, rows.map(rawRow)))
    ) {
      return this.freshEvents(rows, null);
    }
    const inserted = new Set<string>();
    for (let start = 0; start < rows.length; start += RAW_CHUNK) {
      // The same row values as the COPY's (rawRow), in columns.
      const chunk = rows.slice(start, start + RAW_CHUNK).map(rawRow);
      const column = <T>(pick: (row: RawRow) => T): T[] => chunk.map(pick);
      const returned: Array<{ tx_hash: string; log_index: number }> = await manager.query(
        `INSERT INTO indexer_event (chain_id, block_number, block_hash, block_timestamp, tx_hash, log_index, address, name,
                                    args, topics, data, status)
         SELECT $1, v.block_number, v.block_hash, v.block_timestamp, v.tx_hash, v.log_index, v.address, v.name,
                v.args::jsonb, string_to_array(v.topics, ','), v.data, v.status::indexer_event_status_enum
           FROM unnest($2::bigint[], $3::text[], $4::timestamptz[], $5::text[], $6::int[], $7::text[], $8::text[],
                       $9::text[], $10::text[], $11::text[], $12::text[])
             AS v(block_number, block_hash, block_timestamp, tx_hash, log_index, address, name, args, topics, data, status)
         ON CONFLICT (chain_id, block_number, tx_hash, log_index) DO NOTHING RETURNING tx_hash, log_index`,
        [
          this.chainId,
          column((row) => row.blockNumber),
          column((row) => row.blockHash),
          column((row) => row.timestamp),
          column((row) => row.txHash),
          column((row) => row.logIndex),
          column((row) => row.address),
          column((row) => row.name),
          column((row) => row.args),
          column((row) => row.topics?.join(",") ?? null),
          column((row) => row.data),
          column((row) => row.status),
        ],
      );
      for (const row of returned) inserted.add(`${row.tx_hash}:${row.log_index}`);
    }
    return this.freshEvents(rows, inserted);
  }

  /** Whether this chain has no raw row at or above `block` (the primary key, chain and block first, answers). */
  private async nothingFrom(manager: EntityManager, block: number): Promise<boolean> {
    // PGlite's socket server does not speak COPY's sub-protocol (the session ends with 08P01): no COPY there.
    if (!manager.queryRunner || !(await isPostgresServer(manager))) return false;
    const [{ found }] = await runNamed<{ found: boolean }>(manager, STATEMENTS.anyFrom, [this.chainId, block]);
    return !found;
  }

  /** By log, the decoded events of the rows inserted now (all when `inserted` is null); unreadable ones are reported. */
  private freshEvents(rows: DecodedRow[], inserted: Set<string> | null): Map<RawLog, IndexedEvent | null> {
    const fresh = new Map<RawLog, IndexedEvent | null>();
    for (const { log, decoded, timestamp } of rows) {
      if (inserted && !inserted.has(logKey(log))) continue; // seen before: a replayed range changes nothing
      if (decoded.status !== IndexedEventStatus.APPLIED) {
        this.logger.warn("skipped a log the indexer cannot read", {
          chainId: this.chainId,
          contract: log.address,
          txHash: log.txHash,
          logIndex: log.logIndex,
          status: decoded.status,
          reason: decoded.reason,
        });
        fresh.set(log, null);
        continue;
      }
      fresh.set(log, {
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
    return fresh;
  }

  async storeBlocks(manager: EntityManager, headers: BlockHeader[]): Promise<void> {
    if (headers.length === 0) return;
    await runNamed(manager, STATEMENTS.storeBlocks, [
      this.chainId,
      headers.map((header) => header.number),
      headers.map((header) => header.hash),
      headers.map((header) => header.parentHash),
      headers.map((header) => header.timestamp),
    ]);
  }

  /** Stored headers at or below `block`, newest first: the candidates for a reorg's common ancestor. */
  async blocksDownFrom(manager: EntityManager, block: number): Promise<Array<{ number: number; hash: string }>> {
    const rows: Array<{ number: string; hash: string }> = await manager.query(
      `SELECT number, hash FROM indexer_block WHERE chain_id = $1 AND number <= $2 ORDER BY number DESC`,
      [this.chainId, block],
    );
    return rows.map((row) => ({ number: Number(row.number), hash: row.hash }));
  }

  /** Forgets the raw events and headers of every block above `ancestor` (they left the chain). */
  async dropAbove(manager: EntityManager, ancestor: number): Promise<void> {
    await manager.query(`DELETE FROM indexer_event WHERE chain_id = $1 AND block_number > $2`, [this.chainId, ancestor]);
    await manager.query(`DELETE FROM indexer_block WHERE chain_id = $1 AND number > $2`, [this.chainId, ancestor]);
  }

  async readCursor(manager: EntityManager): Promise<Cursor | null> {
    const [row] = await runNamed<{ block_number: string; block_hash: string }>(manager, STATEMENTS.readCursor, [this.chainId]);
    return row ? { blockNumber: Number(row.block_number), blockHash: row.block_hash } : null;
  }

  async writeCursor(manager: EntityManager, blockNumber: number, blockHash: string): Promise<void> {
    await runNamed(manager, STATEMENTS.writeCursor, [this.chainId, blockNumber, blockHash]);
  }

  /** The lowest block a reorg may roll back to: blocks at or below it were applied without, or pruned from, the undo log. */
  async undoFloor(manager: EntityManager): Promise<number> {
    const [{ undo_from: undoFrom }] = await manager.query(`SELECT undo_from FROM indexer_cursor WHERE chain_id = $1`, [this.chainId]);
    return Number(undoFrom);
  }

  async raiseUndoFloor(manager: EntityManager, floor: number): Promise<void> {
    await runNamed(manager, STATEMENTS.raiseUndoFloor, [this.chainId, floor]);
  }
}
