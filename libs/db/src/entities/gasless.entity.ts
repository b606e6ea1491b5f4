import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from "typeorm";

import { safeIntegerTransformer } from "../transformers";

/** One transaction a relayer sent for a gasless request: a resend (same nonce, higher fee) adds one. */
export interface GaslessAttempt {
  txHash: string;
  nonce: number;
  maxFeePerGas: string;
  maxPriorityFeePerGas: string;
  sentAt: string;
}

/**
 * A signed purchase, claim or refund waiting in the API's mailbox for the merchant's relayer (issue #52). The API
 * builds `calldata` from the validated request; a relayer leases the row (`leaseHolder` until `leaseExpiresAt`),
 * reports each transaction it sends (`attempts`) and the outcome, which the API verifies from the receipt.
 */
@Entity({ name: "gasless_request" })
@Index(["voucherNonce"], { unique: true })
@Index(["intentDigest"], { unique: true })
@Index(["merchantId", "chainId", "state", "createdAt"])
@Index(["account", "createdAt"])
export class GaslessRequestEntity {
  @PrimaryColumn({ type: "uuid" })
  id!: string;

  @CreateDateColumn({ type: "timestamptz" })
  createdAt!: Date;

  @UpdateDateColumn({ type: "timestamptz" })
  updatedAt!: Date;

  /** purchase, claim or refund. */
  @Column({ type: "varchar", length: 16 })
  kind!: string;

  /** queued, sent, mined or failed. */
  @Column({ type: "varchar", length: 16 })
  state!: string;

  @Column({ type: "integer" })
  chainId!: number;

  /** The raffle contract. */
  @Column({ type: "integer" })
  contractId!: number;

  @Column({ type: "integer" })
  merchantId!: number;

  /** The buyer, or the tickets' holder. */
  @Column({ type: "varchar", length: 42 })
  account!: string;

  /** A purchase's voucher nonce: one request per voucher. Null for claims and refunds. */
  @Column({ type: "varchar", length: 66, nullable: true })
  voucherNonce!: string | null;

  /** A claim's or refund's EIP-712 intent digest: one request per signed intent. Null for purchases. */
  @Column({ type: "varchar", length: 66, nullable: true })
  intentDigest!: string | null;

  /** Tickets a purchase buys; null for claims and refunds. */
  @Column({ type: "integer", nullable: true })
  quantity!: number | null;

  /** The Exchange the transaction goes to, and its calldata. */
  @Column({ type: "varchar", length: 42 })
  target!: string;

  @Column({ type: "text" })
  calldata!: string;

  /** Unix seconds after which the transaction can only fail (the voucher's or intent's deadline). */
  @Column({ type: "bigint", transformer: safeIntegerTransformer })
  notAfter!: number;

  @Column({ type: "varchar", length: 64, nullable: true })
  leaseHolder!: string | null;

  @Column({ type: "timestamptz", nullable: true })
  leaseExpiresAt!: Date | null;

  @Column({ type: "jsonb", default: [] })
  attempts!: GaslessAttempt[];

  @Column({ type: "varchar", length: 66, nullable: true })
  txHash!: string | null;

  /** gasUsed × effectiveGasPrice of the mined transaction, wei: what it cost the merchant's daily budget. */
  @Column({ type: "numeric", precision: 78, scale: 0, nullable: true })
  gasCostWei!: string | null;

  @Column({ type: "timestamptz", nullable: true })
  minedAt!: Date | null;

  /** Ticket ids (decimal strings) the purchase minted, or those the claim or refund settled. */
  @Column({ type: "jsonb", default: [] })
  ticketIds!: string[];

  @Column({ type: "varchar", length: 64, nullable: true })
  failureCode!: string | null;
}

/** A merchant's gasless relaying: whether it relays, its daily gas budget and how many purchases a player may relay a day. */
@Entity({ name: "gasless_settings" })
export class GaslessSettingsEntity {
  @PrimaryColumn({ type: "integer" })
  merchantId!: number;

  @UpdateDateColumn({ type: "timestamptz" })
  updatedAt!: Date;

  @Column({ type: "boolean", default: false })
  enabled!: boolean;

  @Column({ type: "numeric", precision: 78, scale: 0, default: "0" })
  dailyGasBudgetWei!: string;

  @Column({ type: "integer", default: 20 })
  perPlayerDailyLimit!: number;
}

/** When a merchant's relayer last asked for jobs on a chain: the raffle reads offer gasless only while one does. */
@Entity({ name: "gasless_relayer" })
export class GaslessRelayerEntity {
  @PrimaryColumn({ type: "integer" })
  merchantId!: number;

  @PrimaryColumn({ type: "integer" })
  chainId!: number;

  @PrimaryColumn({ type: "varchar", length: 64 })
  relayerId!: string;

  @Column({ type: "timestamptz" })
  lastSeenAt!: Date;
}
