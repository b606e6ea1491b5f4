import { performance, type EventLoopUtilization } from "node:perf_hooks";
import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from "@nestjs/common";
import type { DataSource } from "typeorm";

import type { ApiConfig } from "../../config/api-config";
import { MANUAL_RETRIES_PER_MINUTE, MANUAL_RETRY_SPACING_MS, type WebhookConfig } from "../../config/webhook-config";
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
  merchant_id: number;
  message_id: string;
  attempts: number;
  created_at: Date;
  body: string;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: Date | null;
}

/** Why a manual retry is refused, and when it may come. */
export interface ManualRetryRefusal {
  retryAfterSeconds: number;
  reason: string;
}

/** An attempt's outcome and how long it took, in milliseconds. */
type TimedOutcome = SendOutcome & { latencyMs: number };

/** Event-loop utilization above which the process counts as busy serving requests (see `busy`). */
const BUSY_UTILIZATION = 0.5;

const CLAIMED_COLUMNS = `d.id, d.endpoint_id, e.merchant_id, d.message_id, d.attempts, d.created_at, m.body, e.url, e.secret, e.previous_secret, e.previous_secret_until`;

/**
 * Sends the outbox. Every replica runs this loop; a delivery is taken by one statement that locks it with
 * `FOR UPDATE SKIP LOCKED` and leases it (`next_attempt_at` moves past the attempt's timeout), so two replicas never
 * send it at once and no transaction stays open during the HTTP request (the API may run on a one-connection PGlite).
 *
 * Per endpoint, messages go out in chain order: a delivery is only taken when its endpoint has no older PENDING one
 * (retrying or leased). A failing endpoint therefore holds its later messages back until the older one is delivered
 * or FAILED (after WEBHOOK_RETRY_HORIZON_MS), never overtaking. A manual retry is the one exception: it sends at once.
 *
 * Fair between merchants by construction: up to WEBHOOK_CONCURRENCY deliveries are in flight, at most
 * WEBHOOK_CONCURRENCY_PER_MERCHANT of one merchant, and a slot that frees is filled at once (no waiting for a batch).
 * Due deliveries are taken round-robin: the merchant with the fewest deliveries in flight goes first, oldest message
 * first among equals. So a merchant whose receivers are slow occupies its own slots only, and another merchant's due
 * message waits at most until one attempt ends, which the timeout bounds.
 */
@Injectable()
export class WebhookDelivery implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly config: WebhookConfig;
  private readonly box: SecretBox;
  private running = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  /** Attempts in flight in this process, and how many of them are each merchant's. */
  private readonly inFlight = new Set<Promise<void>>();
  private readonly inFlightByMerchant = new Map<number, number>();

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
    await Promise.all(this.inFlight);
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
      let claimed = 0;
      const free = this.config.concurrency - this.inFlight.size;
      try {
        if (Date.now() >= nextSweep) {
          await this.failExpiredOfDisabled();
          nextSweep = Date.now() + sweepIntervalMs;
        }
        if (free > 0) {
          const due = await this.claimDue(free);
          claimed = due.length;
          for (const delivery of due) this.start(delivery);
        }
        failure = null;
      } catch (error) {
        // Logged once per distinct error: a database outage is not logged at every poll.
        const message = error instanceof Error ? error.message : String(error);
        if (message !== failure) jsonLog("error", "webhook delivery loop failed; retrying", { component: "webhooks", error: message });
        failure = message;
      }
      const busy = this.busy(since);
      since = performance.eventLoopUtilization();
      // Another claim at once only when every free slot was filled and slots remain; otherwise wait for the poll
      // interval, or for an attempt to end (which frees a slot), unless the process is busy serving requests.
      const more = claimed > 0 && claimed === free && this.inFlight.size < this.config.concurrency;
      if (this.running && (busy || !more)) await this.sleep(this.config.pollIntervalMs, !busy);
    }
  }

  /** Sends one claimed delivery in the background and records its outcome; its slot frees when it is done. */
  private start(delivery: ClaimedDelivery): void {
    const merchant = delivery.merchant_id;
    this.inFlightByMerchant.set(merchant, (this.inFlightByMerchant.get(merchant) ?? 0) + 1);
    const attempt = (async () => {
      try {
        const outcome = await this.send(delivery);
        if (outcome.ok) await this.recordDelivered([{ delivery, outcome }]);
        else await this.recordFailure(delivery, outcome);
      } catch (error) {
        // The lease ends and the delivery is taken again: at least once, never lost.
        jsonLog("error", "webhook delivery not recorded; it is sent again when its lease ends", {
          component: "webhooks",
          deliveryId: delivery.id,
          error: error instanceof Error ? error.message : String(error),
        });
      }
    })().finally(() => {
      this.inFlight.delete(attempt);
      const left = (this.inFlightByMerchant.get(merchant) ?? 1) - 1;
      if (left > 0) this.inFlightByMerchant.set(merchant, left);
      else this.inFlightByMerchant.delete(merchant);
      this.wakeOnFree?.();
    });
    this.inFlight.add(attempt);
  }

  /** Set while the loop waits and may be woken early by an attempt that ends. */
  private wakeOnFree: (() => void) | null = null;

  /** Waits `ms`, or less when stopped or (`wakeOnFree`) when an attempt ends. */
  private sleep(ms: number, wakeOnFree: boolean): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = null;
        this.wakeOnFree = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
      if (wakeOnFree) this.wakeOnFree = done;
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
   * however long the backlog), and leases them. Round-robin between merchants: a merchant's k-th due delivery has the
   * turn (its deliveries in flight here) + k; turns beyond WEBHOOK_CONCURRENCY_PER_MERCHANT wait, and lower turns go
   * first, older messages first among equal turns. The outer lock re-checks status and due time on the latest row
   * version, so a delivery another replica leased meanwhile is skipped.
   */
  private async claimDue(limit: number): Promise<ClaimedDelivery[]> {
    const busyMerchants = [...this.inFlightByMerchant.keys()];
    const rows = await this.dataSource.query(
      `WITH heads AS (
         SELECT head.id, head.seq, e.merchant_id FROM webhook_endpoint e
          CROSS JOIN LATERAL (
            SELECT d.id, d.seq, d.next_attempt_at FROM webhook_delivery d
             WHERE d.endpoint_id = e.id AND d.status = 'PENDING' ORDER BY d.seq LIMIT 1) head
          WHERE e.disabled_at IS NULL AND head.next_attempt_at <= now()),
       turns AS (
         SELECT h.id, h.seq, COALESCE(busy.count, 0) + row_number() OVER (PARTITION BY h.merchant_id ORDER BY h.seq) AS turn
           FROM heads h LEFT JOIN unnest($3::int[], $4::int[]) AS busy(merchant_id, count) ON busy.merchant_id = h.merchant_id),
       picked AS (SELECT id FROM turns WHERE turn <= $5 ORDER BY turn, seq LIMIT $1),
       due AS (
         SELECT d.id FROM webhook_delivery d
          WHERE d.id IN (SELECT id FROM picked) AND d.status = 'PENDING' AND d.next_attempt_at <= now()
          FOR UPDATE SKIP LOCKED)
       UPDATE webhook_delivery d SET attempts = d.attempts + 1, next_attempt_at = now() + $2 * interval '1 millisecond'
         FROM due, webhook_message m, webhook_endpoint e
        WHERE d.id = due.id AND m.id = d.message_id AND e.id = d.endpoint_id
       RETURNING ${CLAIMED_COLUMNS}`,
      [
        limit,
        attemptLeaseMs(this.config.timeoutMs),
        busyMerchants,
        busyMerchants.map((merchant) => this.inFlightByMerchant.get(merchant)!),
        this.config.concurrencyPerMerchant,
      ],
    );
    return unwrapRows<ClaimedDelivery>(rows);
  }

  /**
   * Sends one delivery now, whatever its state and order (`POST /webhooks/:id/deliveries/:deliveryId/retry`), within
   * the manual-retry limits: one delivery at most once per MANUAL_RETRY_SPACING_MS, one endpoint at most
   * MANUAL_RETRIES_PER_MINUTE times per minute. Both are taken in one transaction, so concurrent retries and replicas
   * cannot exceed them. Answers false for an unknown delivery, or the refusal.
   */
  async retryNow(endpointId: number, deliveryId: string): Promise<true | false | ManualRetryRefusal> {
    const taken = await this.dataSource.transaction(async (manager): Promise<ClaimedDelivery | ManualRetryRefusal | false> => {
      // The endpoint's row first (every retry of the endpoint waits here), then the delivery's.
      const [window] = await manager.query(
        `SELECT manual_retries AS used, ceil(extract(epoch FROM (manual_retry_window_start + interval '1 minute' - now())))::int AS wait
           FROM webhook_endpoint WHERE id = $1 FOR UPDATE`,
        [endpointId],
      );
      const [known] = await manager.query(
        `SELECT ceil(extract(epoch FROM (manual_retry_at + $3 * interval '1 millisecond' - now())))::int AS wait
           FROM webhook_delivery WHERE id = $1 AND endpoint_id = $2 FOR UPDATE`,
        [deliveryId, endpointId, MANUAL_RETRY_SPACING_MS],
      );
      if (!window || !known) return false;
      if (known.wait !== null && known.wait > 0) {
        return { retryAfterSeconds: known.wait, reason: `this delivery was retried by hand less than ${MANUAL_RETRY_SPACING_MS / 1000} s ago` };
      }
      // The endpoint's fixed one-minute window: a new one starts with the first retry after the last one ended.
      const windowOpen = window.wait !== null && window.wait > 0;
      if (windowOpen && window.used >= MANUAL_RETRIES_PER_MINUTE) {
        return { retryAfterSeconds: window.wait, reason: `this endpoint had ${MANUAL_RETRIES_PER_MINUTE} manual retries in the last minute` };
      }
      await manager.query(
        windowOpen
          ? `UPDATE webhook_endpoint SET manual_retries = manual_retries + 1 WHERE id = $1`
          : `UPDATE webhook_endpoint SET manual_retries = 1, manual_retry_window_start = now() WHERE id = $1`,
        [endpointId],
      );
      const rows = await manager.query(
        `UPDATE webhook_delivery d SET attempts = d.attempts + 1, manual_retry_at = now(), next_attempt_at = now() + $3 * interval '1 millisecond'
           FROM webhook_message m, webhook_endpoint e
          WHERE d.id = $1 AND d.endpoint_id = $2 AND m.id = d.message_id AND e.id = d.endpoint_id
         RETURNING ${CLAIMED_COLUMNS}`,
        [deliveryId, endpointId, attemptLeaseMs(this.config.timeoutMs)],
      );
      return unwrapRows<ClaimedDelivery>(rows)[0] ?? false;
    });
    if (taken === false || "retryAfterSeconds" in taken) return taken;
    const outcome = await this.send(taken);
    if (outcome.ok) await this.recordDelivered([{ delivery: taken, outcome }], true);
    else await this.recordFailure(taken, outcome);
    return true;
  }

  /** One attempt, and how long it took (the delivery log's latency). */
  private async send(delivery: ClaimedDelivery): Promise<TimedOutcome> {
    const secrets = [this.box.open(delivery.secret)];
    if (delivery.previous_secret && delivery.previous_secret_until && delivery.previous_secret_until.getTime() > Date.now()) {
      secrets.push(this.box.open(delivery.previous_secret));
    }
    const headers = signedHeaders(secrets, delivery.message_id, new Date(), delivery.body);
    const started = performance.now();
    const outcome = await sendWebhook(delivery.url, headers, delivery.body, {
      timeoutMs: this.config.timeoutMs,
      allowPrivate: this.config.allowPrivateUrls,
    });
    return { ...outcome, latencyMs: Math.round(performance.now() - started) };
  }

  /**
   * Marks deliveries DELIVERED and, in the same statement, ends their endpoints' failure streaks (a 2xx proves the
   * endpoint works again); a manual retry's success also re-enables a disabled endpoint.
   */
  private async recordDelivered(done: Array<{ delivery: ClaimedDelivery; outcome: TimedOutcome }>, manual = false): Promise<void> {
    if (done.length === 0) return;
    await this.dataSource.query(
      `WITH delivered AS (
         UPDATE webhook_delivery d SET status = 'DELIVERED', delivered_at = now(), failed_at = NULL, last_status_code = v.code, last_error = NULL,
                last_latency_ms = v.latency
           FROM unnest($1::bigint[], $2::int[], $4::int[]) AS v(id, code, latency) WHERE d.id = v.id
         RETURNING d.endpoint_id)
       UPDATE webhook_endpoint SET failing_since = NULL, disabled_at = CASE WHEN $3 THEN NULL ELSE disabled_at END
        WHERE id IN (SELECT endpoint_id FROM delivered) AND (failing_since IS NOT NULL OR disabled_at IS NOT NULL)`,
      [done.map(({ delivery }) => delivery.id), done.map(({ outcome }) => outcome.statusCode), manual, done.map(({ outcome }) => outcome.latencyMs)],
    );
  }

  private async recordFailure(delivery: ClaimedDelivery, outcome: TimedOutcome): Promise<void> {
    const expired = Date.now() - new Date(delivery.created_at).getTime() >= this.config.retryHorizonMs;
    const delayMs = retryDelayMs(delivery.attempts, this.config.retryBaseMs, this.config.retryMaxDelayMs);
    await this.dataSource.query(
      `UPDATE webhook_delivery
          SET last_status_code = $2, last_error = $3, last_latency_ms = $6,
              status = CASE WHEN $4 THEN 'FAILED' ELSE status END,
              failed_at = CASE WHEN $4 THEN now() ELSE failed_at END,
              next_attempt_at = now() + $5 * interval '1 millisecond'
        WHERE id = $1 AND status <> 'DELIVERED'`,
      [delivery.id, outcome.statusCode, outcome.error?.slice(0, 300) ?? null, expired, delayMs, outcome.latencyMs],
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
