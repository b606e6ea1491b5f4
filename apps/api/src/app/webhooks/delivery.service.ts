import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from "@nestjs/common";
import type { DataSource } from "typeorm";

import type { ApiConfig } from "../../config/api-config";
import type { WebhookConfig } from "../../config/webhook-config";
import { jsonLog } from "../../services/json-logger";
import { API_CONFIG, DATA_SOURCE } from "../../services/tokens";
import { attemptLeaseMs, retryDelayMs } from "./delivery-schedule";
import { SecretBox } from "./secret-box";
import { sendWebhook, type SendOutcome } from "./webhook-sender";
import { signedHeaders } from "./webhook-signature";

/** A delivery taken for one attempt, with what the attempt needs. */
interface ClaimedDelivery {
  id: string;
  endpoint_id: number;
  message_id: string;
  attempts: number;
  created_at: Date;
  body: string;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: Date | null;
}

const CLAIMED_COLUMNS = `d.id, d.endpoint_id, d.message_id, d.attempts, d.created_at, m.body, e.url, e.secret, e.previous_secret, e.previous_secret_until`;

/**
 * Sends the outbox. Every replica runs this loop; a delivery is taken by one statement that locks it with
 * `FOR UPDATE SKIP LOCKED` and leases it (`next_attempt_at` moves past the attempt's timeout), so two replicas never
 * send it at once and no transaction stays open during the HTTP request (the API may run on a one-connection PGlite).
 *
 * Per endpoint, messages go out in chain order: a delivery is only taken when its endpoint has no older PENDING one
 * (retrying or leased). A failing endpoint therefore holds its later messages back until the older one is delivered
 * or FAILED (after WEBHOOK_RETRY_HORIZON_MS), never overtaking. A manual retry is the one exception: it sends at once.
 */
@Injectable()
export class WebhookDelivery implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly config: WebhookConfig;
  private readonly box: SecretBox;
  private running = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;

  constructor(
    @Inject(API_CONFIG) config: ApiConfig,
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
  ) {
    this.config = config.webhooks;
    this.box = new SecretBox(config.webhooks.encryptionKey);
  }

  onApplicationBootstrap(): void {
    if (!this.config.deliveryEnabled) return;
    this.running = true;
    this.loop = this.run();
  }

  async onModuleDestroy(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
  }

  private async run(): Promise<void> {
    let failure: string | null = null;
    while (this.running) {
      let sent = 0;
      try {
        await this.failExpiredOfDisabled();
        const claimed = await this.claimDue(this.config.concurrency);
        sent = claimed.length;
        await Promise.all(claimed.map((delivery) => this.attempt(delivery)));
        failure = null;
      } catch (error) {
        // Logged once per distinct error: a database outage is not logged at every poll.
        const message = error instanceof Error ? error.message : String(error);
        if (message !== failure) jsonLog("error", "webhook delivery loop failed; retrying", { component: "webhooks", error: message });
        failure = message;
      }
      if (sent === 0 && this.running) await this.sleep(this.config.pollIntervalMs);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wake = null;
        resolve();
      }, ms);
      this.wake = () => {
        clearTimeout(timer);
        this.wake = null;
        resolve();
      };
    });
  }

  /**
   * A disabled endpoint is sent nothing: its PENDING deliveries past the retry horizon become FAILED, as they would
   * have after their last attempt. (A manual retry that succeeds re-enables the endpoint.)
   */
  private async failExpiredOfDisabled(): Promise<void> {
    await this.dataSource.query(
      `UPDATE webhook_delivery d SET status = 'FAILED', failed_at = now(), last_error = COALESCE(d.last_error, 'endpoint disabled')
         FROM webhook_endpoint e
        WHERE e.id = d.endpoint_id AND e.disabled_at IS NOT NULL AND d.status = 'PENDING'
          AND d.created_at < now() - $1 * interval '1 millisecond'`,
      [this.config.retryHorizonMs],
    );
  }

  /** Takes up to `limit` due deliveries, the oldest PENDING one of each endpoint, and leases them. */
  private async claimDue(limit: number): Promise<ClaimedDelivery[]> {
    const rows = await this.dataSource.query(
      `WITH due AS (
         SELECT d.id FROM webhook_delivery d JOIN webhook_endpoint e ON e.id = d.endpoint_id
          WHERE d.status = 'PENDING' AND d.next_attempt_at <= now() AND e.disabled_at IS NULL
            AND NOT EXISTS (SELECT 1 FROM webhook_delivery o WHERE o.endpoint_id = d.endpoint_id AND o.status = 'PENDING' AND o.seq < d.seq)
          ORDER BY d.seq LIMIT $1
          FOR UPDATE OF d SKIP LOCKED)
       UPDATE webhook_delivery d SET attempts = d.attempts + 1, next_attempt_at = now() + $2 * interval '1 millisecond'
         FROM due, webhook_message m, webhook_endpoint e
        WHERE d.id = due.id AND m.id = d.message_id AND e.id = d.endpoint_id
       RETURNING ${CLAIMED_COLUMNS}`,
      [limit, attemptLeaseMs(this.config.timeoutMs)],
    );
    return unwrapRows<ClaimedDelivery>(rows);
  }

  /** Sends one delivery now, whatever its state and order (`POST /webhooks/:id/deliveries/:deliveryId/retry`). */
  async retryNow(endpointId: number, deliveryId: string): Promise<boolean> {
    const rows = await this.dataSource.query(
      `UPDATE webhook_delivery d SET attempts = d.attempts + 1, next_attempt_at = now() + $3 * interval '1 millisecond'
         FROM webhook_message m, webhook_endpoint e
        WHERE d.id = $1 AND d.endpoint_id = $2 AND m.id = d.message_id AND e.id = d.endpoint_id
       RETURNING ${CLAIMED_COLUMNS}`,
      [deliveryId, endpointId, attemptLeaseMs(this.config.timeoutMs)],
    );
    const [delivery] = unwrapRows<ClaimedDelivery>(rows);
    if (!delivery) return false;
    await this.attempt(delivery, true);
    return true;
  }

  private async attempt(delivery: ClaimedDelivery, manual = false): Promise<void> {
    const secrets = [this.box.open(delivery.secret)];
    if (delivery.previous_secret && delivery.previous_secret_until && delivery.previous_secret_until.getTime() > Date.now()) {
      secrets.push(this.box.open(delivery.previous_secret));
    }
    const headers = signedHeaders(secrets, delivery.message_id, new Date(), delivery.body);
    const outcome = await sendWebhook(delivery.url, headers, delivery.body, {
      timeoutMs: this.config.timeoutMs,
      allowPrivate: this.config.allowPrivateUrls,
    });
    await this.record(delivery, outcome, manual);
  }

  private async record(delivery: ClaimedDelivery, outcome: SendOutcome, manual: boolean): Promise<void> {
    if (outcome.ok) {
      await this.dataSource.query(
        `UPDATE webhook_delivery SET status = 'DELIVERED', delivered_at = now(), failed_at = NULL, last_status_code = $2, last_error = NULL WHERE id = $1`,
        [delivery.id, outcome.statusCode],
      );
      // A 2xx proves the endpoint works again: its failure streak ends, and a manual retry re-enables it.
      await this.dataSource.query(
        `UPDATE webhook_endpoint SET failing_since = NULL, disabled_at = CASE WHEN $2 THEN NULL ELSE disabled_at END
          WHERE id = $1 AND (failing_since IS NOT NULL OR disabled_at IS NOT NULL)`,
        [delivery.endpoint_id, manual],
      );
      return;
    }
    const expired = Date.now() - new Date(delivery.created_at).getTime() >= this.config.retryHorizonMs;
    const delayMs = retryDelayMs(delivery.attempts, this.config.retryBaseMs, this.config.retryMaxDelayMs);
    await this.dataSource.query(
      `UPDATE webhook_delivery
          SET last_status_code = $2, last_error = $3,
              status = CASE WHEN $4 THEN 'FAILED' ELSE status END,
              failed_at = CASE WHEN $4 THEN now() ELSE failed_at END,
              next_attempt_at = now() + $5 * interval '1 millisecond'
        WHERE id = $1 AND status <> 'DELIVERED'`,
      [delivery.id, outcome.statusCode, outcome.error?.slice(0, 300) ?? null, expired, delayMs],
    );
    const [endpoint] = unwrapRows<{ disabled: boolean }>(
      await this.dataSource.query(
        `UPDATE webhook_endpoint SET failing_since = COALESCE(failing_since, now()),
                disabled_at = CASE WHEN disabled_at IS NULL AND failing_since < now() - $2 * interval '1 millisecond' THEN now() ELSE disabled_at END
          WHERE id = $1 RETURNING disabled_at IS NOT NULL AS disabled`,
        [delivery.endpoint_id, this.config.disableAfterMs],
      ),
    );
    jsonLog("warn", "webhook delivery attempt failed", {
      component: "webhooks",
      endpointId: delivery.endpoint_id,
      messageId: delivery.message_id,
      attempts: delivery.attempts,
      statusCode: outcome.statusCode,
      error: outcome.error?.slice(0, 120),
      failed: expired,
      endpointDisabled: endpoint?.disabled ?? false,
    });
  }
}

/** Rows of an `UPDATE ... RETURNING`: TypeORM answers UPDATE with `[rows, affectedCount]` on PostgreSQL. */
export function unwrapRows<T>(result: unknown): T[] {
  const value = result as unknown[];
  return (Array.isArray(value[0]) && typeof value[1] === "number" ? value[0] : value) as T[];
}
