import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { from as copyFrom } from "pg-copy-streams";
import type { EntityManager } from "typeorm";

import { transactionClient } from "./prepared";

/**
 * The raw rows of a batch by PostgreSQL's COPY (pg-copy-streams) instead of an INSERT of unnested arrays: the server
 * writes them with its multi-row insert and parses no arrays, about a quarter less of its CPU for these rows, and the
 * client sends plain text lines (docs/performance.md, "Indexer backfill"). COPY has no ON CONFLICT, so RawLogStore
 * uses it only where no row can conflict, and inside a savepoint, so a conflict after all falls back to the INSERT.
 */

/** One raw row in `indexer_event`'s column order (COPY_COLUMNS). */
export interface RawRow {
  blockNumber: number;
  blockHash: string;
  timestamp: Date;
  txHash: string;
  logIndex: number;
  address: string;
  name: string | null;
  /** JSON text, or null. */
  args: string | null;
  /** Null, with `data`, where the args give back the log exactly (decode.ts, `argsImplyLog`). */
  topics: string[] | null;
  data: string | null;
  status: string;
}

const COPY_COLUMNS = "chain_id, block_number, block_hash, block_timestamp, tx_hash, log_index, address, name, args, topics, data, status";
/** Rows per piece of the stream: each piece is one string, so none grows to the whole batch. */
const PIECE_ROWS = 2_000;
const UNIQUE_VIOLATION = "23505";
const SAVEPOINT = "indexer_raw_copy";

/** A COPY text field: backslash, tab and line ends escaped (JSON text already escapes its control characters). */
function field(value: string | null): string {
  if (value === null) return "\\N";
  return /[\\\t\n\r]/.test(value) ? value.replace(/[\\\t\n\r]/g, (ch) => ESCAPES[ch]) : value;
}
const ESCAPES: Record<string, string> = { "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r" };

/** A text[] literal; topics are hex, quoted only if not (so no element is ever read as NULL or split). */
function arrayField(items: string[] | null): string {
  if (items === null) return "\\N";
  const quoted = items.map((item) => (/^0x[0-9a-fA-F]*$/.test(item) ? item : `"${item.replace(/[\\"]/g, (ch) => `\\${ch}`)}"`));
  return field(`{${quoted.join(",")}}`);
}

function* pieces(chainId: number, rows: RawRow[]): Generator<string> {
  for (let start = 0; start < rows.length; start += PIECE_ROWS) {
    let piece = "";
    for (const row of rows.slice(start, start + PIECE_ROWS)) {
      piece += `${chainId}\t${row.blockNumber}\t${field(row.blockHash)}\t${row.timestamp.toISOString()}\t${field(row.txHash)}\t${row.logIndex}\t${field(
        row.address,
      )}\t${field(row.name)}\t${field(row.args)}\t${arrayField(row.topics)}\t${field(row.data)}\t${field(row.status)}\n`;
    }
    yield piece;
  }
}

/**
 * Copies `rows` into `indexer_event` on the manager's own connection and transaction (the leader's: fencing holds).
 * Answers false, with nothing written, when a row was there already (a unique violation): the caller then inserts
 * them with ON CONFLICT.
 */
export async function copyRawRows(manager: EntityManager, chainId: number, rows: RawRow[]): Promise<boolean> {
  const client = await transactionClient(manager);
  await manager.query(`SAVEPOINT ${SAVEPOINT}`);
  try {
    await pipeline(Readable.from(pieces(chainId, rows)), client.query(copyFrom(`COPY indexer_event (${COPY_COLUMNS}) FROM STDIN`)));
  } catch (error) {
    if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
    await manager.query(`ROLLBACK TO SAVEPOINT ${SAVEPOINT}`);
    return false;
  }
  await manager.query(`RELEASE SAVEPOINT ${SAVEPOINT}`);
  return true;
}
