import { Column, Entity, Index, JoinColumn, ManyToOne } from "typeorm";

import { TicketStatus } from "../enums";
import { safeIntegerTransformer } from "../transformers";
import { TimestampedEntity } from "./base.entity";
import { RoundEntity } from "./round.entity";

/** One minted raffle ticket (ERC721 token of the round's ticket contract). */
@Entity({ name: "ticket" })
@Index(["contractId", "tokenId"], { unique: true })
@Index(["account"])
@Index(["roundId", "buyer"])
export class TicketEntity extends TimestampedEntity {
  /** The ticket contract: always its round's (`RoundEntity.ticketContractId`), which the foreign key below holds. */
  @Column({ type: "integer" })
  contractId!: number;

  @Column({ type: "integer" })
  roundId!: number;

  /**
   * One foreign key for both columns: the round, and that its ticket contract is this ticket's. Two keys (to the
   * contract and to the round) cost a lookup each per ticket written, a third to a half of its insert
   * (TicketRoundContractKey1765200000000); deleting the contract still deletes the round and so its tickets.
   */
  @ManyToOne(() => RoundEntity, { onDelete: "CASCADE" })
  @JoinColumn([
    { name: "round_id", referencedColumnName: "id", foreignKeyConstraintName: "FK_ticket_round_contract" },
    { name: "contract_id", referencedColumnName: "ticketContractId", foreignKeyConstraintName: "FK_ticket_round_contract" },
  ])
  round?: RoundEntity;

  @Column({ type: "numeric", precision: 78, scale: 0 })
  tokenId!: string;

  /** Serial number of the ticket in its round, from 1. */
  @Column({ type: "integer" })
  serial!: number;

  /** Current owner: the buyer, then whoever the ticket was transferred to. */
  @Column({ type: "varchar", length: 42 })
  account!: string;

  /** The account that bought the ticket. */
  @Column({ type: "varchar", length: 42 })
  buyer!: string;

  @Column({ type: "numeric", precision: 78, scale: 0 })
  externalId!: string;

  @Column({ type: "boolean", default: false })
  isPrize!: boolean;

  @Column({ type: "enum", enum: TicketStatus, default: TicketStatus.ACTIVE })
  ticketStatus!: TicketStatus;

  @Column({ type: "varchar", length: 66 })
  txHash!: string;

  /** Price tier it was bought at: 0 = the round's price, i = the round's i-th bundle (RaffleTicket.tierOf). */
  @Column({ type: "integer", default: 0 })
  tier!: number;

  /** What this ticket paid (its tier's price per ticket), smallest units: what a refund pays back. */
  @Column({ type: "numeric", precision: 78, scale: 0, default: "0" })
  paidAmount!: string;

  @Column({ type: "bigint", transformer: safeIntegerTransformer, select: false })
  indexedBlock!: number;
}
