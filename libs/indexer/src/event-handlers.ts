import type { ContractKind } from "./decode";
import { EXCHANGE_HANDLERS } from "./handlers/exchange";
import { FACTORY_HANDLERS } from "./handlers/factory";
import type { EventHandler, ProjectedTable } from "./handlers/handler";
import { RAFFLE_DRAW_HANDLERS } from "./handlers/raffle-draw";
import { RAFFLE_ITEM_HANDLERS } from "./handlers/raffle-items";
import { RAFFLE_PURCHASE_HANDLERS } from "./handlers/raffle-purchases";
import { RAFFLE_ROUND_HANDLERS } from "./handlers/raffle-rounds";
import { RAFFLE_SETTLEMENT_HANDLERS } from "./handlers/raffle-settlement";
import { TICKET_HANDLERS } from "./handlers/ticket";

/**
 * The one table of what each chain event means: per contract kind and event name, the handler that projects it into
 * rows, the tables it writes (which the undo triggers must cover: test/undo-coverage.spec.ts) and the webhook message
 * that announces it, about the subject its projection returns. The projector, the batch and the webhook outbox all
 * read it; an event without an entry is kept in the raw log only (configuration and role events). Adding an event is
 * one entry in its family's file (handlers/).
 */
export const EVENT_HANDLERS: readonly EventHandler[] = [
  ...FACTORY_HANDLERS,
  ...RAFFLE_ROUND_HANDLERS,
  ...RAFFLE_PURCHASE_HANDLERS,
  ...RAFFLE_DRAW_HANDLERS,
  ...RAFFLE_SETTLEMENT_HANDLERS,
  ...RAFFLE_ITEM_HANDLERS,
  ...TICKET_HANDLERS,
  ...EXCHANGE_HANDLERS,
];

/**
 * Tables handlers write that a reorg deliberately leaves alone, with the reason; they have no undo trigger. A merchant
 * is an account (API keys, webhook endpoints, vouchers hang from it) that outlives the raffle it was first seen with.
 */
export const KEPT_ON_REORG: Partial<Record<ProjectedTable, string>> = {
  merchant: "an account that outlives its raffles: API keys, endpoints and vouchers refer to it",
};

const byKey = new Map(EVENT_HANDLERS.map((handler) => [`${handler.contract}:${handler.event}`, handler]));
if (byKey.size !== EVENT_HANDLERS.length) throw new Error("event-handlers: two entries for the same contract kind and event");

export function handlerFor(kind: ContractKind, event: string): EventHandler | undefined {
  return byKey.get(`${kind}:${event}`);
}

/** Every table some handler writes, sorted. */
export function projectedTables(): ProjectedTable[] {
  return [...new Set(EVENT_HANDLERS.flatMap((handler) => handler.writes))].sort();
}

export type { BulkEventHandler, EventHandler, HandlerDeps, Projection, ProjectedTable, SingleEventHandler, WebhookSubject } from "./handlers/handler";
export { isBulk } from "./handlers/handler";
