import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from "typeorm";

import { MerchantEntity } from "./merchant.entity";

/**
 * A merchant API key. The secret is shown once; only its SHA-256 is stored. `prefix` is the public part of the
 * key, used to find the row without scanning hashes.
 */
@Entity({ name: "api_key" })
export class ApiKeyEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @CreateDateColumn({ type: "timestamptz" })
  createdAt!: Date;

  @Index({ unique: true })
  @Column({ type: "varchar", length: 32 })
  prefix!: string;

  @Column({ type: "varchar", length: 64 })
  secretHash!: string;

  @Column({ type: "varchar", length: 255, default: "" })
  label!: string;

  @Column({ type: "integer" })
  merchantId!: number;

  @ManyToOne(() => MerchantEntity, { onDelete: "CASCADE" })
  @JoinColumn({ name: "merchant_id" })
  merchant?: MerchantEntity;

  /** When the key stops working; in the future while a rolled key's grace period runs. */
  @Column({ type: "timestamptz", nullable: true })
  revokedAt!: Date | null;

  /** When the key's right secret was last refused after revocation (to the minute, like `lastUsedAt`). */
  @Column({ type: "timestamptz", nullable: true })
  lastRejectedAt!: Date | null;

  /** When the key last authenticated a request (to the minute: written at most once a minute per key and process). */
  @Column({ type: "timestamptz", nullable: true })
  lastUsedAt!: Date | null;

  /** The User-Agent of the call that wrote `lastUsedAt` (truncated, control characters removed); null if it sent none. */
  @Column({ type: "varchar", length: 200, nullable: true })
  lastUsedUserAgent!: string | null;

  /** The source IP of the call that wrote `lastUsedAt`, as the API's server sees it (the socket's, unless it trusts a proxy). */
  @Column({ type: "varchar", length: 45, nullable: true })
  lastUsedIp!: string | null;
}
