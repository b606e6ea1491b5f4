import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from "typeorm";

import { MerchantEntity } from "./merchant.entity";

/**
 * A merchant's console session after Sign-In with Ethereum with the wallet on its merchant record: it acts for that one
 * merchant, like its API keys. Only the SHA-256 of its bearer token (`ms_...`) is stored; logout sets `revokedAt`.
 */
@Entity({ name: "merchant_session" })
@Index(["tokenHash"], { unique: true })
export class MerchantSessionEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @CreateDateColumn({ type: "timestamptz" })
  createdAt!: Date;

  @Column({ type: "varchar", length: 64 })
  tokenHash!: string;

  @Column({ type: "integer" })
  merchantId!: number;

  @ManyToOne(() => MerchantEntity, { onDelete: "CASCADE" })
  @JoinColumn({ name: "merchant_id" })
  merchant?: MerchantEntity;

  /** EIP-55 address that signed in: the merchant's wallet. */
  @Column({ type: "varchar", length: 42 })
  address!: string;

  /** The chain id of the signed message. */
  @Column({ type: "integer" })
  chainId!: number;

  @Column({ type: "timestamptz" })
  expiresAt!: Date;

  @Column({ type: "timestamptz", nullable: true })
  revokedAt!: Date | null;
}
