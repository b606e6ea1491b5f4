import { formatUnits } from "viem";

/** An amount in the token's smallest unit, shown with its symbol (trailing zeros trimmed by formatUnits). */
export function formatAmount(amount: string | bigint, decimals: number, symbol: string): string {
  return `${formatUnits(BigInt(amount), decimals)} ${symbol}`.trim();
}

export function shortAddress(address: string): string {
  return `${address.slice(0, 6)}…${address.slice(-4)}`;
}

/** "in 3 min", "in 2 h 5 min", for the next draw. */
export function timeUntil(iso: string, now = Date.now()): string {
  const minutes = Math.max(0, Math.round((new Date(iso).getTime() - now) / 60_000));
  if (minutes < 1) return "in less than a minute";
  if (minutes < 60) return `in ${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `in ${hours} h ${minutes % 60} min`;
  return `in ${Math.floor(hours / 24)} days`;
}
