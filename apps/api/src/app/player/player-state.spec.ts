import { PlayerTicketState } from "./player.dto";
import { ticketState } from "./player-tickets.service";
import { nextDrawAt } from "./public-raffles.service";

describe("a ticket's state for its player", () => {
  const row = (ticket_status: string, round_status: string, is_prize = false) => ({ ticket_status, round_status, is_prize });

  it("follows the ticket's own status first, then its round's", () => {
    expect(ticketState(row("ACTIVE", "ACTIVE"))).toBe(PlayerTicketState.ACTIVE);
    expect(ticketState(row("ACTIVE", "DRAWING"))).toBe(PlayerTicketState.ACTIVE);
    expect(ticketState(row("ACTIVE", "WINNERS_PENDING"))).toBe(PlayerTicketState.ACTIVE);
    expect(ticketState(row("ACTIVE", "DRAWN", true))).toBe(PlayerTicketState.WON);
    expect(ticketState(row("ACTIVE", "DRAWN"))).toBe(PlayerTicketState.LOST);
    expect(ticketState(row("ACTIVE", "CLAIMED"))).toBe(PlayerTicketState.LOST);
    expect(ticketState(row("ACTIVE", "RELEASED"))).toBe(PlayerTicketState.LOST);
    expect(ticketState(row("ACTIVE", "REFUNDABLE"))).toBe(PlayerTicketState.REFUNDABLE);
    expect(ticketState(row("REFUNDED", "REFUNDABLE"))).toBe(PlayerTicketState.REFUNDED);
    expect(ticketState(row("PRIZE_CLAIMED", "CLAIMED", true))).toBe(PlayerTicketState.CLAIMED);
    expect(ticketState(row("PRIZE_RELEASED", "RELEASED", true))).toBe(PlayerTicketState.RELEASED);
  });

  it("keeps each of several winners of one round WON until its own prize is claimed, while the others are claimed", () => {
    expect(ticketState(row("PRIZE_CLAIMED", "DRAWN", true))).toBe(PlayerTicketState.CLAIMED);
    expect(ticketState(row("ACTIVE", "DRAWN", true))).toBe(PlayerTicketState.WON);
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
