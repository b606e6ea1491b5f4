import { priceForQuantity as priceByRules } from "@raffle/chain/rules";
import type { RoundBundle } from "@raffle/db";

/** Raffle.MAX_TICKETS_PER_PURCHASE: the most tickets one purchase (one voucher) may buy. */
export const MAX_TICKETS_PER_PURCHASE = 100;

/**
 * What `quantity` tickets cost by the round's rules, exactly as the contract's `priceOf`: the price per ticket of the
 * largest bundle whose quantity is at most `quantity` (bundles rise in quantity), else the round's price of one ticket;
 * times the quantity. Bundle prices are multiples of their quantity (the contract refuses others), so nothing rounds.
 * The rule is @raffle/chain's, which the contract's BundlePrice is tested against.
 */
export function priceForQuantity(unitPrice: bigint, bundles: readonly RoundBundle[], quantity: number): bigint {
  return priceByRules(bundles, unitPrice, quantity);
}
