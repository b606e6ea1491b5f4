import { ApiError, type GaslessRequest } from "./api";

/** A request's state as a sentence; `failed` carries the API's own sentence for the player. */
export function gaslessStateText(request: GaslessRequest): string {
  const what = request.kind === "purchase" ? "purchase" : request.kind === "claim" ? "prize claim" : "refund";
  switch (request.state) {
    case "queued":
      return request.kind === "purchase"
        ? "Your purchase is on its way: the organiser sends it to the network and pays the fee."
        : `Your ${what} is on its way: the organiser sends it to the network and pays the fee.`;
    case "sent":
      return `Your ${what} was sent to the network. Waiting for it to be confirmed…`;
    case "mined":
      if (request.kind === "purchase") {
        const count = request.quantity ?? request.ticketIds.length;
        const numbers = request.ticketIds.length > 0 ? ` Ticket ${request.ticketIds.map((id) => `#${id}`).join(", ")}.` : "";
        return `${count === 1 ? "Ticket" : `${count} tickets`} bought without gas!${numbers} ${count === 1 ? "It is" : "They are"} in My tickets.`;
      }
      return request.kind === "claim"
        ? "Prize claimed without gas: it is in your wallet."
        : "Refunded without gas: the ticket price is back in your wallet.";
    case "failed":
      return request.failureReason ?? `Your ${what} could not be completed. Your tokens did not move; please try again.`;
  }
}

/** The id a submission answered, or the one a gaslessDuplicate refusal names (the same voucher is already queued). */
export function duplicateRequestId(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.code !== "gaslessDuplicate") return null;
  const id = error.problem.existingId;
  return typeof id === "string" ? id : null;
}
