import { priceForQuantity as priceByRules } from "@raffle/chain/rules";
import type { components } from "@raffle/sdk";

/** Round rules of raffle v2 as the API carries them on a round (`rules`). */
export type RoundRulesView = components["schemas"]["RoundRulesDto"];

/** The Raffle's most tickets in one purchase (`MAX_TICKETS_PER_PURCHASE`). */
export const MAX_TICKETS_PER_PURCHASE = 100;

/**
 * What `quantity` tickets cost, as the Raffle decides it (`priceOf`): the per-ticket price of the largest bundle whose
 * quantity is at most `quantity`, else the round's price of one ticket, times the quantity. Smallest units.
 */
export function priceForQuantity(quantity: number, unitPrice: string, bundles: RoundRulesView["bundles"] = []): bigint {
  return priceByRules(bundles, unitPrice, quantity);
}

/** The most tickets one purchase may take: the contract's limit, the round's tickets left, the wallet cap. */
export function maxQuantity(round: { maxTickets: number; ticketCount: number }, rules?: RoundRulesView): number {
  let max = MAX_TICKETS_PER_PURCHASE;
  if (round.maxTickets > 0) max = Math.min(max, round.maxTickets - round.ticketCount);
  if (rules && rules.maxTicketsPerWallet > 0) max = Math.min(max, rules.maxTicketsPerWallet);
  return Math.max(1, max);
}
