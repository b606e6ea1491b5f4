import type { EntityManager } from "typeorm";

import type { ContractKind, JsonValue } from "../decode";
import type { IndexedEvent } from "../indexed-event";
import type { Registry, RegisteredContract } from "../registry";
import type { TokenMetadataReader } from "../token-metadata";
import type { WebhookEventType } from "../webhook-outbox";
import type { PriceTokens } from "./price-tokens";

/** What one entry of the event table (event-handlers.ts) is made of, and what its handler gets and gives back. */

/** The tables handlers write. Each needs the `indexer_undo_<table>_*` triggers, unless KEPT_ON_REORG names it. */
export type ProjectedTable =
  "merchant" | "contract" | "template" | "token" | "price" | "price_component" | "round" | "ticket" | "round_winner" | "claim";

/** What every handler may use: fixed when the indexer is built, the same for every event of the chain. */
export interface HandlerDeps {
  chainId: number;
  /** The merchant that owns price-token contract rows (the platform's admin wallet). */
  platformMerchantId: number;
  /** Cron schedule given to newly registered raffles until their merchant sets one. */
  defaultSchedule: string;
  registry: Registry;
  tokens: TokenMetadataReader;
  priceTokens: PriceTokens;
}

/** Whom a webhook message goes to and what it adds to the event's arguments, from the rows the handler wrote. */
export interface WebhookSubject {
  merchantId: number;
  contractId: number | null;
  data?: Record<string, JsonValue | number | null>;
}

export interface Projection {
  /** Contracts it registered, whose logs from this block on must be read too. */
  registered?: RegisteredContract[];
  /**
   * The webhook message's subject. Left out: the event's own contract (its merchant and id). Null: no message (the
   * row it concerns does not exist).
   */
  subject?: WebhookSubject | null;
}

interface HandlerEntry {
  contract: ContractKind;
  event: string;
  /** Every table the projection may write: the undo triggers must cover them (test/undo-coverage.spec.ts). */
  writes: readonly ProjectedTable[];
  /** The webhook message type announcing it; none when merchants are not told. */
  webhook?: WebhookEventType;
  /** False for events of this name that change nothing (ticket mints and burns): the batch passes them by. */
  applies?(event: IndexedEvent): boolean;
}

/** Projects events one at a time. */
export interface SingleEventHandler extends HandlerEntry {
  project(deps: HandlerDeps, manager: EntityManager, event: IndexedEvent, contract: RegisteredContract): Promise<Projection | void>;
}

/**
 * Projects a run of consecutive events of its kind in one go (the hot path: purchases are the bulk of any history). It
 * announces each event about the event's own contract.
 */
export interface BulkEventHandler extends HandlerEntry {
  projectAll(deps: HandlerDeps, manager: EntityManager, events: IndexedEvent[]): Promise<void>;
}

export type EventHandler = SingleEventHandler | BulkEventHandler;

export function isBulk(handler: EventHandler): handler is BulkEventHandler {
  return "projectAll" in handler;
}
