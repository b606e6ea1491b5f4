import { Contract, type ContractRunner } from "ethers";
import { RAFFLE_TICKET_CLIENT_ABI, TicketStatus } from "@raffle/chain";

import type { Integer } from "./draw-rule";

/** What a ticket stands for now, as its ticket contract answers (`RaffleTicket.ticketState`). */
export interface TicketState {
  roundId: bigint;
  /** The price tier it was bought at: 0 = the round's price, i = the round's i-th bundle. */
  tier: bigint;
  /** What it paid, and what a refund pays back, in the round's price token (smallest unit). */
  price: bigint;
  status: TicketStatus;
  won: boolean;
  /** Its winner position, 0 = first (as `getWinners`); 0 when it did not win. */
  position: number;
}

/**
 * The state of ticket `ticketId` of the ticket contract at `ticket`: open, lost, won with its prize unclaimed, prize
 * claimed or released, refundable or refunded. A refunded (burned) ticket answers too; an id never minted rejects
 * (`TicketDoesNotExist`).
 */
export async function readTicketState(ticket: string, ticketId: Integer, runner: ContractRunner): Promise<TicketState> {
  const state = await new Contract(ticket, RAFFLE_TICKET_CLIENT_ABI, runner).ticketState(BigInt(ticketId));
  return {
    roundId: state.roundId as bigint,
    tier: state.tier as bigint,
    price: state.price as bigint,
    status: Number(state.status) as TicketStatus,
    won: state.won as boolean,
    position: Number(state.position),
  };
}
