import type { Integer } from "./integer";

/**
 * The Raffle's bundle price (contracts/src/libraries/BundlePrice.sol): the API signs vouchers at it and the player
 * app shows it, so both must agree with the contract's `priceOf`, or a purchase reverts. vectors.json holds the cases
 * the contract and this file are both checked against.
 */

/** A bundle of a round's rules: `quantity` tickets for `price` in all (a multiple of the quantity). */
export interface BundleRule {
  quantity: Integer;
  price: Integer;
}

/**
 * The per-ticket price of the largest bundle whose quantity is at most `quantity` (bundles rise in quantity), else the
 * round's `unitPrice`, with its tier (1-based; 0 = no bundle), as `BundlePrice.perTicket` gives them.
 */
export function bundlePrice(bundles: readonly BundleRule[], unitPrice: Integer, quantity: Integer): { perTicket: bigint; tier: number } {
  let perTicket = BigInt(unitPrice);
  let tier = 0;
  const wanted = BigInt(quantity);
  for (const [index, bundle] of bundles.entries()) {
    if (BigInt(bundle.quantity) > wanted) break;
    perTicket = BigInt(bundle.price) / BigInt(bundle.quantity);
    tier = index + 1;
  }
  return { perTicket, tier };
}

/** What `quantity` tickets cost in all, as the Raffle's `priceOf` answers: the per-ticket price times the quantity. */
export function priceForQuantity(bundles: readonly BundleRule[], unitPrice: Integer, quantity: Integer): bigint {
  return bundlePrice(bundles, unitPrice, quantity).perTicket * BigInt(quantity);
}
