import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  PrimaryGeneratedColumn,
  Unique,
  UpdateDateColumn,
} from "typeorm";

import { safeIntegerTransformer } from "../transformers";
import { MerchantEntity } from "./merchant.entity";

/**
 * A merchant's webhook endpoint. `secret` (and, during a rotation's grace period, `previousSecret`) is stored
 * encrypted (AES-256-GCM, see the API's webhook secret box), never in clear.
 */
@Entity({ name: "webhook_endpoint" })
export class WebhookEndpointEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @CreateDateColumn({ type: "timestamptz" })
  createdAt!: Date;

  @UpdateDateColumn({ type: "timestamptz" })
  updatedAt!: Date;

  @Index()
  @Column({ type: "integer" })
  merchantId!: number;

  @ManyToOne(() => MerchantEntity, { onDelete: "CASCADE" })
  @JoinColumn({ name: "merchant_id" })
  merchant?: MerchantEntity;

  @Column({ type: "varchar", length: 2048 })
  url!: string;

  @Column({ type: "text", array: true })
  events!: string[];

  @Column({ type: "varchar", length: 500, default: "" })
  description!: string;

  @Column({ type: "text" })
  secret!: string;

  @Column({ type: "text", nullable: true })
  previousSecret!: string | null;

  @Column({ type: "timestamptz", nullable: true })
  previousSecretUntil!: Date | null;

  /** First failed attempt since the last success; an endpoint failing long enough is disabled. */
  @Column({ type: "timestamptz", nullable: true })
  failingSince!: Date | null;

  @Column({ type: "timestamptz", nullable: true })
  disabledAt!: Date | null;

  /** Start of the current one-minute window of manual retries, and how many were made in it (their limit). */
  @Column({ type: "timestamptz", nullable: true })
  manualRetryWindowStart!: Date | null;

  @Column({ type: "integer", default: 0 })
  manualRetries!: number;
}

/**
 * The transactional outbox: one message per (merchant, chain event), written in the indexer's batch transaction.
 * `seq` is the chain order; `body` is the exact JSON that is signed and sent. A reorg adds a `removed` message.
 */
@Entity({ name: "webhook_message" })
@Index(["chainId", "blockNumber"])
@Index(["eventId", "seq"])
export class WebhookMessageEntity {
  @PrimaryColumn({ type: "varchar", length: 64 })
  id!: string;

  @Column({ type: "bigint", generated: "increment" })
  seq!: string;

  @CreateDateColumn({ type: "timestamptz" })
  createdAt!: Date;

  @Column({ type: "integer" })
  merchantId!: number;

  @Column({ type: "varchar", length: 32 })
  type!: string;

  @Column({ type: "boolean" })
  removed!: boolean;

  @Column({ type: "varchar", length: 160 })
  eventId!: string;

  @Column({ type: "integer" })
  chainId!: number;

  @Column({ type: "bigint", transformer: safeIntegerTransformer })
  blockNumber!: number;

  @Column({ type: "text" })
  body!: string;
}

/** One message to one endpoint: attempts, last answer, and when it is next due. */
@Entity({ name: "webhook_delivery" })
@Unique(["endpointId", "messageId"])
@Index(["endpointId", "status", "seq"])
@Index(["status", "nextAttemptAt"])
export class WebhookDeliveryEntity {
  @PrimaryGeneratedColumn({ type: "bigint" })
  id!: string;

  @CreateDateColumn({ type: "timestamptz" })
  createdAt!: Date;

  @Column({ type: "integer" })
  endpointId!: number;

  @ManyToOne(() => WebhookEndpointEntity, { onDelete: "CASCADE" })
  @JoinColumn({ name: "endpoint_id" })
  endpoint?: WebhookEndpointEntity;

  @Column({ type: "varchar", length: 64 })
  messageId!: string;

  @ManyToOne(() => WebhookMessageEntity, { onDelete: "CASCADE" })
  @JoinColumn({ name: "message_id" })
  message?: WebhookMessageEntity;

  /** The message's `seq`, copied so the per-endpoint order needs no join. */
  @Column({ type: "bigint" })
  seq!: string;

  /** PENDING, DELIVERED or FAILED. */
  @Column({ type: "varchar", length: 16, default: "PENDING" })
  status!: string;

  @Column({ type: "integer", default: 0 })
  attempts!: number;

  @Column({ type: "integer", nullable: true })
  lastStatusCode!: number | null;

  @Column({ type: "varchar", length: 300, nullable: true })
  lastError!: string | null;

  @Column({ type: "timestamptz", default: () => "now()" })
  nextAttemptAt!: Date;

  @Column({ type: "timestamptz", nullable: true })
  deliveredAt!: Date | null;

  @Column({ type: "timestamptz", nullable: true })
  failedAt!: Date | null;

  /** When it was last retried by hand: a delivery is retried by hand at most once per WEBHOOK_MANUAL_RETRY_SPACING. */
  @Column({ type: "timestamptz", nullable: true })
  manualRetryAt!: Date | null;

  /** How long the last attempt took, from sending to the answer (or the failure), in milliseconds. */
  @Column({ type: "integer", nullable: true })
  lastLatencyMs!: number | null;
}

/**
 * One attempt of a delivery: when it started, the receiver's HTTP status (null when none came), the start of its answer
 * (its first KiB) or the network error, and how long it took. What a merchant reads to see
 * why an endpoint fails.
 */
@Entity({ name: "webhook_attempt" })
@Index(["deliveryId", "id"])
export class WebhookAttemptEntity {
  @PrimaryGeneratedColumn({ type: "bigint" })
  id!: string;

  @Column({ type: "bigint" })
  deliveryId!: string;

  @ManyToOne(() => WebhookDeliveryEntity, { onDelete: "CASCADE" })
  @JoinColumn({ name: "delivery_id" })
  delivery?: WebhookDeliveryEntity;

  @Column({ type: "timestamptz" })
  attemptedAt!: Date;

  @Column({ type: "integer", nullable: true })
  statusCode!: number | null;

  @Column({ type: "text", nullable: true })
  responseExcerpt!: string | null;

  @Column({ type: "varchar", length: 300, nullable: true })
  error!: string | null;

  @Column({ type: "integer" })
  durationMs!: number;

  /** Made by hand (a manual retry or a test message), not by the delivery loop. */
  @Column({ type: "boolean", default: false })
  manual!: boolean;
}
