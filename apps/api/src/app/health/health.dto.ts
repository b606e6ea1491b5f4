import { ApiProperty } from "@nestjs/swagger";

export class HealthDto {
  @ApiProperty({ enum: ["ok"], description: "Always `ok`: the process answers.", example: "ok" })
  status!: "ok";
}

class ChainReadinessDto {
  @ApiProperty({ description: "The chain served (CHAIN_ID).", example: 31337 }) chainId!: number;
  @ApiProperty({ type: Number, nullable: true, description: "The node's latest block; null while it does not answer.", example: 1842 })
  head!: number | null;
}

class SignerReadinessDto {
  @ApiProperty({ description: "The API's voucher key.", example: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" }) address!: string;
  @ApiProperty({
    enum: ["authorized", "unauthorized", "unverified"],
    description: "Whether it holds SIGNER_ROLE on the Exchange.",
    example: "authorized",
  })
  status!: "authorized" | "unauthorized" | "unverified";
}

class IndexerReadinessDto {
  @ApiProperty({ type: Number, nullable: true, description: "Blocks between the confirmed head and the index; null when unknown.", example: 0 })
  lag!: number | null;
  @ApiProperty({ description: "Whether this process runs the chain's indexer (holds its leadership lock).", example: true }) leader!: boolean;
}

/** What /ready reports when every dependency holds. */
export class ReadinessDto {
  @ApiProperty({ enum: ["ready"], description: "Always `ready` in a 200 answer; otherwise 503 notReady.", example: "ready" }) status!: "ready";
  @ApiProperty({ enum: ["up", "down"], description: "Whether the database answers.", example: "up" }) database!: "up" | "down";
  @ApiProperty({ enum: ["up", "down", "notConfigured"], description: "Redis of the rate limiter (REDIS_URL).", example: "notConfigured" })
  redis!: "up" | "down" | "notConfigured";
  @ApiProperty({ type: ChainReadinessDto }) chain!: ChainReadinessDto;
  @ApiProperty({ type: SignerReadinessDto }) signer!: SignerReadinessDto;
  @ApiProperty({ type: IndexerReadinessDto }) indexer!: IndexerReadinessDto;
}
