import { Column, Entity, Index, JoinColumn, ManyToOne } from "typeorm";

import { RoundItemStatus } from "../enums";
import { safeIntegerTransformer } from "../transformers";
import { TimestampedEntity } from "./base.entity";
import { RoundEntity } from "./round.entity";

/**
 * One item prize a round holds in escrow (issue #53): an ERC721 token, an ERC1155 id and amount or an ERC20 amount,
 * pulled from the merchant at `startRound` (`ItemsEscrowed`), then sent to its position's winner (`ItemClaimed`) or
 * back to the merchant (`ItemReturned`).
 */
@Entity({ name: "round_item" })
@Index(["roundId", "position"], { unique: true })
export class RoundItemEntity extends TimestampedEntity {
  @Column({ type: "integer" })
  roundId!: number;

  @ManyToOne(() => RoundEntity, { onDelete: "CASCADE" })
  @JoinColumn({ name: "round_id" })
  round?: RoundEntity;

  /** 1 = first prize, as the contract counts item positions. */
  @Column({ type: "integer" })
  position!: number;

  /** ERC721, ERC1155 or ERC20. */
  @Column({ type: "varchar", length: 16 })
  tokenType!: string;

  @Column({ type: "varchar", length: 42 })
  token!: string;

  /** 0 for an ERC20. */
  @Column({ type: "numeric", precision: 78, scale: 0 })
  tokenId!: string;

  /** Smallest units; 1 for an ERC721. */
  @Column({ type: "numeric", precision: 78, scale: 0 })
  amount!: string;

  /** Whom the item came from and goes back to. */
  @Column({ type: "varchar", length: 42 })
  merchant!: string;

  @Column({ type: "enum", enum: RoundItemStatus, default: RoundItemStatus.ESCROWED })
  status!: RoundItemStatus;

  /** The winning ticket of the position, once drawn. */
  @Column({ type: "numeric", precision: 78, scale: 0, nullable: true })
  ticketId!: string | null;

  /** Who received the item when it was claimed. */
  @Column({ type: "varchar", length: 42, nullable: true })
  claimedBy!: string | null;

  /** The transaction of the item's last move: its escrow, claim or return. */
  @Column({ type: "varchar", length: 66 })
  txHash!: string;

  /** The last transfer that failed since that move (`ItemTransferFailed`): to whom, the revert data and its transaction. */
  @Column({ type: "varchar", length: 42, nullable: true })
  failedTo!: string | null;

  @Column({ type: "text", nullable: true })
  failedReason!: string | null;

  @Column({ type: "varchar", length: 66, nullable: true })
  failedTxHash!: string | null;

  @Column({ type: "bigint", transformer: safeIntegerTransformer, select: false })
  indexedBlock!: number;
}
