import { ApiProperty } from "@nestjs/swagger";

/** One served chain's indexer, as this process sees it. */
export class ChainIndexerStatusDto {
  @ApiProperty({ description: "A chain this API serves.", example: 31337 }) chainId!: number;
  @ApiProperty({ description: "Whether this process runs an indexer for the chain (API_ROLES has index; one API worker only).", example: true })
  running!: boolean;
  @ApiProperty({ description: "Whether this process holds the chain's indexing leadership (only the leader indexes).", example: true })
  leader!: boolean;
  @ApiProperty({ type: Number, nullable: true, description: "The last block indexed; null before the indexer read it.", example: 1842 })
  cursor!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: "The chain's head as the indexer last read it; null before that.", example: 1842 })
  head!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: "Blocks between the confirmed head and the cursor.", example: 0 })
  lagBlocks!: number | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: "Age in seconds of the last indexed block while the index is behind; 0 when caught up.",
    example: 0,
  })
  lagSeconds!: number | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: "When this process last applied a batch (ISO 8601).",
    example: "2026-11-23T20:00:00.000Z",
  })
  lastBatchAt!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description:
      "Set while the indexer's steps fail, null once they succeed. It says that they fail, never the error's text (which may name a node's or the database's host): the API log has it.",
    example: null,
  })
  lastError!: string | null;
  @ApiProperty({ description: "Events indexed by this process since it started.", example: 120 }) eventsIndexed!: number;
  @ApiProperty({ description: "Reorgs rolled back by this process since it started.", example: 0 }) reorgs!: number;
  @ApiProperty({ description: "Indexer steps that failed since it started (each is retried).", example: 0 }) failedSteps!: number;
}

/** What /status reports: every served chain's indexer. */
export class StatusDto {
  @ApiProperty({ type: [ChainIndexerStatusDto], description: "Every chain this API serves, in configuration order." })
  chains!: ChainIndexerStatusDto[];
}
