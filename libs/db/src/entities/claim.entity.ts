import { Column, Entity, Index, JoinColumn, ManyToOne } from "typeorm";

import { ClaimStatus, ClaimType } from "../enums";
import { safeIntegerTransformer } from "../transformers";
import { TimestampedEntity } from "./base.entity";
import { MerchantEntity } from "./merchant.entity";

/** An asset of a claim, in the shape of a price component. */
export interface ClaimItem {
  tokenType: string;
  token: string;
  tokenId: string;
  amount: string;
}

/** What an account can claim: a raffle prize or a ticket's refund (from the indexer), or a merchant voucher. */
@Entity({ name: "claim" })
@Index(["merchantId", "account", "createdAt"])
// One prize claim per winning ticket and one refund claim per ticket: a raffle's ticket ids are unique across its rounds.
@Index("UQ_claim_raffle_ticket", ["contractId", "tokenId", "claimType"], { unique: true, where: `"claim_type" <> 'VOUCHER'` })
@Index("UQ_claim_nonce", ["nonce"], { unique: true, where: `"nonce" IS NOT NULL` })
export class ClaimEntity extends TimestampedEntity {
  @Column({ type: "varchar", length: 42 })
  account!: string;

  @Column({ type: "integer" })
  merchantId!: number;

  @ManyToOne(() => MerchantEntity, { onDelete: "CASCADE" })
  @JoinColumn({ name: "merchant_id" })
  merchant?: MerchantEntity;

  @Column({ type: "enum", enum: ClaimType })
  claimType!: ClaimType;

  @Column({ type: "enum", enum: ClaimStatus, default: ClaimStatus.NEW })
  claimStatus!: ClaimStatus;

  @Column({ type: "jsonb", default: [] })
  items!: ClaimItem[];

  @Column({ type: "timestamptz", nullable: true })
  endTimestamp!: Date | null;

  /** For prizes and refunds: the raffle contract row, the round row and the ticket's on-chain id. */
  @Column({ type: "integer", nullable: true })
  contractId!: number | null;

  @Column({ type: "integer", nullable: true })
  roundId!: number | null;

  @Column({ type: "numeric", precision: 78, scale: 0, nullable: true })
  tokenId!: string | null;

  /** For vouchers: what the client passes to the Exchange. */
  @Column({ type: "varchar", length: 66, nullable: true })
  nonce!: string | null;

  @Column({ type: "text", nullable: true })
  signature!: string | null;

  @Column({ type: "bigint", nullable: true, transformer: safeIntegerTransformer })
  expiresAt!: number | null;

  @Column({ type: "jsonb", default: {} })
  parameters!: Record<string, unknown>;

  /** When the merchant withdrew a voucher that was not redeemed yet. */
  @Column({ type: "timestamptz", nullable: true })
  canceledAt!: Date | null;

  /** The transaction that redeemed the claim on-chain. */
  @Column({ type: "varchar", length: 66, nullable: true })
  redeemedTxHash!: string | null;

  @Column({ type: "bigint", nullable: true, transformer: safeIntegerTransformer, select: false })
  indexedBlock!: number | null;
}
