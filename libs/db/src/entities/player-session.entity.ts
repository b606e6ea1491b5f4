import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn } from "typeorm";

import type { SignInPurpose } from "../siwe";

/**
 * A single-use Sign-In with Ethereum nonce (EIP-4361): issued by the API, consumed by the one sign-in that quotes it.
 * In the database rather than in memory, so any API replica can verify a nonce another one issued.
 */
@Entity({ name: "siwe_nonce" })
@Index(["expiresAt"])
export class SiweNonceEntity {
  @PrimaryColumn({ type: "varchar", length: 32 })
  nonce!: string;

  @CreateDateColumn({ type: "timestamptz" })
  createdAt!: Date;

  @Column({ type: "timestamptz" })
  expiresAt!: Date;

  @Column({ type: "timestamptz", nullable: true })
  usedAt!: Date | null;

  /** The route that issued it, the only one that may consume it. */
  @Column({ type: "varchar", length: 16, default: "player" })
  purpose!: SignInPurpose;
}

/**
 * A player's session after Sign-In with Ethereum: scoped to one address. Only the SHA-256 of its bearer token is
 * stored; logout sets `revokedAt`.
 */
@Entity({ name: "player_session" })
@Index(["tokenHash"], { unique: true })
export class PlayerSessionEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @CreateDateColumn({ type: "timestamptz" })
  createdAt!: Date;

  @Column({ type: "varchar", length: 64 })
  tokenHash!: string;

  /** EIP-55 address the session speaks for. */
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
