import { netPrize } from "@raffle/chain/rules";

import type { PublicRaffle } from "./api";

/** What a winning position pays, as the Raffle's claim does: its gross share less the commission rounded down. */
export { netPrize };

/** A raffle's commission in basis points, as the API reads it from the contract (`parameters.commission`); null unknown. */
export function commissionOf(raffle: PublicRaffle["raffle"] | undefined): bigint | null {
  const value = raffle?.parameters?.commission;
  return typeof value === "string" && /^\d+$/.test(value) ? BigInt(value) : null;
}

/** "10%", "2.5%": a commission in basis points as a rate. */
export function rateText(basisPoints: bigint): string {
  return `${Number(basisPoints) / 100}%`;
}
