import { performance, type EventLoopUtilization } from "node:perf_hooks";
import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from "@nestjs/common";
import type { DataSource } from "typeorm";

import type { ApiConfig } from "../../config/api-config";
import type { WebhookConfig } from "../../config/webhook-config";
import { jsonLog } from "../../logging/logger";
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

/** Event-loop utilization above which the process counts as busy serving requests (see `busy`). */
const BUSY_UTILIZATION = 0.5;

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

  /**
   * Deliveries are background work: while this process's event loop is busy (serving requests, above all the sign
   * endpoint), the loop sends one batch per poll interval instead of back to back, so a backlog never takes the
   * requests' time. An idle process drains the backlog at full speed.
   */
  private busy(since: EventLoopUtilization): boolean {
    return performance.eventLoopUtilization(since).utilization > BUSY_UTILIZATION;
  }

  private async run(): Promise<void> {
    let failure: string | null = null;
    let since = performance.eventLoopUtilization();
    // The sweep of disabled endpoints needs no precision: an idle poll is then one statement (the embedded PGlite
    // serves every connection through one session, so less chatter is fewer queued queries).
    const sweepIntervalMs = Math.min(60_000, Math.max(this.config.pollIntervalMs, this.config.retryHorizonMs / 4));
    let nextSweep = 0;
    while (this.running) {
      let sent = 0;
      try {
        if (Date.now() >= nextSweep) {
          await this.failExpiredOfDisabled();
          nextSweep = Date.now() + sweepIntervalMs;
        }
        const claimed = await this.claimDue(this.config.concurrency);
        sent = claimed.length;
        const attempts = await Promise.all(claimed.map(async (delivery) => ({ delivery, outcome: await this.send(delivery) })));
        // Successes are recorded together (one statement for the batch): less database work beside the API's requests.
        await this.recordDelivered(attempts.filter(({ outcome }) => outcome.ok));
        for (const { delivery, outcome } of attempts) if (!outcome.ok) await this.recordFailure(delivery, outcome);
        failure = null;
      } catch (error) {
        // Logged once per distinct error: a database outage is not logged at every poll.
        const message = error instanceof Error ? error.message : String(error);
        if (message !== failure) jsonLog("error", "webhook delivery loop failed; retrying", { component: "webhooks", error: message });
        failure = message;
      }
      const busy = this.busy(since);
      since = performance.eventLoopUtilization();
      if ((sent === 0 || busy) && this.running) await this.sleep(this.config.pollIntervalMs);
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
        WHERE d.endpoint_id IN (SELECT id FROM webhook_endpoint WHERE disabled_at IS NOT NULL) AND d.status = 'PENDING'
          AND d.created_at < now() - $1 * interval '1 millisecond'`,
      [this.config.retryHorizonMs],
    );
  }

  /**
   * Takes up to `limit` due deliveries, the oldest PENDING one of each enabled endpoint (one index probe per endpoint,
   * however long the backlog), and leases them. The outer lock re-checks status and due time on the latest row version,
   * so a delivery another replica leased meanwhile is skipped.
   */
  private async claimDue(limit: number): Promise<ClaimedDelivery[]> {
    const rows = await this.dataSource.query(
      `WITH heads AS (
         SELECT head.id FROM webhook_endpoint e
          CROSS JOIN LATERAL (
            SELECT d.id, d.seq, d.next_attempt_at FROM webhook_delivery d
             WHERE d.endpoint_id = e.id AND d.status = 'PENDING' ORDER BY d.seq LIMIT 1) head
          WHERE e.disabled_at IS NULL AND head.next_attempt_at <= now()
          ORDER BY head.seq LIMIT $1),
       due AS (
         SELECT d.id FROM webhook_delivery d
          WHERE d.id IN (SELECT id FROM heads) AND d.status = 'PENDING' AND d.next_attempt_at <= now()
          FOR UPDATE SKIP LOCKED)
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
    const outcome = await this.send(delivery);
    if (outcome.ok) await this.recordDelivered([{ delivery, outcome }], true);
    else await this.recordFailure(delivery, outcome);
    return true;
  }

  private send(delivery: ClaimedDelivery): Promise<SendOutcome> {
    const secrets = [this.box.open(delivery.secret)];
    if (delivery.previous_secret && delivery.previous_secret_until && delivery.previous_secret_until.getTime() > Date.now()) {
      secrets.push(this.box.open(delivery.previous_secret));
    }
    const headers = signedHeaders(secrets, delivery.message_id, new Date(), delivery.body);
    return sendWebhook(delivery.url, headers, delivery.body, { timeoutMs: this.config.timeoutMs, allowPrivate: this.config.allowPrivateUrls });
  }

  /**
   * Marks deliveries DELIVERED and, in the same statement, ends their endpoints' failure streaks (a 2xx proves the
   * endpoint works again); a manual retry's success also re-enables a disabled endpoint.
   */
  private async recordDelivered(done: Array<{ delivery: ClaimedDelivery; outcome: SendOutcome }>, manual = false): Promise<void> {
    if (done.length === 0) return;
    await this.dataSource.query(
      `WITH delivered AS (
         UPDATE webhook_delivery d SET status = 'DELIVERED', delivered_at = now(), failed_at = NULL, last_status_code = v.code, last_error = NULL
           FROM unnest($1::bigint[], $2::int[]) AS v(id, code) WHERE d.id = v.id
         RETURNING d.endpoint_id)
       UPDATE webhook_endpoint SET failing_since = NULL, disabled_at = CASE WHEN $3 THEN NULL ELSE disabled_at END
        WHERE id IN (SELECT endpoint_id FROM delivered) AND (failing_since IS NOT NULL OR disabled_at IS NOT NULL)`,
      [done.map(({ delivery }) => delivery.id), done.map(({ outcome }) => outcome.statusCode), manual],
    );
  }

  private async recordFailure(delivery: ClaimedDelivery, outcome: SendOutcome): Promise<void> {
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
