import { performance, type EventLoopUtilization } from "node:perf_hooks";
import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from "@nestjs/common";
import { HttpAdapterHost } from "@nestjs/core";
import type { DataSource } from "typeorm";

import type { ApiConfig } from "../../config/api-config";
import { MANUAL_RETRIES_PER_MINUTE, MANUAL_RETRY_SPACING_MS, type WebhookConfig } from "../../config/webhook-config";
import { jsonLog } from "../../logging/logger";
import { API_CONFIG, DATA_SOURCE } from "../../services/tokens";
import { attemptLeaseMs, retryDelayMs } from "./delivery-schedule";
import { SecretBox } from "./secret-box";
import { sendWebhook, type SendOutcome } from "./webhook-sender";
import { MessageSigner } from "./webhook-signature";

/** A delivery taken for one attempt, with what the attempt needs. */
interface ClaimedDelivery {
  id: string;
  endpoint_id: number;
  merchant_id: number;
  message_id: string;
  seq: string;
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

/** An attempt's outcome, when it started and how long it took, in milliseconds. */
type TimedOutcome = SendOutcome & { attemptedAt: Date; latencyMs: number };

/**
 * The attempt rows of outcomes, as the arrays of one `INSERT ... SELECT FROM unnest(...)` (parameters $first..$first+5):
 * every attempt is kept in the statement that records its delivery, no extra round trip. The error is the network's
 * (an HTTP answer is told by its status and excerpt).
 */
function attemptColumns(done: Array<{ delivery: ClaimedDelivery; outcome: TimedOutcome }>): unknown[] {
  return [
    done.map(({ delivery }) => delivery.id),
    done.map(({ outcome }) => outcome.attemptedAt),
    done.map(({ outcome }) => outcome.statusCode),
    done.map(({ outcome }) => outcome.responseExcerpt),
    done.map(({ outcome }) => (outcome.statusCode === null ? (outcome.error?.slice(0, 300) ?? null) : null)),
    done.map(({ outcome }) => outcome.latencyMs),
  ];
}

const INSERT_ATTEMPTS = (first: number, manual: string) =>
  `INSERT INTO webhook_attempt (delivery_id, attempted_at, status_code, response_excerpt, error, duration_ms, manual)
   SELECT a.delivery_id, a.attempted_at, a.status_code, a.excerpt, a.error, a.duration, ${manual}
     FROM unnest($${first}::bigint[], $${first + 1}::timestamptz[], $${first + 2}::int[], $${first + 3}::text[], $${first + 4}::text[], $${first + 5}::int[])
       AS a(delivery_id, attempted_at, status_code, excerpt, error, duration)`;

/** Event-loop utilization above which the process counts as busy serving requests (see `busy`)... */
const BUSY_UTILIZATION = 0.5;
/** ...when it also answered at least this many requests per second: a backlog's own sending keeps the loop busy too. */
const BUSY_REQUESTS_PER_SECOND = 20;

/**
 * Most messages of one endpoint taken in one claim and sent one after another over its kept-alive connection: one
 * statement claims them, one records them, so a backlog costs a few round trips to the database per run, not two per
 * message. While the process is busy serving requests, runs are shorter: deliveries stay background work.
 */
const RUN_MAX_MESSAGES = 64;
const BUSY_RUN_MAX_MESSAGES = 8;
/**
 * A run starts no further attempt once this share of the attempt timeout (WEBHOOK_TIMING) has passed since its claim (at most a second):
 * a run to a slow receiver is a single attempt, and a slot frees within 1.1 timeouts, as fair delivery promises.
 */
const RUN_SHARE_OF_TIMEOUT = 0.1;
const RUN_MAX_MS = 1_000;

const CLAIMED_COLUMNS = `d.id, d.endpoint_id, e.merchant_id, d.message_id, d.seq, d.attempts, d.created_at, m.body, e.url, e.secret, e.previous_secret, e.previous_secret_until`;

/**
 * Sends the outbox. Every replica runs this loop; a delivery is taken by one statement that locks it with
 * `FOR UPDATE SKIP LOCKED` and leases it (`next_attempt_at` moves past the attempt's timeout), so two replicas never
 * send it at once and no transaction stays open during the HTTP request (the API may run on a one-connection PGlite).
 *
 * Per endpoint, messages go out in chain order: a delivery is only taken when its endpoint has no older PENDING one
 * (retrying or leased). A failing endpoint therefore holds its later messages back until the older one is delivered
 * or FAILED (after the retry horizon, WEBHOOK_TIMING), never overtaking. A manual retry is the one exception: it sends at once.
 *
 * An endpoint's due messages are taken as a run (its oldest PENDING one and the due ones after it, up to
 * RUN_MAX_MESSAGES, all leased by the one claim) and sent one at a time, in order. The run stops at the first failure
 * (that delivery gets its retry delay, and holds the rest back as above), and starts no attempt once a tenth of the
 * timeout has passed since the claim (so every attempt ends within its lease); what it did not send is handed back at
 * once.
 *
 * Fair between merchants by construction: up to `concurrency` runs are in flight (WEBHOOK_TIMING), at most
 * `concurrencyPerMerchant` of one merchant, and a slot that frees is filled at once (no waiting for a batch).
 * Due runs are taken round-robin: the merchant with the fewest runs in flight goes first, oldest message first among
 * equals. So a merchant whose receivers are slow occupies its own slots only, and another merchant's due message waits
 * at most until one run ends, which 1.1 timeouts bound.
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
  /** A run ended since the loop's last claim began: the loop claims again instead of sleeping (no lost wake-up). */
  private freedSinceClaim = false;
  /** HTTP requests this process received, counted by a listener on its server (see `busy`). */
  private requests = 0;

  constructor(
    @Inject(API_CONFIG) config: ApiConfig,
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    private readonly adapterHost: HttpAdapterHost,
  ) {
    this.config = config.webhooks;
    this.box = new SecretBox(config.webhooks.encryptionKey);
  }

  onApplicationBootstrap(): void {
    if (!this.config.deliveryEnabled) return;
    // One more listener on the server's "request" event: a counter, no work on the request's path.
    this.adapterHost.httpAdapter?.getHttpServer()?.on("request", () => (this.requests += 1));
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
   * Deliveries are background work: while this process's event loop is busy serving requests (above all the sign
   * endpoint), the loop claims once per poll interval, short runs, instead of back to back, so a backlog never takes
   * the requests' time. Busy means both a loaded event loop and requests coming in: draining a backlog loads the loop
   * by itself, and that alone must not slow the draining down. An idle process drains the backlog at full speed.
   */
  private busy(since: { utilization: EventLoopUtilization; requests: number; at: number }): boolean {
    const seconds = Math.max((performance.now() - since.at) / 1000, 0.001);
    const requestsPerSecond = (this.requests - since.requests) / seconds;
    return requestsPerSecond >= BUSY_REQUESTS_PER_SECOND && performance.eventLoopUtilization(since.utilization).utilization > BUSY_UTILIZATION;
  }

  private busySince(): { utilization: EventLoopUtilization; requests: number; at: number } {
    return { utilization: performance.eventLoopUtilization(), requests: this.requests, at: performance.now() };
  }

  private async run(): Promise<void> {
    let failure: string | null = null;
    let since = this.busySince();
    // The sweep of disabled endpoints needs no precision: an idle poll is then one statement (the embedded PGlite
    // serves every connection through one session, so less chatter is fewer queued queries).
    const sweepIntervalMs = Math.min(60_000, Math.max(this.config.pollIntervalMs, this.config.retryHorizonMs / 4));
    let nextSweep = 0;
    while (this.running) {
      let claimed = 0;
      const free = this.config.concurrency - this.inFlight.size;
      const busy = this.busy(since);
      since = this.busySince();
      this.freedSinceClaim = false;
      try {
        if (Date.now() >= nextSweep) {
          await this.failExpiredOfDisabled();
          nextSweep = Date.now() + sweepIntervalMs;
        }
        if (free > 0) {
          const runs = await this.claimDue(free, busy ? BUSY_RUN_MAX_MESSAGES : RUN_MAX_MESSAGES);
          claimed = runs.length;
          for (const run of runs) this.start(run);
        }
        failure = null;
      } catch (error) {
        // Logged once per distinct error: a database outage is not logged at every poll.
        const message = error instanceof Error ? error.message : String(error);
        if (message !== failure) jsonLog("error", "webhook delivery loop failed; retrying", { component: "webhooks", error: message });
        failure = message;
      }
      // Another claim at once when every free slot was filled and slots remain, or when a run ended meanwhile;
      // otherwise wait for the poll interval, or for a run to end (which frees a slot), unless the process is busy
      // serving requests.
      const more = (claimed > 0 && claimed === free && this.inFlight.size < this.config.concurrency) || this.freedSinceClaim;
      if (this.running && (busy || !more)) await this.sleep(this.config.pollIntervalMs, !busy);
    }
  }

  /** Sends one claimed run in the background and records its outcomes; its slot frees when it is done. */
  private start(run: ClaimedDelivery[]): void {
    const merchant = run[0].merchant_id;
    this.inFlightByMerchant.set(merchant, (this.inFlightByMerchant.get(merchant) ?? 0) + 1);
    const attempt = this.sendRun(run).finally(() => {
      this.inFlight.delete(attempt);
      const left = (this.inFlightByMerchant.get(merchant) ?? 1) - 1;
      if (left > 0) this.inFlightByMerchant.set(merchant, left);
      else this.inFlightByMerchant.delete(merchant);
      this.freedSinceClaim = true;
      this.wakeOnFree?.();
    });
    this.inFlight.add(attempt);
  }

  /**
   * Sends a run's messages in order until one fails or a tenth of the timeout has passed since the claim, records the
   * delivered ones in one statement and hands back the unsent.
   */
  private async sendRun(run: ClaimedDelivery[]): Promise<void> {
    const claimedAt = performance.now();
    const budgetMs = Math.min(this.config.timeoutMs * RUN_SHARE_OF_TIMEOUT, RUN_MAX_MS);
    let sent = 0;
    try {
      const signer = this.signerOf(run[0]);
      const delivered: Array<{ delivery: ClaimedDelivery; outcome: TimedOutcome }> = [];
      let failed: { delivery: ClaimedDelivery; outcome: TimedOutcome } | null = null;
      while (sent < run.length && !failed) {
        if (sent > 0 && (!this.running || performance.now() - claimedAt >= budgetMs)) break;
        const delivery = run[sent];
        const outcome = await this.send(delivery, signer);
        sent += 1;
        if (outcome.ok) delivered.push({ delivery, outcome });
        else failed = { delivery, outcome };
      }
      await this.recordDelivered(delivered);
      if (failed) await this.recordFailure(failed.delivery, failed.outcome);
      await this.handBack(run.slice(sent));
    } catch (error) {
      // The leases end and the deliveries are taken again: at least once, never lost.
      jsonLog("error", "webhook deliveries not recorded; they are sent again when their lease ends", {
        component: "webhooks",
        deliveryIds: run.slice(0, Math.max(sent, 1)).map((delivery) => delivery.id),
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }

  /** Claimed deliveries a run did not attempt: due again at once, the claim's attempt not counted. */
  private async handBack(unsent: ClaimedDelivery[]): Promise<void> {
    if (unsent.length === 0) return;
    await this.dataSource.query(
      `UPDATE webhook_delivery SET attempts = attempts - 1, next_attempt_at = now() WHERE id = ANY($1::bigint[]) AND status = 'PENDING'`,
      [unsent.map((delivery) => delivery.id)],
    );
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
   * Takes up to `limit` runs of due deliveries and leases them, in one statement. Each endpoint's run starts at its
   * oldest PENDING delivery (one index probe per endpoint, however long the backlog), if that one is due, and goes on
   * through the due ones after it, up to `runMax` and never past one that is not due. Round-robin between merchants: a
   * merchant's k-th due endpoint has the turn (its runs in flight here) + k; turns beyond
   * `concurrencyPerMerchant` wait, and lower turns go first, older messages first among equal turns. The outer
   * lock re-checks status and due time on the latest row version, so a delivery another replica leased meanwhile is
   * skipped; a run keeps only what it locked from its first delivery on without a gap (a run whose first delivery
   * another replica holds is not taken at all), so two replicas never send one endpoint's messages at once, nor out of
   * order. Answers the runs, each in chain order.
   */
  private async claimDue(limit: number, runMax: number): Promise<ClaimedDelivery[][]> {
    const busyMerchants = [...this.inFlightByMerchant.keys()];
    const rows = await this.dataSource.query(
      `WITH heads AS (
         SELECT e.id AS endpoint_id, head.seq, e.merchant_id FROM webhook_endpoint e
          CROSS JOIN LATERAL (
            SELECT d.seq, d.next_attempt_at FROM webhook_delivery d
             WHERE d.endpoint_id = e.id AND d.status = 'PENDING' ORDER BY d.seq LIMIT 1) head
          WHERE e.disabled_at IS NULL AND head.next_attempt_at <= now()),
       turns AS (
         SELECT h.endpoint_id, h.seq, COALESCE(busy.count, 0) + row_number() OVER (PARTITION BY h.merchant_id ORDER BY h.seq) AS turn
           FROM heads h LEFT JOIN unnest($3::int[], $4::int[]) AS busy(merchant_id, count) ON busy.merchant_id = h.merchant_id),
       picked AS (SELECT endpoint_id, seq FROM turns WHERE turn <= $5 ORDER BY turn, seq LIMIT $1),
       runs AS (
         SELECT run.id, run.seq, p.endpoint_id FROM picked p
          CROSS JOIN LATERAL (
            SELECT next.id, next.seq, bool_and(next.next_attempt_at <= now()) OVER (ORDER BY next.seq) AS due_so_far
              FROM (SELECT d.id, d.seq, d.next_attempt_at FROM webhook_delivery d
                     WHERE d.endpoint_id = p.endpoint_id AND d.status = 'PENDING' AND d.seq >= p.seq ORDER BY d.seq LIMIT $6) next) run
          WHERE run.due_so_far),
       due AS (
         SELECT d.id FROM webhook_delivery d
          WHERE d.id IN (SELECT id FROM runs) AND d.status = 'PENDING' AND d.next_attempt_at <= now()
          FOR UPDATE SKIP LOCKED),
       kept AS (
         SELECT r.id FROM runs r
          WHERE NOT EXISTS (SELECT 1 FROM runs g WHERE g.endpoint_id = r.endpoint_id AND g.seq <= r.seq AND g.id NOT IN (SELECT id FROM due)))
       UPDATE webhook_delivery d SET attempts = d.attempts + 1, next_attempt_at = now() + $2 * interval '1 millisecond'
         FROM kept, webhook_message m, webhook_endpoint e
        WHERE d.id = kept.id AND m.id = d.message_id AND e.id = d.endpoint_id
       RETURNING ${CLAIMED_COLUMNS}`,
      [
        limit,
        attemptLeaseMs(this.config.timeoutMs),
        busyMerchants,
        busyMerchants.map((merchant) => this.inFlightByMerchant.get(merchant)!),
        this.config.concurrencyPerMerchant,
        runMax,
      ],
    );
    return runsOf(unwrapRows<ClaimedDelivery>(rows));
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
    const outcome = await this.send(taken, this.signerOf(taken));
    if (outcome.ok) await this.recordDelivered([{ delivery: taken, outcome }], true);
    else await this.recordFailure(taken, outcome, true);
    return true;
  }

  /** The endpoint's live secrets (the previous one too during its grace period), decrypted once for a whole run. */
  private signerOf(delivery: ClaimedDelivery): MessageSigner {
    const secrets = [this.box.open(delivery.secret)];
    if (delivery.previous_secret && delivery.previous_secret_until && delivery.previous_secret_until.getTime() > Date.now()) {
      secrets.push(this.box.open(delivery.previous_secret));
    }
    return new MessageSigner(secrets);
  }

  /** One attempt, and how long it took (the delivery log's latency). */
  private async send(delivery: ClaimedDelivery, signer: MessageSigner): Promise<TimedOutcome> {
    const attemptedAt = new Date();
    const headers = signer.headers(delivery.message_id, attemptedAt, delivery.body);
    const started = performance.now();
    const outcome = await sendWebhook(delivery.url, headers, delivery.body, {
      timeoutMs: this.config.timeoutMs,
      allowPrivate: this.config.allowPrivateUrls,
    });
    return { ...outcome, attemptedAt, latencyMs: Math.round(performance.now() - started) };
  }

  /**
   * Marks deliveries DELIVERED and, in the same statement, ends their endpoints' failure streaks (a 2xx proves the
   * endpoint works again); a manual retry's success also re-enables a disabled endpoint. The attempts are kept by the
   * same statement.
   */
  private async recordDelivered(done: Array<{ delivery: ClaimedDelivery; outcome: TimedOutcome }>, manual = false): Promise<void> {
    if (done.length === 0) return;
    await this.dataSource.query(
      `WITH delivered AS (
         UPDATE webhook_delivery d SET status = 'DELIVERED', delivered_at = now(), failed_at = NULL, last_status_code = v.code, last_error = NULL,
                last_latency_ms = v.latency
           FROM unnest($1::bigint[], $2::int[], $4::int[]) AS v(id, code, latency) WHERE d.id = v.id
         RETURNING d.endpoint_id),
       attempt AS (${INSERT_ATTEMPTS(5, "$3")})
       UPDATE webhook_endpoint SET failing_since = NULL, disabled_at = CASE WHEN $3 THEN NULL ELSE disabled_at END
        WHERE id IN (SELECT endpoint_id FROM delivered) AND (failing_since IS NOT NULL OR disabled_at IS NOT NULL)`,
      [
        done.map(({ delivery }) => delivery.id),
        done.map(({ outcome }) => outcome.statusCode),
        manual,
        done.map(({ outcome }) => outcome.latencyMs),
        ...attemptColumns(done),
      ],
    );
  }

  /** Records a failed attempt (kept with the delivery's last answer, in one statement) and the endpoint's failure streak. */
  private async recordFailure(delivery: ClaimedDelivery, outcome: TimedOutcome, manual = false): Promise<void> {
    const expired = Date.now() - new Date(delivery.created_at).getTime() >= this.config.retryHorizonMs;
    const delayMs = retryDelayMs(delivery.attempts, this.config.retryBaseMs, this.config.retryMaxDelayMs);
    await this.dataSource.query(
      `WITH attempt AS (${INSERT_ATTEMPTS(8, "$7")})
       UPDATE webhook_delivery
          SET last_status_code = $2, last_error = $3, last_latency_ms = $6,
              status = CASE WHEN $4 THEN 'FAILED' ELSE status END,
              failed_at = CASE WHEN $4 THEN now() ELSE failed_at END,
              next_attempt_at = now() + $5 * interval '1 millisecond'
        WHERE id = $1 AND status <> 'DELIVERED'`,
      [
        delivery.id,
        outcome.statusCode,
        outcome.error?.slice(0, 300) ?? null,
        expired,
        delayMs,
        outcome.latencyMs,
        manual,
        ...attemptColumns([{ delivery, outcome }]),
      ],
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

/** Claimed rows grouped into one run per endpoint, each in chain order (RETURNING gives no order). */
function runsOf(rows: ClaimedDelivery[]): ClaimedDelivery[][] {
  const byEndpoint = new Map<number, ClaimedDelivery[]>();
  for (const row of rows) {
    const run = byEndpoint.get(row.endpoint_id);
    if (run) run.push(row);
    else byEndpoint.set(row.endpoint_id, [row]);
  }
  const runs = [...byEndpoint.values()];
  for (const run of runs) run.sort((a, b) => (BigInt(a.seq) < BigInt(b.seq) ? -1 : 1));
  return runs;
}

/** Rows of an `UPDATE ... RETURNING`: TypeORM answers UPDATE with `[rows, affectedCount]` on PostgreSQL. */
export function unwrapRows<T>(result: unknown): T[] {
  const value = result as unknown[];
  return (Array.isArray(value[0]) && typeof value[1] === "number" ? value[0] : value) as T[];
}
