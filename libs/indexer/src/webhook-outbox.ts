import { randomBytes } from "node:crypto";
import type { EntityManager } from "typeorm";
import { tokenTypeName } from "@raffle/chain";

import type { EventArgs, JsonValue } from "./decode";
import { runNamed } from "./prepared";
import type { Announcement } from "./projector";

/**
 * The webhook outbox: the indexer writes the messages of a batch's events in the batch's own transaction, so a crash
 * never loses one and a rolled-back batch never sends one. The API's delivery loop sends them (apps/api webhooks).
 * The tables have no undo trigger: a reorg adds retractions (`removed: true`, same `eventId`), it deletes nothing.
 */

/** The chain events' types of item prizes (issue #53): an item sent to its winner, back to the merchant, or not sent. */
export const ITEM_WEBHOOK_EVENT_TYPES = ["item.claimed", "item.returned", "item.transferFailed"] as const;

/** The message types of chain events, which the indexer writes, in the order the README lists them. */
export const CHAIN_WEBHOOK_EVENT_TYPES = [
  "raffle.deployed",
  "round.started",
  "ticket.purchased",
  "round.ended",
  "round.drawn",
  "round.refundable",
  "ticket.refunded",
  "prize.claimed",
  "prize.released",
  "claim.redeemed",
  "raffle.paused",
  "raffle.unpaused",
  ...ITEM_WEBHOOK_EVENT_TYPES,
] as const;

/** The types the API's gasless mailbox writes (issue #52): a relayed request was sent, mined or failed. */
export const GASLESS_WEBHOOK_EVENT_TYPES = ["gasless.sent", "gasless.mined", "gasless.failed"] as const;

/** Every message type. Merchant tooling relies on these names. */
export const WEBHOOK_EVENT_TYPES = [...CHAIN_WEBHOOK_EVENT_TYPES, ...GASLESS_WEBHOOK_EVENT_TYPES] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The body every receiver gets; `id` equals the `webhook-id` header. */
export interface WebhookMessageBody {
  id: string;
  type: WebhookEventType;
  removed: boolean;
  eventId: string;
  chainId: number;
  contractId: number | null;
  roundId: string | null;
  blockNumber: number;
  blockHash: string;
  txHash: string;
  logIndex: number;
  createdAt: string;
  data: Record<string, JsonValue | number | null>;
}

/** A message id: unique per message, also the `webhook-id` header (Standard Webhooks ids are opaque strings). */
export function newWebhookMessageId(): string {
  return `msg_${randomBytes(16).toString("hex")}`;
}

/** Names one chain event; the same for its message and its retraction. */
export function webhookEventId(chainId: number, txHash: string, logIndex: number): string {
  return `${chainId}:${txHash}:${logIndex}`;
}

/** Event arguments as the API shows them: assets' `tokenType` by name (`ERC20`), not the on-chain index. */
function apiShape(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(apiShape);
  if (typeof value !== "object" || value === null) return value;
  const entries = Object.entries(value).map(([key, item]) => [key, apiShape(item)] as const);
  const shaped: { [key: string]: JsonValue } = Object.fromEntries(entries);
  if (typeof shaped.tokenType === "string" && /^\d+$/.test(shaped.tokenType) && "token" in shaped && "amount" in shaped) {
    shaped.tokenType = tokenTypeName(BigInt(shaped.tokenType));
  }
  return shaped;
}

/** Asked once per batch with announcements: a named statement (prepared.ts). */
const ENABLED_ENDPOINTS = {
  name: "indexer-webhook-endpoints",
  text: `SELECT id, merchant_id, events FROM webhook_endpoint WHERE disabled_at IS NULL`,
};

interface Endpoint {
  id: number;
  merchant_id: number;
  events: string[];
}

/**
 * Writes the messages (one per event and merchant) and their deliveries (one per enabled endpoint subscribed to the
 * type) of the events the batch just projected, each about the subject its handler returned (event-handlers.ts).
 * Call it inside the batch transaction.
 */
export async function writeWebhookMessages(
  manager: EntityManager,
  chainId: number,
  announcements: Announcement[],
  blockHashOf: (blockNumber: number) => string,
): Promise<number> {
  if (announcements.length === 0) return 0;
  const candidates = [...announcements].sort((a, b) => a.event.blockNumber - b.event.blockNumber || a.event.logIndex - b.event.logIndex);
  // Most deployments have few endpoints: one cheap look before any per-event work (the purchase path is hot).
  const endpoints = await runNamed<Endpoint>(manager, ENABLED_ENDPOINTS, []);
  if (endpoints.length === 0) return 0;

  // An event already announced (and not retracted) in the same block is not announced again: a chain indexed anew
  // after a reset replays its history, which must not reach the game backends a second time. (A local chain restarted
  // from genesis may repeat transaction hashes, but in blocks of other hashes: those are new events.)
  const announced = await announcedEvents(
    manager,
    candidates.map(({ event }) => webhookEventId(chainId, event.txHash, event.logIndex)),
  );
  const rows: Array<{ message: WebhookMessageBody; merchantId: number; endpointIds: number[] }> = [];
  const createdAt = new Date().toISOString();
  for (const { event, type, subject } of candidates) {
    const eventId = webhookEventId(chainId, event.txHash, event.logIndex);
    if (announced.get(`${subject.merchantId}/${eventId}`) === blockHashOf(event.blockNumber)) continue;
    const endpointIds = endpoints
      .filter((endpoint) => endpoint.merchant_id === subject.merchantId && endpoint.events.includes(type))
      .map((endpoint) => endpoint.id);
    if (endpointIds.length === 0) continue;
    const roundId = event.args.roundId;
    rows.push({
      merchantId: subject.merchantId,
      endpointIds,
      message: {
        id: newWebhookMessageId(),
        type,
        removed: false,
        eventId,
        chainId,
        contractId: subject.contractId,
        roundId: typeof roundId === "string" ? roundId : null,
        blockNumber: event.blockNumber,
        blockHash: blockHashOf(event.blockNumber),
        txHash: event.txHash,
        logIndex: event.logIndex,
        createdAt,
        // The event's arguments, then what its projection added (winners, the refund reason, the voucher's claim).
        data: { ...(apiShape(event.args as EventArgs) as EventArgs), ...subject.data },
      },
    });
  }
  await insertMessages(manager, rows);
  return rows.length;
}

/** Block hash, by `<merchantId>/<eventId>`, of the given events whose latest message is an announcement, not a retraction. */
async function announcedEvents(manager: EntityManager, eventIds: string[]): Promise<Map<string, string>> {
  const rows: Array<{ merchant_id: number; event_id: string; block_hash: string }> = await manager.query(
    `SELECT merchant_id, event_id, block_hash FROM (
       SELECT DISTINCT ON (event_id, merchant_id) merchant_id, event_id, removed, body::jsonb ->> 'blockHash' AS block_hash
         FROM webhook_message WHERE event_id = ANY($1::text[]) ORDER BY event_id, merchant_id, seq DESC) latest
      WHERE NOT removed`,
    [eventIds],
  );
  return new Map(rows.map((row) => [`${row.merchant_id}/${row.event_id}`, row.block_hash]));
}

async function insertMessages(
  manager: EntityManager,
  rows: Array<{ message: WebhookMessageBody; merchantId: number; endpointIds: number[] }>,
): Promise<void> {
  if (rows.length === 0) return;
  // One statement for the messages and their deliveries, whatever the batch size: `seq` follows the array's (chain)
  // order, and each delivery takes its message's `seq` from the rows just inserted.
  const deliveries = rows.flatMap((row) => row.endpointIds.map((endpointId) => ({ endpointId, messageId: row.message.id })));
  await manager.query(
    `WITH message AS (
       INSERT INTO webhook_message (id, merchant_id, type, removed, event_id, chain_id, block_number, body)
       SELECT v.id, v.merchant_id, v.type, v.removed, v.event_id, v.chain_id, v.block_number, v.body
         FROM unnest($1::text[], $2::int[], $3::text[], $4::bool[], $5::text[], $6::int[], $7::bigint[], $8::text[]) WITH ORDINALITY
           AS v(id, merchant_id, type, removed, event_id, chain_id, block_number, body, n)
        ORDER BY v.n
       RETURNING id, seq)
     INSERT INTO webhook_delivery (endpoint_id, message_id, seq)
     SELECT d.endpoint_id, d.message_id, message.seq
       FROM unnest($9::int[], $10::text[]) WITH ORDINALITY AS d(endpoint_id, message_id, n)
       JOIN message ON message.id = d.message_id
      ORDER BY d.n`,
    [
      rows.map((row) => row.message.id),
      rows.map((row) => row.merchantId),
      rows.map((row) => row.message.type),
      rows.map((row) => row.message.removed),
      rows.map((row) => row.message.eventId),
      rows.map((row) => row.message.chainId),
      rows.map((row) => row.message.blockNumber),
      rows.map((row) => JSON.stringify(row.message)),
      deliveries.map((delivery) => delivery.endpointId),
      deliveries.map((delivery) => delivery.messageId),
    ],
  );
}

/**
 * In the reorg rollback transaction: for every event above `ancestor` whose latest message (per merchant) is not a
 * retraction, writes a `removed: true` message with the same `eventId` and data, to the endpoints that got the original.
 * Newest first, the order in which the chain took them back.
 */
export async function retractWebhookMessages(manager: EntityManager, chainId: number, ancestor: number): Promise<number> {
  const latest: Array<{ id: string; merchant_id: number; removed: boolean; body: string }> = await manager.query(
    `SELECT * FROM (
       SELECT DISTINCT ON (event_id, merchant_id) id, merchant_id, removed, body, seq
         FROM webhook_message WHERE chain_id = $1 AND block_number > $2
        ORDER BY event_id, merchant_id, seq DESC) latest
      WHERE NOT removed ORDER BY seq DESC`,
    [chainId, ancestor],
  );
  if (latest.length === 0) return 0;
  const deliveries: Array<{ message_id: string; endpoint_id: number }> = await manager.query(
    `SELECT message_id, endpoint_id FROM webhook_delivery WHERE message_id = ANY($1::text[])`,
    [latest.map((row) => row.id)],
  );
  const createdAt = new Date().toISOString();
  const rows = latest.map((row) => {
    const original = JSON.parse(row.body) as WebhookMessageBody;
    return {
      merchantId: row.merchant_id,
      endpointIds: deliveries.filter((delivery) => delivery.message_id === row.id).map((delivery) => delivery.endpoint_id),
      message: { ...original, id: newWebhookMessageId(), removed: true, createdAt },
    };
  });
  await insertMessages(manager, rows);
  return rows.length;
}
