import type { EntityManager } from "typeorm";

import type { ContractKind, JsonValue } from "../decode";
import type { IndexedEvent } from "../indexed-event";
import type { Registry, RegisteredContract } from "../registry";
import type { TokenMetadataReader } from "../token-metadata";
import type { WebhookEventType } from "../webhook-outbox";
import type { EventArgName, EventName } from "./contract-events";
import type { PriceTokens } from "./price-tokens";

/** What one entry of the event table (event-handlers.ts) is made of, and what its handler gets and gives back. */

/** The tables handlers write. Each needs the `indexer_undo_<table>_*` triggers, unless KEPT_ON_REORG names it. */
export type ProjectedTable =
  "merchant" | "contract" | "template" | "token" | "price" | "price_component" | "round" | "ticket" | "round_winner" | "round_item" | "claim";

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

interface HandlerEntry<Event extends IndexedEvent = IndexedEvent> {
  contract: ContractKind;
  event: string;
  /** Every table the projection may write: the undo triggers must cover them (test/undo-coverage.spec.ts). */
  writes: readonly ProjectedTable[];
  /** The webhook message type announcing it; none when merchants are not told. */
  webhook?: WebhookEventType;
  /** False for events of this name that change nothing (ticket mints and burns): the batch passes them by. */
  applies?(event: Event): boolean;
}

/** Projects events one at a time. */
export interface SingleEventHandler<Event extends IndexedEvent = IndexedEvent> extends HandlerEntry<Event> {
  project(deps: HandlerDeps, manager: EntityManager, event: Event, contract: RegisteredContract): Promise<Projection | void>;
}

/**
 * Projects a run of consecutive events of its kind in one go (the hot path: purchases are the bulk of any history). It
 * announces each event about the event's own contract.
 */
export interface BulkEventHandler<Event extends IndexedEvent = IndexedEvent> extends HandlerEntry<Event> {
  projectAll(deps: HandlerDeps, manager: EntityManager, events: Event[]): Promise<void>;
}

export type EventHandler = SingleEventHandler | BulkEventHandler;

export function isBulk(handler: EventHandler): handler is BulkEventHandler {
  return "projectAll" in handler;
}

/** An event of `Kind` named `Name`, its arguments named as the compiled contract names them. */
export type ContractEvent<Kind extends ContractKind, Name extends EventName<Kind>> = IndexedEvent<EventArgName<Kind, Name>>;

/** A handler for event `Name` of `Kind`: the names are checked against the compiled contract's (contract-events.ts). */
type Typed<Handler, Kind extends ContractKind, Name extends EventName<Kind>> = Omit<Handler, "contract" | "event"> & { contract: Kind; event: Name };

/**
 * One entry of the event table, typed from the contract: `event` must be an event of `contract`'s kind and the
 * handler reads only that event's arguments. The table holds it untyped (events arrive by name at run time).
 */
export function onEvent<Kind extends ContractKind, Name extends EventName<Kind>>(
  handler: Typed<SingleEventHandler<ContractEvent<Kind, Name>>, Kind, Name>,
): SingleEventHandler {
  return handler as unknown as SingleEventHandler;
}

/** `onEvent` for a handler that projects a run of events at once. */
export function onEvents<Kind extends ContractKind, Name extends EventName<Kind>>(
  handler: Typed<BulkEventHandler<ContractEvent<Kind, Name>>, Kind, Name>,
): BulkEventHandler {
  return handler as unknown as BulkEventHandler;
}
