import type { Integer } from "./integer";

/**
 * The Raffle's prize split and commission (contracts/src/libraries/PrizeSplit.sol), for everyone who shows or
 * records what a winner is paid: the indexer stores these amounts and the player app shows them, so both must be the
 * contract's to the last unit. vectors.json holds the cases the contract and this file are both checked against.
 */

/** Shares and commissions are in basis points: 10,000 is the whole. */
export const BASIS_POINTS = 10_000n;

/**
 * What each winner position pays before commission (`PrizeSplit.prizeOf`): pot x share / 10,000 rounded down for every
 * position but the first, which takes the rest, so the amounts add up to the pot exactly. A round with item prizes
 * may have more `positions` than shares (positions that carry only an item): those pay 0, as the Raffle's
 * `_prizeAmount` does.
 */
export function prizeAmounts(pot: Integer, shares: readonly Integer[], positions = shares.length): bigint[] {
  const whole = BigInt(pot);
  const amounts = shares.slice(0, positions).map((share) => (whole * BigInt(share)) / BASIS_POINTS);
  if (amounts.length > 0) amounts[0] = whole - amounts.slice(1).reduce((sum, amount) => sum + amount, 0n);
  while (amounts.length < positions) amounts.push(0n);
  return amounts;
}

/** The merchant's commission on a prize of `amount` at `rate` basis points, rounded down (`PrizeSplit.commissionOf`). */
export function commissionOf(amount: Integer, rate: Integer): bigint {
  return (BigInt(amount) * BigInt(rate)) / BASIS_POINTS;
}

/** What a winner receives of a prize of `amount`, as the Raffle's claim pays it: the prize less its commission. */
export function netPrize(amount: Integer, rate: Integer): bigint {
  return BigInt(amount) - commissionOf(amount, rate);
}
