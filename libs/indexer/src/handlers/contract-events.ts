import type { Exchange, Raffle, RaffleFactory, RaffleTicket, TypedContractEvent } from "@raffle/chain";

import type { ContractKind } from "../decode";

/**
 * Event and argument names of each contract kind, read from the TypeChain bindings of the compiled contracts, so that
 * a handler naming an event or argument the contract does not emit fails to compile: renaming an event or an argument
 * in Solidity breaks the indexer's typecheck, not its run (contract-events.type-test.ts shows it).
 */

/** The generated binding of each kind: its `filters` hold every event the compiled contract emits. */
interface Bindings {
  EXCHANGE: Exchange;
  FACTORY: RaffleFactory;
  RAFFLE: Raffle;
  TICKET: RaffleTicket;
}

type FiltersOf<Kind extends ContractKind> = Bindings[`${Kind}`]["filters"];

/** The events of `Kind` by bare name (the bindings also key each by its signature, which has parentheses). */
export type EventName<Kind extends ContractKind> = Exclude<keyof FiltersOf<Kind> & string, `${string}(${string}`>;

type OutputObjectOf<Event> = Event extends TypedContractEvent<infer _Input, infer _Output, infer Outputs> ? Outputs : never;

/** The argument names of event `Event` of `Kind`, as the contract declares them. */
export type EventArgName<Kind extends ContractKind, Event extends EventName<Kind>> = keyof OutputObjectOf<FiltersOf<Kind>[Event]> & string;
