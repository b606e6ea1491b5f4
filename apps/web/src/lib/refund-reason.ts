const REFUND_REASONS: Record<string, string> = {
  MINIMUM_NOT_REACHED: "it sold fewer tickets than it needed",
  DRAW_REFUSED: "the draw could not be asked for",
  RANDOMNESS_TIMEOUT: "the random word did not arrive in time",
};

/**
 * Why a round is refundable, in words (My tickets and Round history say the same): a round below its minimum says how
 * many it sold of how many it needed. Undefined when the reason is not known.
 */
export function refundReasonText(reason: string | null | undefined, ticketCount: number, minTickets: number): string | undefined {
  if (reason === "MINIMUM_NOT_REACHED" && minTickets > 0) {
    return `it sold ${ticketCount} of the ${minTickets} ${minTickets === 1 ? "ticket" : "tickets"} it needed`;
  }
  return reason ? REFUND_REASONS[reason] : undefined;
}
