import { PlayerTicketState } from "./player.dto";
import { ticketState } from "./player-tickets.service";
import { nextDrawAt } from "./public-raffles.service";

describe("a ticket's state for its player", () => {
  const row = (ticket_status: string, round_status: string, winner: string | null = null) => ({
    ticket_status,
    round_status,
    winning_ticket_id: winner,
    token_id: "7",
  });

  it("follows the ticket's own status first, then its round's", () => {
    expect(ticketState(row("ACTIVE", "ACTIVE"))).toBe(PlayerTicketState.ACTIVE);
    expect(ticketState(row("ACTIVE", "DRAWING"))).toBe(PlayerTicketState.ACTIVE);
    expect(ticketState(row("ACTIVE", "DRAWN", "7"))).toBe(PlayerTicketState.WON);
    expect(ticketState(row("ACTIVE", "DRAWN", "8"))).toBe(PlayerTicketState.LOST);
    expect(ticketState(row("ACTIVE", "CLAIMED", "8"))).toBe(PlayerTicketState.LOST);
    expect(ticketState(row("ACTIVE", "REFUNDABLE"))).toBe(PlayerTicketState.REFUNDABLE);
    expect(ticketState(row("REFUNDED", "REFUNDABLE"))).toBe(PlayerTicketState.REFUNDED);
    expect(ticketState(row("PRIZE_CLAIMED", "CLAIMED", "7"))).toBe(PlayerTicketState.CLAIMED);
    expect(ticketState(row("PRIZE_RELEASED", "RELEASED", "7"))).toBe(PlayerTicketState.RELEASED);
  });
});

describe("the next draw of a schedule", () => {
  it("is the cron schedule's next time in UTC, and null for a schedule that does not read", () => {
    const next = nextDrawAt("0 * * * *");
    expect(next).not.toBeNull();
    const at = new Date(next!);
    expect(at.getUTCMinutes()).toBe(0);
    expect(at.getTime() - Date.now()).toBeGreaterThan(0);
    expect(at.getTime() - Date.now()).toBeLessThanOrEqual(3_600_000);
    expect(nextDrawAt("not a schedule")).toBeNull();
    expect(nextDrawAt(undefined)).toBeNull();
  });
});
