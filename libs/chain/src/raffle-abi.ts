/**
 * What a client calls and reads on a Raffle, its factory and its ticket: generated from the compiled contracts
 * (generated/client-abis.ts), so a client carries these lines instead of the bindings and their bytecode.
 */
export { RAFFLE_CLIENT_ABI, RAFFLE_FACTORY_CLIENT_ABI, RAFFLE_TICKET_CLIENT_ABI } from "./generated/client-abis";

/** `RoundStatus` of the Raffle (numbers are stored on-chain: new states are appended, never renumbered). */
export enum RoundStatus {
  None = 0,
  Active = 1,
  Drawing = 2,
  Drawn = 3,
  Closed = 4,
  Refundable = 5,
  Claimed = 6,
  Released = 7,
  WinnersPending = 8,
}

/** `PrizeStatus` of a winner position. */
export enum PrizeStatus {
  None = 0,
  Unclaimed = 1,
  Claimed = 2,
  Released = 3,
}

/** `TicketStatus` of `RaffleTicket.ticketState` (what a ticket stands for now; new states are appended). */
export enum TicketStatus {
  Open = 0,
  Lost = 1,
  Won = 2,
  PrizeClaimed = 3,
  PrizeReleased = 4,
  Refundable = 5,
  Refunded = 6,
}
