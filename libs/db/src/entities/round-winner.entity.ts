import { Column, Entity, Index, JoinColumn, ManyToOne } from "typeorm";

import { PrizeClaimStatus } from "../enums";
import { safeIntegerTransformer } from "../transformers";
import { TimestampedEntity } from "./base.entity";
import { RoundEntity } from "./round.entity";

/** One winner position of a drawn round (on-chain `getWinners`), projected from `WinnersDrawn`. */
@Entity({ name: "round_winner" })
@Index(["roundId", "position"], { unique: true })
export class RoundWinnerEntity extends TimestampedEntity {
  @Column({ type: "integer" })
  roundId!: number;

  @ManyToOne(() => RoundEntity, { onDelete: "CASCADE" })
  @JoinColumn({ name: "round_id" })
  round?: RoundEntity;

  /** 0 = first prize. */
  @Column({ type: "integer" })
  position!: number;

  /** The winning ticket's on-chain id. */
  @Column({ type: "numeric", precision: 78, scale: 0 })
  ticketId!: string;

  /** Who held the winning ticket when it was drawn, then whoever it was transferred to while the prize is open. */
  @Column({ type: "varchar", length: 42 })
  account!: string;

  /** Basis points of the pot. */
  @Column({ type: "integer" })
  share!: number;

  /** What the position pays before commission: pot x share / 10,000; the first also takes the rounding remainder. */
  @Column({ type: "numeric", precision: 78, scale: 0 })
  amount!: string;

  @Column({ type: "enum", enum: PrizeClaimStatus, default: PrizeClaimStatus.UNCLAIMED })
  claimStatus!: PrizeClaimStatus;

  @Column({ type: "bigint", transformer: safeIntegerTransformer, select: false })
  indexedBlock!: number;
}
