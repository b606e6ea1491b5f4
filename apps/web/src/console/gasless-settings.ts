import { formatUnits, parseUnits } from "viem";

import { fromNow } from "./key-times";

/** The most a daily gas budget may be, in ETH: far above any real day, so a typo of extra digits is refused. */
const MOST_ETH = 1_000_000n;

/**
 * An amount of ETH the merchant typed ("0.5", "2", ".25") as a wei string, or the sentence saying why it is refused:
 * a plain decimal with at most 18 digits after the point (what a wei can hold), never negative, never a float.
 */
export function readEthAmount(text: string): { wei: string } | { refusal: string } {
  const trimmed = text.trim();
  if (trimmed === "") return { refusal: "Enter the daily gas budget in ETH, such as 0.5." };
  if (!/^(\d+\.?\d*|\.\d+)$/.test(trimmed)) return { refusal: "Enter the budget as a number of ETH, such as 0.5 (digits and one point only)." };
  const decimals = trimmed.split(".")[1] ?? "";
  if (decimals.length > 18) return { refusal: "At most 18 digits after the point: one wei is 0.000000000000000001 ETH." };
  const wei = parseUnits(trimmed, 18);
  if (wei > MOST_ETH * 10n ** 18n) return { refusal: `At most ${MOST_ETH.toLocaleString("en")} ETH a day.` };
  return { wei: wei.toString() };
}

/** A wei string as ETH for the form and the page ("0.5"), exact: never through a float. */
export function weiToEth(wei: string): string {
  return formatUnits(BigInt(wei), 18);
}

/** The per-player daily limit the merchant typed: a whole number of requests (0: none), or why it is refused. */
export function readPlayerLimit(text: string): { limit: number } | { refusal: string } {
  const trimmed = text.trim();
  if (!/^\d{1,6}$/.test(trimmed)) return { refusal: "Enter a whole number of gas-free requests per player per day, such as 20." };
  const limit = Number(trimmed);
  if (limit > 10_000) return { refusal: "At most 10,000 requests per player a day." };
  return { limit };
}

/** A relayer that claimed jobs within this long counts as running (the API offers "Buy without gas" only then). */
const RELAYER_FRESH_MS = 2 * 60_000;

/** Where the merchant's relayer stands, as a sentence. */
export function relayerSentence(lastSeenAt: string | null, now = Date.now()): string {
  if (!lastSeenAt) return "No relayer has asked for work yet: run the merchant worker with RELAYER_ENABLED=true and a funded key.";
  const seen = `Your relayer last asked for work ${fromNow(lastSeenAt, now)}`;
  return now - Date.parse(lastSeenAt) <= RELAYER_FRESH_MS ? `${seen}.` : `${seen}: players are not offered Buy without gas until it runs again.`;
}
