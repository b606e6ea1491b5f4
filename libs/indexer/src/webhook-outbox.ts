import { randomBytes } from "node:crypto";
import type { EntityManager } from "typeorm";
import { tokenTypeName } from "@raffle/chain";

import type { EventArgs, JsonValue } from "./decode";
import type { IndexedEvent } from "./indexed-event";

/**
 * The webhook outbox: the indexer writes the messages of a batch's events in the batch's own transaction, so a crash
 * never loses one and a rolled-back batch never sends one. The API's delivery loop sends them (apps/api webhooks).
 * The tables have no undo trigger: a reorg adds retractions (`removed: true`, same `eventId`), it deletes nothing.
 */

/** Every message type, in the order the README lists them. Merchant tooling relies on these names. */
export const WEBHOOK_EVENT_TYPES = [
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
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The chain event each type comes from (Paused/Unpaused only of raffles: the Exchange's pause is the platform's). */
const TYPE_OF_EVENT: Record<string, WebhookEventType> = {
  RaffleDeployed: "raffle.deployed",
  RoundStarted: "round.started",
  TicketsPurchased: "ticket.purchased",
  RoundEnded: "round.ended",
  WinnersDrawn: "round.drawn",
  RoundRefundable: "round.refundable",
  TicketRefunded: "ticket.refunded",
  PrizeClaimed: "prize.claimed",
  PrizeReleased: "prize.released",
  Claimed: "claim.redeemed",
  Paused: "raffle.paused",
  Unpaused: "raffle.unpaused",
};

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

interface Subject {
  merchantId: number;
  contractId: number | null;
  data: Record<string, JsonValue | number | null>;
}

interface Endpoint {
  id: number;
  merchant_id: number;
  events: string[];
}

/**
 * Writes the messages (one per event and merchant) and their deliveries (one per enabled endpoint subscribed to the
 * type) of `events`, new in this batch, after they were projected. Call it inside the batch transaction.
 */
export async function writeWebhookMessages(
  manager: EntityManager,
  chainId: number,
  events: Array<IndexedEvent | null>,
  blockHashOf: (blockNumber: number) => string,
): Promise<number> {
  const candidates = events
    .filter((event): event is IndexedEvent => event !== null && TYPE_OF_EVENT[event.name] !== undefined)
    .sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex);
  if (candidates.length === 0) return 0;
  // Most deployments have few endpoints: one cheap look before any per-event work (the purchase path is hot).
  const endpoints: Endpoint[] = await manager.query(`SELECT id, merchant_id, events FROM webhook_endpoint WHERE disabled_at IS NULL`);
  if (endpoints.length === 0) return 0;
  const contracts = new Map<string, { id: number; merchantId: number; module: string } | null>();
  const contractAt = async (address: string) => {
    if (!contracts.has(address)) {
      const [row] = await manager.query(`SELECT id, merchant_id, contract_module FROM contract WHERE chain_id = $1 AND address = $2`, [
        chainId,
        address,
      ]);
      contracts.set(address, row ? { id: row.id, merchantId: row.merchant_id, module: row.contract_module } : null);
    }
    return contracts.get(address)!;
  };

  // An event already announced (and not retracted) in the same block is not announced again: a chain indexed anew
  // after a reset replays its history, which must not reach the game backends a second time. (A local chain restarted
  // from genesis may repeat transaction hashes, but in blocks of other hashes: those are new events.)
  const announced = await announcedEvents(
    manager,
    candidates.map((event) => webhookEventId(chainId, event.txHash, event.logIndex)),
  );
  const rows: Array<{ message: WebhookMessageBody; merchantId: number; endpointIds: number[] }> = [];
  const createdAt = new Date().toISOString();
  for (const event of candidates) {
    const type = TYPE_OF_EVENT[event.name];
    const subject = await subjectOf(manager, event, type, contractAt);
    const eventId = webhookEventId(chainId, event.txHash, event.logIndex);
    if (!subject || announced.get(`${subject.merchantId}/${eventId}`) === blockHashOf(event.blockNumber)) continue;
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
        data: subject.data,
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

/** The merchant, API contract id and facts of an event; null when it concerns no merchant (the platform's pause). */
async function subjectOf(
  manager: EntityManager,
  event: IndexedEvent,
  type: WebhookEventType,
  contractAt: (address: string) => Promise<{ id: number; merchantId: number; module: string } | null>,
): Promise<Subject | null> {
  const data: Record<string, JsonValue | number | null> = { ...(apiShape(event.args as EventArgs) as EventArgs) };
  if (type === "raffle.deployed") {
    const raffle = await contractAt(String(event.args.raffle));
    return raffle && { merchantId: raffle.merchantId, contractId: raffle.id, data };
  }
  if (type === "claim.redeemed") {
    const [claim] = await manager.query(`SELECT id, merchant_id, contract_id, items FROM claim WHERE claim_type = 'VOUCHER' AND nonce = $1`, [
      String(event.args.nonce),
    ]);
    if (!claim) return null;
    return { merchantId: claim.merchant_id, contractId: claim.contract_id ?? null, data: { ...data, claimId: claim.id, items: claim.items } };
  }
  const contract = await contractAt(event.address);
  if (!contract || contract.module !== "RAFFLE") return null;
  if (type === "round.drawn") {
    // The projection just wrote the winners and their prize claims: every position with its ticket, holder, share,
    // amount before commission and claim (whose item is the prize after commission). The first position's fields
    // stay at the top level as before.
    const winners: Array<{
      position: number;
      ticket_id: string;
      account: string;
      share: number;
      amount: string;
      claim_id: number | null;
      items: JsonValue[] | null;
    }> = await manager.query(
      `SELECT w.position, w.ticket_id::text AS ticket_id, w.account, w.share, w.amount::text AS amount, c.id AS claim_id, c.items
           FROM round_winner w JOIN round r ON r.id = w.round_id
           LEFT JOIN claim c ON c.contract_id = r.contract_id AND c.token_id = w.ticket_id AND c.claim_type = 'RAFFLE_PRIZE'
          WHERE r.contract_id = $1 AND r.round_id = $2 ORDER BY w.position`,
      [contract.id, String(event.args.roundId)],
    );
    data.winners = winners.map((winner) => ({
      position: winner.position,
      ticketId: winner.ticket_id,
      account: winner.account,
      share: winner.share,
      amount: winner.amount,
      prize: winner.items?.[0] ?? null,
      claimId: winner.claim_id,
    })) as unknown as JsonValue;
    const first = winners[0];
    if (first) Object.assign(data, { winner: first.account, prize: first.items?.[0] ?? null, claimId: first.claim_id });
  }
  if (type === "round.refundable") {
    const [round] = await manager.query(`SELECT refund_reason, ticket_count FROM round WHERE contract_id = $1 AND round_id = $2`, [
      contract.id,
      String(event.args.roundId),
    ]);
    if (round) Object.assign(data, { reason: round.refund_reason, ticketCount: round.ticket_count });
  }
  return { merchantId: contract.merchantId, contractId: contract.id, data };
}

async function insertMessages(
  manager: EntityManager,
  rows: Array<{ message: WebhookMessageBody; merchantId: number; endpointIds: number[] }>,
): Promise<void> {
  if (rows.length === 0) return;
  // One statement each for messages and deliveries, whatever the batch size; `seq` follows the array's (chain) order.
  const inserted: Array<{ id: string; seq: string }> = await manager.query(
    `INSERT INTO webhook_message (id, merchant_id, type, removed, event_id, chain_id, block_number, body)
     SELECT v.id, v.merchant_id, v.type, v.removed, v.event_id, v.chain_id, v.block_number, v.body
       FROM unnest($1::text[], $2::int[], $3::text[], $4::bool[], $5::text[], $6::int[], $7::bigint[], $8::text[]) WITH ORDINALITY
         AS v(id, merchant_id, type, removed, event_id, chain_id, block_number, body, n)
      ORDER BY v.n
     RETURNING id, seq`,
    [
      rows.map((row) => row.message.id),
      rows.map((row) => row.merchantId),
      rows.map((row) => row.message.type),
      rows.map((row) => row.message.removed),
      rows.map((row) => row.message.eventId),
      rows.map((row) => row.message.chainId),
      rows.map((row) => row.message.blockNumber),
      rows.map((row) => JSON.stringify(row.message)),
    ],
  );
  const seqOf = new Map(inserted.map((row) => [row.id, row.seq]));
  const deliveries = rows.flatMap((row) =>
    row.endpointIds.map((endpointId) => ({ endpointId, messageId: row.message.id, seq: seqOf.get(row.message.id)! })),
  );
  await manager.query(
    `INSERT INTO webhook_delivery (endpoint_id, message_id, seq)
     SELECT v.endpoint_id, v.message_id, v.seq FROM unnest($1::int[], $2::text[], $3::bigint[]) AS v(endpoint_id, message_id, seq)`,
    [deliveries.map((d) => d.endpointId), deliveries.map((d) => d.messageId), deliveries.map((d) => d.seq)],
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
