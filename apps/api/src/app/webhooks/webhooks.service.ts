import { Inject, Injectable } from "@nestjs/common";
import { ZeroHash } from "ethers";
import { WEBHOOK_EVENT_TYPES, newWebhookMessageId, type WebhookEventType } from "@raffle/indexer";
import type { DataSource } from "typeorm";

import type { ApiConfig } from "../../config/api-config";
import { MAX_WEBHOOKS_PER_MERCHANT } from "../../config/webhook-config";
import { problems } from "../../common/problem";
import { API_CONFIG, DATA_SOURCE } from "../../services/tokens";
import { unwrapRows } from "./delivery.service";
import { SecretBox, newWebhookSecret } from "./secret-box";
import { WebhookUrlError, checkWebhookUrl } from "./url-guard";
import {
  MAX_LISTED_ATTEMPTS,
  WEBHOOK_TEST_TYPE,
  type AttemptDto,
  type CreateWebhookBody,
  type DeliveriesQuery,
  type DeliveryDetailDto,
  type DeliveryDto,
  type DeliveryType,
  type RotatedSecretDto,
  type UpdateWebhookBody,
  type WebhookDto,
  type WebhookWithSecretDto,
} from "./webhooks.dto";

interface EndpointRow {
  id: number;
  url: string;
  events: string[];
  description: string;
  created_at: Date;
  disabled_at: Date | null;
  failing_since: Date | null;
}

const ENDPOINT_COLUMNS = "id, url, events, description, created_at, disabled_at, failing_since";

interface DeliveryRow {
  id: string;
  message_id: string;
  type: DeliveryType;
  removed: boolean;
  event_id: string;
  status: DeliveryDto["status"];
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  last_latency_ms: number | null;
  next_attempt_at: Date;
  delivered_at: Date | null;
  created_at: Date;
}

const DELIVERY_COLUMNS = `d.id, d.message_id, m.type, m.removed, m.event_id, d.status, d.attempts, d.last_status_code, d.last_error,
  d.last_latency_ms, d.next_attempt_at, d.delivered_at, d.created_at`;

interface AttemptRow {
  attempted_at: Date;
  status_code: number | null;
  response_excerpt: string | null;
  error: string | null;
  duration_ms: number;
  manual: boolean;
}

const iso = (value: Date | null): string | null => (value ? new Date(value).toISOString() : null);

export function toWebhookDto(row: EndpointRow): WebhookDto {
  return {
    id: row.id,
    url: row.url,
    events: row.events as WebhookEventType[],
    description: row.description,
    createdAt: new Date(row.created_at).toISOString(),
    disabled: row.disabled_at !== null,
    disabledAt: iso(row.disabled_at),
    failingSince: iso(row.failing_since),
    health: row.disabled_at !== null ? "disabled" : row.failing_since !== null ? "failing" : "healthy",
  };
}

function toAttemptDto(row: AttemptRow): AttemptDto {
  return {
    attemptedAt: new Date(row.attempted_at).toISOString(),
    statusCode: row.status_code,
    responseExcerpt: row.response_excerpt,
    error: row.error,
    durationMs: row.duration_ms,
    manual: row.manual,
  };
}

function toDeliveryDto(row: DeliveryRow): DeliveryDto {
  return {
    id: String(row.id),
    messageId: row.message_id,
    type: row.type,
    removed: row.removed,
    eventId: row.event_id,
    status: row.status,
    attempts: row.attempts,
    lastStatusCode: row.last_status_code,
    lastError: row.last_error,
    latencyMs: row.last_latency_ms,
    nextAttemptAt: row.status === "PENDING" ? iso(row.next_attempt_at) : null,
    delivered: row.status === "DELIVERED",
    deliveredAt: iso(row.delivered_at),
    failed: row.status === "FAILED",
    createdAt: new Date(row.created_at).toISOString(),
  };
}

/** The merchant's webhook endpoints and their deliveries; every query is scoped to the calling merchant. */
@Injectable()
export class WebhooksService {
  private readonly box: SecretBox;

  constructor(
    @Inject(API_CONFIG) private readonly config: ApiConfig,
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
  ) {
    this.box = new SecretBox(config.webhooks.encryptionKey);
  }

  async create(merchantId: number, body: CreateWebhookBody): Promise<WebhookWithSecretDto> {
    const url = await this.acceptedUrl(body.url);
    const secret = newWebhookSecret();
    // Every event is written once per endpoint inside the indexer's transaction: the count is capped, and the
    // merchant's row lock makes concurrent registrations take turns, so none slips past the cap.
    const row = await this.dataSource.transaction(async (manager) => {
      await manager.query(`SELECT id FROM merchant WHERE id = $1 FOR UPDATE`, [merchantId]);
      const [{ count }] = await manager.query(`SELECT count(*)::int AS count FROM webhook_endpoint WHERE merchant_id = $1`, [merchantId]);
      if (count >= MAX_WEBHOOKS_PER_MERCHANT) throw problems.webhookLimitReached(MAX_WEBHOOKS_PER_MERCHANT);
      const [inserted] = await manager.query(
        `INSERT INTO webhook_endpoint (merchant_id, url, events, description, secret) VALUES ($1, $2, $3, $4, $5) RETURNING ${ENDPOINT_COLUMNS}`,
        [merchantId, url, body.events ?? [...WEBHOOK_EVENT_TYPES], body.description ?? "", this.box.seal(secret)],
      );
      return inserted as EndpointRow;
    });
    return { ...toWebhookDto(row), secret };
  }

  async list(merchantId: number, skip: number, take: number): Promise<{ rows: WebhookDto[]; count: number }> {
    const rows: EndpointRow[] = await this.dataSource.query(
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoint WHERE merchant_id = $1 ORDER BY id DESC OFFSET $2 LIMIT $3`,
      [merchantId, skip, take],
    );
    const [{ count }] = await this.dataSource.query(`SELECT count(*)::int AS count FROM webhook_endpoint WHERE merchant_id = $1`, [merchantId]);
    return { rows: rows.map(toWebhookDto), count };
  }

  async get(merchantId: number, id: number): Promise<WebhookDto> {
    return toWebhookDto(await this.row(merchantId, id));
  }

  async remove(merchantId: number, id: number): Promise<WebhookDto> {
    const [row] = unwrapRows<EndpointRow>(
      await this.dataSource.query(`DELETE FROM webhook_endpoint WHERE id = $1 AND merchant_id = $2 RETURNING ${ENDPOINT_COLUMNS}`, [id, merchantId]),
    );
    if (!row) throw problems.webhookNotFound(id);
    return toWebhookDto(row);
  }

  /** A new secret signs from now on; the previous one keeps signing alongside until the grace period ends. */
  async rotateSecret(merchantId: number, id: number): Promise<RotatedSecretDto> {
    const secret = newWebhookSecret();
    const until = new Date(Date.now() + this.config.webhooks.secretGraceMs);
    const [row] = unwrapRows<EndpointRow>(
      await this.dataSource.query(
        `UPDATE webhook_endpoint SET previous_secret = secret, previous_secret_until = $3, secret = $4, updated_at = now()
          WHERE id = $1 AND merchant_id = $2 RETURNING ${ENDPOINT_COLUMNS}`,
        [id, merchantId, until, this.box.seal(secret)],
      ),
    );
    if (!row) throw problems.webhookNotFound(id);
    return { ...toWebhookDto(row), secret, previousSecretExpiresAt: until.toISOString() };
  }

  /** Chooses the message types an endpoint receives from now on, or its description; omitted fields stay. */
  async update(merchantId: number, id: number, body: UpdateWebhookBody): Promise<WebhookDto> {
    const [row] = unwrapRows<EndpointRow>(
      await this.dataSource.query(
        `UPDATE webhook_endpoint SET events = COALESCE($3, events), description = COALESCE($4, description), updated_at = now()
          WHERE id = $1 AND merchant_id = $2 RETURNING ${ENDPOINT_COLUMNS}`,
        [id, merchantId, body.events ?? null, body.description ?? null],
      ),
    );
    if (!row) throw problems.webhookNotFound(id);
    return toWebhookDto(row);
  }

  /** A page of the endpoint's deliveries, newest first, of one message type and in one state when asked. */
  async deliveries(
    merchantId: number,
    id: number,
    query: Pick<DeliveriesQuery, "skip" | "take" | "type" | "status">,
  ): Promise<{ rows: DeliveryDto[]; count: number }> {
    await this.row(merchantId, id);
    const where = `d.endpoint_id = $1 AND ($2::text IS NULL OR m.type = $2) AND ($3::text IS NULL OR d.status = $3)`;
    const filters = [id, query.type ?? null, query.status ?? null];
    const rows: DeliveryRow[] = await this.dataSource.query(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_delivery d JOIN webhook_message m ON m.id = d.message_id
        WHERE ${where} ORDER BY d.seq DESC OFFSET $4 LIMIT $5`,
      [...filters, query.skip, query.take],
    );
    const [{ count }] = await this.dataSource.query(
      `SELECT count(*)::int AS count FROM webhook_delivery d JOIN webhook_message m ON m.id = d.message_id WHERE ${where}`,
      filters,
    );
    return { rows: rows.map(toDeliveryDto), count };
  }

  async delivery(merchantId: number, id: number, deliveryId: string): Promise<DeliveryDto> {
    await this.row(merchantId, id);
    const [row] = await this.dataSource.query(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_delivery d JOIN webhook_message m ON m.id = d.message_id WHERE d.endpoint_id = $1 AND d.id = $2`,
      [id, deliveryId],
    );
    if (!row) throw problems.deliveryNotFound(id, deliveryId);
    return toDeliveryDto(row);
  }

  /** One delivery with its attempts (newest first) and the message it carries. */
  async deliveryDetail(merchantId: number, id: number, deliveryId: string): Promise<DeliveryDetailDto> {
    await this.row(merchantId, id);
    const [row] = await this.dataSource.query(
      `SELECT ${DELIVERY_COLUMNS}, m.body FROM webhook_delivery d JOIN webhook_message m ON m.id = d.message_id WHERE d.endpoint_id = $1 AND d.id = $2`,
      [id, deliveryId],
    );
    if (!row) throw problems.deliveryNotFound(id, deliveryId);
    const attempts: AttemptRow[] = await this.dataSource.query(
      `SELECT attempted_at, status_code, response_excerpt, error, duration_ms, manual FROM webhook_attempt
        WHERE delivery_id = $1 ORDER BY id DESC LIMIT $2`,
      [deliveryId, MAX_LISTED_ATTEMPTS],
    );
    return { ...toDeliveryDto(row), attemptLog: attempts.map(toAttemptDto), payload: JSON.parse(row.body) };
  }

  /**
   * Writes a `webhook.test` message for this one endpoint, signed and sent like any other; returns its delivery's id.
   * It is no chain event: chain 0, block 0, zero hashes, `data.test: true`.
   */
  async writeTestMessage(merchantId: number, id: number): Promise<string> {
    await this.row(merchantId, id);
    const messageId = newWebhookMessageId();
    const body = JSON.stringify({
      id: messageId,
      type: WEBHOOK_TEST_TYPE,
      removed: false,
      eventId: `test:${messageId}`,
      chainId: 0,
      contractId: null,
      roundId: null,
      blockNumber: 0,
      blockHash: ZeroHash,
      txHash: ZeroHash,
      logIndex: 0,
      createdAt: new Date().toISOString(),
      data: { test: true },
    });
    return this.dataSource.transaction(async (manager) => {
      const [message] = await manager.query(
        `INSERT INTO webhook_message (id, merchant_id, type, removed, event_id, chain_id, block_number, body)
         VALUES ($1, $2, $3, false, $4, 0, 0, $5) RETURNING seq`,
        [messageId, merchantId, WEBHOOK_TEST_TYPE, `test:${messageId}`, body],
      );
      // Not due for the delivery loop: the caller sends it at once (retryNow), and the loop only takes it up if that
      // attempt fails, as a retry.
      const [delivery] = await manager.query(
        `INSERT INTO webhook_delivery (endpoint_id, message_id, seq, next_attempt_at) VALUES ($1, $2, $3, now() + interval '1 minute') RETURNING id`,
        [id, messageId, message.seq],
      );
      return String(delivery.id);
    });
  }

  /** Removes a test message that could not be sent (its delivery goes with it). */
  async dropTestMessage(deliveryId: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM webhook_message WHERE type = $2 AND id = (SELECT message_id FROM webhook_delivery WHERE id = $1)`, [
      deliveryId,
      WEBHOOK_TEST_TYPE,
    ]);
  }

  /** The endpoint row of this merchant, or the same 404 whether it is unknown or another merchant's. */
  async row(merchantId: number, id: number): Promise<EndpointRow> {
    const [row] = await this.dataSource.query(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoint WHERE id = $1 AND merchant_id = $2`, [
      id,
      merchantId,
    ]);
    if (!row) throw problems.webhookNotFound(id);
    return row;
  }

  private async acceptedUrl(raw: string): Promise<string> {
    try {
      return (await checkWebhookUrl(raw, this.config.webhooks.allowPrivateUrls)).toString();
    } catch (error) {
      if (error instanceof WebhookUrlError)
        throw error.kind === "invalid" ? problems.webhookUrlInvalid(error.message) : problems.webhookUrlRefused(error.message);
      throw error;
    }
  }
}
