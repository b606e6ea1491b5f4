import type { EntityManager } from "typeorm";

import { handlerFor, isBulk, type BulkEventHandler, type EventHandler, type HandlerDeps } from "./event-handlers";
import { PriceTokens } from "./handlers/price-tokens";
import type { IndexedEvent } from "./indexed-event";
import type { Registry, RegisteredContract } from "./registry";
import type { TokenMetadataReader } from "./token-metadata";
import type { WebhookEventType } from "./webhook-outbox";
import type { WebhookSubject } from "./handlers/handler";

export { prizeAmounts } from "@raffle/chain/rules";

export interface ProjectorDeps {
  chainId: number;
  platformMerchantId: number;
  /** Cron schedule given to newly registered raffles until their merchant sets one. */
  defaultSchedule: string;
  registry: Registry;
  tokens: TokenMetadataReader;
}

/** An event that changes rows: its entry in the event table and the registered contract that emitted it. */
export interface Route {
  handler: EventHandler;
  contract: RegisteredContract;
}

/** A webhook message to write for an applied event (webhook-outbox.ts). */
export interface Announcement {
  event: IndexedEvent;
  type: WebhookEventType;
  subject: WebhookSubject;
}

/**
 * Turns events into rows through the event table (event-handlers.ts). A reorg is rolled back from the undo log that
 * the database records of every row change made here (see undo-log.ts). Rows take their timestamps from blocks, so a
 * replay or a restart writes exactly what a clean run writes.
 */
export class Projector {
  private readonly deps: HandlerDeps;

  constructor(deps: ProjectorDeps) {
    this.deps = { ...deps, priceTokens: new PriceTokens(deps) };
  }

  /**
   * Reloads the registry and forgets the row ids cached by handlers. A rollback (here, or by another process while
   * this one did not lead, or a failed batch) may have deleted the rows they name.
   */
  async reload(manager: EntityManager): Promise<void> {
    this.deps.priceTokens.forget();
    await this.deps.registry.load(manager, this.deps.chainId);
  }

  /** The handler of an event and its contract; undefined for an event that changes no row (kept raw only). */
  route(event: IndexedEvent): Route | undefined {
    const contract = this.deps.registry.get(event.address);
    const handler = contract && handlerFor(contract.kind, event.name);
    if (!contract || !handler || (handler.applies && !handler.applies(event))) return undefined;
    return { handler, contract };
  }

  /** Applies one event of a single-event handler; returns the contracts it registered and its announcement. */
  async apply(
    manager: EntityManager,
    { handler, contract }: Route,
    event: IndexedEvent,
  ): Promise<{ registered: RegisteredContract[]; announcement: Announcement | null }> {
    if (isBulk(handler)) throw new Error(`${handler.event} is projected in bulk (applyAll)`);
    const projection = (await handler.project(this.deps, manager, event, contract)) ?? {};
    const subject = projection.subject === undefined ? { merchantId: contract.merchantId, contractId: contract.id } : projection.subject;
    return {
      registered: projection.registered ?? [],
      announcement: handler.webhook && subject ? { event, type: handler.webhook, subject } : null,
    };
  }

  /** Applies consecutive events of one bulk handler; each is announced about its own contract. */
  async applyAll(manager: EntityManager, handler: BulkEventHandler, events: IndexedEvent[]): Promise<Announcement[]> {
    if (events.length === 0) return [];
    await handler.projectAll(this.deps, manager, events);
    const type = handler.webhook;
    if (!type) return [];
    return events.map((event) => {
      const contract = this.deps.registry.get(event.address)!;
      return { event, type, subject: { merchantId: contract.merchantId, contractId: contract.id } };
    });
  }
}
