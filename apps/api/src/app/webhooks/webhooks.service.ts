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
  WEBHOOK_TEST_TYPE,
  type CreateWebhookBody,
  type DeliveryDto,
  type DeliveryType,
  type RotatedSecretDto,
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

  async deliveries(merchantId: number, id: number, skip: number, take: number): Promise<{ rows: DeliveryDto[]; count: number }> {
    await this.row(merchantId, id);
    const rows: DeliveryRow[] = await this.dataSource.query(
      `SELECT d.id, d.message_id, m.type, m.removed, m.event_id, d.status, d.attempts, d.last_status_code, d.last_error, d.last_latency_ms,
              d.next_attempt_at, d.delivered_at, d.created_at
         FROM webhook_delivery d JOIN webhook_message m ON m.id = d.message_id
        WHERE d.endpoint_id = $1 ORDER BY d.seq DESC OFFSET $2 LIMIT $3`,
      [id, skip, take],
    );
    const [{ count }] = await this.dataSource.query(`SELECT count(*)::int AS count FROM webhook_delivery WHERE endpoint_id = $1`, [id]);
    return { rows: rows.map(toDeliveryDto), count };
  }

  async delivery(merchantId: number, id: number, deliveryId: string): Promise<DeliveryDto> {
    await this.row(merchantId, id);
    const [row] = await this.dataSource.query(
      `SELECT d.id, d.message_id, m.type, m.removed, m.event_id, d.status, d.attempts, d.last_status_code, d.last_error, d.last_latency_ms,
              d.next_attempt_at, d.delivered_at, d.created_at
         FROM webhook_delivery d JOIN webhook_message m ON m.id = d.message_id
        WHERE d.endpoint_id = $1 AND d.id = $2`,
      [id, deliveryId],
    );
    if (!row) throw problems.deliveryNotFound(id, deliveryId);
    return toDeliveryDto(row);
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
