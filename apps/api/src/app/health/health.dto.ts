import { ApiProperty } from "@nestjs/swagger";

import { OptionalChainId } from "../../common/ids";

export class HealthDto {
  @ApiProperty({ enum: ["ok"], description: "Always `ok`: the process answers.", example: "ok" })
  status!: "ok";
}

class SignerReadinessDto {
  @ApiProperty({ description: "The API's voucher key on this chain.", example: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" }) address!: string;
  @ApiProperty({
    enum: ["authorized", "unauthorized", "unverified"],
    description: "Whether it holds SIGNER_ROLE on this chain's Exchange.",
    example: "authorized",
  })
  status!: "authorized" | "unauthorized" | "unverified";
}

class DependencyProblemDto {
  @ApiProperty({ enum: ["chain", "deployment", "signer", "indexer"], description: "The dependency that does not hold.", example: "indexer" })
  field!: string;
  @ApiProperty({ description: "What is wrong, and what to fix.", example: "the index is 14 blocks behind the chain (READY_MAX_LAG_BLOCKS is 10)" })
  message!: string;
}

/** One served chain: its node, its index and its voucher key. */
export class ChainReadinessDto {
  @ApiProperty({ description: "A chain this API serves (CHAIN_IDS, or CHAIN_ID).", example: 31337 }) chainId!: number;
  @ApiProperty({ enum: ["ready", "notReady"], description: "`ready` when every check of this chain holds.", example: "ready" })
  status!: "ready" | "notReady";
  @ApiProperty({ type: Number, nullable: true, description: "The node's latest block; null while it does not answer.", example: 1842 })
  head!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: "The last block indexed; null before the first batch.", example: 1842 })
  cursor!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: "Blocks between the confirmed head and the index; null when unknown.", example: 0 })
  lag!: number | null;
  @ApiProperty({ description: "Whether this process runs the chain's indexer (holds its leadership lock).", example: true }) leader!: boolean;
  @ApiProperty({
    type: String,
    nullable: true,
    description:
      "Set while this process's indexer's steps fail, null once they succeed; says that they fail, never the error's text (the API log has it).",
    example: null,
  })
  lastError!: string | null;
  @ApiProperty({ type: SignerReadinessDto }) signer!: SignerReadinessDto;
  @ApiProperty({
    type: [DependencyProblemDto],
    description: "What does not hold on this chain and which setting to check; never a host, a port or a driver's error text (the API log has them).",
  })
  problems!: DependencyProblemDto[];
}

/** What /ready reports while the API can serve. */
export class ReadinessDto {
  @ApiProperty({
    enum: ["ready", "degraded"],
    description: "`ready` when every chain is ready; `degraded` when some chain is not (its own `status` and `problems` say why).",
    example: "ready",
  })
  status!: "ready" | "degraded";
  @ApiProperty({ enum: ["up", "down"], description: "Whether the database answers.", example: "up" }) database!: "up" | "down";
  @ApiProperty({ enum: ["up", "down", "notConfigured"], description: "Redis of the rate limiter (REDIS_URL).", example: "notConfigured" })
  redis!: "up" | "down" | "notConfigured";
  @ApiProperty({ type: [ChainReadinessDto], description: "Every chain asked about: all served chains, or the one of `chainId`." })
  chains!: ChainReadinessDto[];
}

export class ReadinessQuery {
  @OptionalChainId("Ask about this served chain alone: 503 when it is not ready.", { fromQuery: true })
  chainId?: number;
}
