import { netPrize, prizeAmounts } from "@raffle/chain/rules";

/** What a winning position pays, as the Raffle's claim does: its gross share less the commission rounded down. */
export { netPrize };

/**
 * The words every page (player app and console) gives a prize's three figures, so a player and a merchant reading the
 * same prize see the same labels: the winner's share of the pot, the organiser's cut, and what the claim pays.
 */
export const PRIZE_LABELS = { gross: "gross share", rate: "commission rate", net: "net prize paid" } as const;

/** Basis points as the API gives them (a decimal string); null when absent or not a whole number. */
export function basisPointsOf(value: unknown): bigint | null {
  return typeof value === "string" && /^\d+$/.test(value) ? BigInt(value) : null;
}

/** A raffle's commission in basis points, as the API reads it from the contract (`parameters.commission`); null unknown. */
export function commissionOf(raffle: { parameters?: unknown } | undefined): bigint | null {
  const parameters = raffle?.parameters as { commission?: unknown } | undefined;
  return basisPointsOf(parameters?.commission);
}

/** "10%", "2.5%": a commission in basis points as a rate. */
export function rateText(basisPoints: bigint): string {
  return `${Number(basisPoints) / 100}%`;
}
/** Each winner position's gross share of a pot, first prize first, as the Raffle splits it (the shared rule). */
export function grossShares(pot: string | bigint, shares: readonly number[]): bigint[] {
  return prizeAmounts(pot, shares);
}

export interface PrizeFigures {
  /** The winner's share of the pot before commission, smallest unit. */
  gross: string | bigint | null;
  /** The raffle's commission in basis points. */
  commission: bigint | null;
  /** What the claim pays, when the API knows it (its claim); else worked out from the two above. */
  net?: string | bigint | null;
}

/**
 * "gross share 0.01 ETH · commission rate 10% · net prize paid 0.009 ETH": a prize's figures, labelled, leaving out
 * what is not known (the commission before the indexer has read it).
 */
export function prizeFiguresText({ gross, commission, net }: PrizeFigures, money: (amount: string | bigint) => string): string {
  const paid = net ?? (gross !== null && commission !== null ? netPrize(gross, commission) : null);
  return [
    gross !== null && `${PRIZE_LABELS.gross} ${money(gross)}`,
    commission !== null && `${PRIZE_LABELS.rate} ${rateText(commission)}`,
    paid !== null && `${PRIZE_LABELS.net} ${money(paid)}`,
  ]
    .filter(Boolean)
    .join(" · ");
}
