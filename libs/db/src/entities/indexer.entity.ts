import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from "typeorm";

import { IndexedEventStatus } from "../enums";
import { safeIntegerTransformer } from "../transformers";

/** How far the indexer has applied a chain: every block up to `blockNumber` (hash `blockHash`). */
@Entity({ name: "indexer_cursor" })
export class IndexerCursorEntity {
  @PrimaryColumn({ type: "integer" })
  chainId!: number;

  @Column({ type: "bigint", transformer: safeIntegerTransformer })
  blockNumber!: number;

  @Column({ type: "varchar", length: 66 })
  blockHash!: string;

  /** The lowest block a reorg can be undone to (see the indexer's undo log); -1 while every block can be. */
  @Column({ type: "bigint", default: -1, transformer: safeIntegerTransformer })
  undoFrom!: number;

  @UpdateDateColumn({ type: "timestamptz" })
  updatedAt!: Date;
}

/** Hashes of the blocks the indexer relied on, to detect reorgs and find the common ancestor. */
@Entity({ name: "indexer_block" })
export class IndexerBlockEntity {
  @PrimaryColumn({ type: "integer" })
  chainId!: number;

  @PrimaryColumn({ type: "bigint", transformer: safeIntegerTransformer })
  number!: number;

  @Column({ type: "varchar", length: 66 })
  hash!: string;

  @Column({ type: "varchar", length: 66 })
  parentHash!: string;

  @Column({ type: "timestamptz" })
  timestamp!: Date;
}

/**
 * Raw log of every event of a registered contract. Its key, (chainId, blockNumber, txHash, logIndex), makes replays
 * harmless and, block first, also serves the lookups by block (RawEventsBlockKey1765400000000).
 */
@Entity({ name: "indexer_event" })
@Check("CHK_indexer_event_args_or_raw", `"args" IS NOT NULL OR ("topics" IS NOT NULL AND "data" IS NOT NULL)`)
// Only the draw events: the player API's draw lookups are this index's one reader.
@Index("IDX_indexer_event_draws", ["chainId", "address", "name"], { where: `"name" IN ('WinnersDrawn', 'RandomnessReceived')` })
export class IndexerEventEntity {
  @CreateDateColumn({ type: "timestamptz" })
  createdAt!: Date;

  @PrimaryColumn({ type: "integer" })
  chainId!: number;

  @PrimaryColumn({ type: "bigint", transformer: safeIntegerTransformer })
  blockNumber!: number;

  @Column({ type: "varchar", length: 66 })
  blockHash!: string;

  @Column({ type: "timestamptz" })
  blockTimestamp!: Date;

  @PrimaryColumn({ type: "varchar", length: 66 })
  txHash!: string;

  @PrimaryColumn({ type: "integer" })
  logIndex!: number;

  @Column({ type: "varchar", length: 42 })
  address!: string;

  /** Decoded event name; null when the log is unknown or malformed. */
  @Column({ type: "varchar", length: 64, nullable: true })
  name!: string | null;

  /** Decoded arguments with big integers as decimal strings. */
  @Column({ type: "jsonb", nullable: true })
  args!: Record<string, unknown> | null;

  /** The log's topics and data; null where the args give them back exactly (RawEventsArgsOnly1765000000000). */
  @Column({ type: "text", array: true, nullable: true })
  topics!: string[] | null;

  @Column({ type: "text", nullable: true })
  data!: string | null;

  @Column({ type: "enum", enum: IndexedEventStatus })
  status!: IndexedEventStatus;
}
