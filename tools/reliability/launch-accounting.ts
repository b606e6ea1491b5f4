/**
 * The pure accounting of the launch run (launch.ts): the index lag inside and outside the indexer's takeover, and
 * exactly-once of every mined purchase in the database and at the webhook receiver. Kept apart so a unit test can
 * feed it made-up samples and receptions (tools/test/launch-accounting.spec.ts).
 */

/** One look at the index: the chain's head minus the indexed block, at a wall-clock time (ms). */
export interface LagSample {
  at: number;
  lag: number;
}

export interface LagSummary {
  samples: number;
  /** Highest lag outside the takeover window (before the kill, and from the window's end on). */
  maxOutside: number;
  /** Highest lag of the whole run, takeover included. */
  maxAcross: number;
  /** The window: the kill, and the first sample at or after the standby's leadership whose lag is within `bound`. */
  windowStart: number;
  windowEnd: number | null;
  /** Samples above `bound` outside the window (each a breach of the bound). */
  breachesOutside: number;
}

/**
 * The lag figures of one run. The takeover window opens at the leader's kill and closes at the first sample, taken
 * once the standby leads (`leaderAt`), whose lag is back within `bound`: before the standby leads the lag may still
 * look fine for a block or two, so the window cannot close on the first good sample after the kill alone. A window
 * that never closes (`leaderAt` null, or the lag never comes back) leaves every later sample inside it.
 */
export function summarizeLag(samples: LagSample[], killedAt: number, leaderAt: number | null, bound: number): LagSummary {
  const end = leaderAt === null ? undefined : samples.find((sample) => sample.at >= Math.max(leaderAt, killedAt) && sample.lag <= bound);
  const windowEnd = end?.at ?? null;
  const outside = samples.filter((sample) => sample.at < killedAt || (windowEnd !== null && sample.at >= windowEnd));
  const max = (list: LagSample[]) => list.reduce((highest, sample) => Math.max(highest, sample.lag), 0);
  return {
    samples: samples.length,
    maxOutside: max(outside),
    maxAcross: max(samples),
    windowStart: killedAt,
    windowEnd,
    breachesOutside: outside.filter((sample) => sample.lag > bound).length,
  };
}

/** One HTTP request the webhook receiver got: its webhook-id, the message's type and transaction. */
export interface Reception {
  id: string;
  /** When it arrived (ms). */
  at: number;
  type: string;
  txHash: string | null;
  removed: boolean;
}

export interface PurchaseAccount {
  mined: number;
  /** Mined purchases with exactly one ticket row, none, or several. */
  inDatabaseOnce: number;
  missingInDatabase: string[];
  duplicatedInDatabase: string[];
  /** Ticket rows of transactions the load never sent or the chain never mined (must be none). */
  unexpectedInDatabase: number;
  /** Mined purchases with exactly one distinct webhook-id, none, or several. */
  webhookOnce: number;
  missingWebhook: string[];
  /** Purchases that reached the receiver under two or more distinct webhook-ids: a real duplicate, not a re-delivery. */
  splitWebhook: string[];
  /** Receptions of a webhook-id already received (at-least-once re-deliveries: receivers dedupe by webhook-id). */
  redeliveries: number;
  /** Purchase messages whose transaction is not a mined purchase of the load, or retractions (`removed`). */
  unexpectedWebhooks: number;
}

/**
 * Exactly-once of the mined purchases (transaction hashes, any case): each has one ticket row (each purchase buys one
 * ticket) and one distinct webhook-id among the `ticket.purchased` receptions. Re-deliveries of a webhook-id are
 * counted apart: Standard Webhooks' idempotency key makes them harmless to a receiver that dedupes by it.
 */
export function accountPurchases(mined: string[], ticketRowsByTx: Map<string, number>, receptions: Reception[]): PurchaseAccount {
  const minedSet = new Set(mined.map((hash) => hash.toLowerCase()));
  const rows = new Map([...ticketRowsByTx].map(([hash, count]) => [hash.toLowerCase(), count]));
  const idsByTx = new Map<string, Set<string>>();
  const seenIds = new Set<string>();
  let redeliveries = 0;
  let unexpectedWebhooks = 0;
  for (const reception of receptions) {
    if (reception.type !== "ticket.purchased") continue;
    if (seenIds.has(reception.id)) {
      redeliveries += 1;
      continue;
    }
    seenIds.add(reception.id);
    const hash = reception.txHash?.toLowerCase();
    if (!hash || reception.removed || !minedSet.has(hash)) {
      unexpectedWebhooks += 1;
      continue;
    }
    const ids = idsByTx.get(hash) ?? new Set<string>();
    ids.add(reception.id);
    idsByTx.set(hash, ids);
  }
  const account: PurchaseAccount = {
    mined: minedSet.size,
    inDatabaseOnce: 0,
    missingInDatabase: [],
    duplicatedInDatabase: [],
    unexpectedInDatabase: [...rows.entries()].filter(([hash]) => !minedSet.has(hash)).reduce((total, [, count]) => total + count, 0),
    webhookOnce: 0,
    missingWebhook: [],
    splitWebhook: [],
    redeliveries,
    unexpectedWebhooks,
  };
  for (const hash of minedSet) {
    const count = rows.get(hash) ?? 0;
    if (count === 1) account.inDatabaseOnce += 1;
    else if (count === 0) account.missingInDatabase.push(hash);
    else account.duplicatedInDatabase.push(hash);
    const ids = idsByTx.get(hash)?.size ?? 0;
    if (ids === 1) account.webhookOnce += 1;
    else if (ids === 0) account.missingWebhook.push(hash);
    else account.splitWebhook.push(hash);
  }
  return account;
}

/**
 * Re-deliveries of webhook-ids first received after `killedAt`. A worker killed after sending and before recording
 * explains a re-delivery of what it had sent; a message first sent after the kill and sent again has no such excuse.
 */
export function redeliveriesAfter(receptions: Reception[], killedAt: number): number {
  const first = new Map<string, number>();
  let late = 0;
  for (const reception of receptions) {
    if (reception.type !== "ticket.purchased") continue;
    const seen = first.get(reception.id);
    if (seen === undefined) first.set(reception.id, reception.at);
    else if (seen > killedAt) late += 1;
  }
  return late;
}
