import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from "typeorm";

import { safeIntegerTransformer } from "../transformers";

/** Every purchase voucher the API signed: audit trail, rate limiting, and nonce uniqueness. */
@Entity({ name: "ticket_voucher" })
@Index(["nonce"], { unique: true })
@Index(["merchantId", "createdAt"])
export class TicketVoucherEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @CreateDateColumn({ type: "timestamptz" })
  createdAt!: Date;

  @Column({ type: "varchar", length: 66 })
  nonce!: string;

  @Column({ type: "varchar", length: 42 })
  account!: string;

  @Column({ type: "varchar", length: 42 })
  referrer!: string;

  @Column({ type: "integer" })
  merchantId!: number;

  @Column({ type: "integer", nullable: true })
  apiKeyId!: number | null;

  @Column({ type: "integer" })
  contractId!: number;

  @Column({ type: "integer" })
  roundId!: number;

  @Column({ type: "bigint", transformer: safeIntegerTransformer })
  expiresAt!: number;
}
