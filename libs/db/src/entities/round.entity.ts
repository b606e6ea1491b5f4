import { Column, Entity, Index, JoinColumn, ManyToOne, Unique } from "typeorm";

import { RoundStatus } from "../enums";
import { safeIntegerTransformer } from "../transformers";
import { TimestampedEntity } from "./base.entity";
import { ContractEntity } from "./contract.entity";
import { PriceEntity } from "./price.entity";

/**
 * Spec 2.3: one on-chain round of a raffle. `id` is what buyers pass as `externalId`; `roundId` is the on-chain id
 * as a decimal string. `ticketCount` is kept in step with minted tickets by the indexer.
 */
@Entity({ name: "round" })
@Index(["contractId", "roundId"], { unique: true })
// What a ticket's one foreign key refers to: its round and that round's ticket contract (TicketEntity).
@Unique("UQ_round_id_ticket_contract", ["id", "ticketContractId"])
export class RoundEntity extends TimestampedEntity {
  @Column({ type: "integer", nullable: true })
  number!: number | null;

  @Column({ type: "numeric", precision: 78, scale: 0 })
  roundId!: string;

  @Column({ type: "integer" })
  contractId!: number;

  @ManyToOne(() => ContractEntity, { onDelete: "CASCADE" })
  @JoinColumn({ name: "contract_id" })
  contract?: ContractEntity;

  @Column({ type: "integer" })
  ticketContractId!: number;

  @ManyToOne(() => ContractEntity, { onDelete: "CASCADE" })
  @JoinColumn({ name: "ticket_contract_id" })
  ticketContract?: ContractEntity;

  @Column({ type: "integer" })
  priceId!: number;

  @ManyToOne(() => PriceEntity, { onDelete: "RESTRICT" })
  @JoinColumn({ name: "price_id" })
  price?: PriceEntity;

  /** Ticket cap; 0 means no cap. bigint because the contract allows up to 2^32 - 1. */
  @Column({ type: "bigint", transformer: safeIntegerTransformer })
  maxTickets!: number;

  @Column({ type: "timestamptz" })
  startTimestamp!: Date;

  @Column({ type: "timestamptz", nullable: true })
  endTimestamp!: Date | null;

  @Column({ type: "integer", default: 0 })
  ticketCount!: number;

  @Column({ type: "enum", enum: RoundStatus, default: RoundStatus.ACTIVE })
  roundStatus!: RoundStatus;

  /** On-chain id of the first ticket of the round; ticket ids of a round are contiguous. */
  @Column({ type: "numeric", precision: 78, scale: 0 })
  firstTicketId!: string;

  @Column({ type: "numeric", precision: 78, scale: 0, nullable: true })
  winningTicketId!: string | null;

  @Column({ type: "timestamptz", nullable: true })
  drawnAt!: Date | null;

  @Column({ type: "numeric", precision: 78, scale: 0, nullable: true })
  vrfRequestId!: string | null;

  /** What the round's tickets paid, in the price token's smallest unit (bundles make it less than count x price). */
  @Column({ type: "numeric", precision: 78, scale: 0, default: "0" })
  pot!: string;

  /** The VRF word the winners follow from; null until it arrives, "0" when a single ticket won outright. */
  @Column({ type: "numeric", precision: 78, scale: 0, nullable: true })
  randomWord!: string | null;

  /** Why the round became refundable: MINIMUM_NOT_REACHED, DRAW_REFUSED or RANDOMNESS_TIMEOUT; null otherwise. */
  @Column({ type: "varchar", length: 32, nullable: true })
  refundReason!: string | null;

  // The round's rules (RoundRulesApplied), fixed when it started; the defaults are the contract's version 0.

  @Column({ type: "integer", default: 0 })
  rulesVersion!: number;

  /** Basis points of the pot per winner position, first prize first; summing to 10,000. */
  @Column({ type: "jsonb", default: [10000] })
  prizeShares!: number[];

  /** A round ending below it (or below its number of winners) is refundable; 0 = no minimum. */
  @Column({ type: "bigint", default: 0, transformer: safeIntegerTransformer })
  minTickets!: number;

  /** Most tickets one buyer may buy in the round; 0 = no cap. */
  @Column({ type: "bigint", default: 0, transformer: safeIntegerTransformer })
  maxTicketsPerWallet!: number;

  /** Quantities sold at their own total price (decimal string), by increasing quantity. */
  @Column({ type: "jsonb", default: [] })
  bundles!: RoundBundle[];

  @Column({ type: "bigint", transformer: safeIntegerTransformer, select: false })
  indexedBlock!: number;
}

/** A bundle of round rules: `quantity` tickets for `price` in all (smallest units, decimal string). */
export interface RoundBundle {
  quantity: number;
  price: string;
}
