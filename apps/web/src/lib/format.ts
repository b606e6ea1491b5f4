import { formatUnits } from "viem";

/** An amount in the token's smallest unit, shown with its symbol (trailing zeros trimmed by formatUnits). */
export function formatAmount(amount: string | bigint, decimals: number, symbol: string): string {
  return `${formatUnits(BigInt(amount), decimals)} ${symbol}`.trim();
}

/**
 * An amount rounded for reading, with its symbol: whole units kept, the fraction to 4 decimals or, below that, to its
 * first 2 significant digits (664009635357617 wei reads "0.00066 ETH"), half up, in integers, never through a float.
 * Show the exact figure (`formatAmount`, or the integer) beside it for whoever needs it.
 */
export function formatAmountRounded(amount: string | bigint, decimals: number, symbol: string): string {
  const value = BigInt(amount);
  const size = value < 0n ? -value : value;
  const unit = 10n ** BigInt(decimals);
  const fraction = size % unit;
  // Decimals kept: 4, or more when the first significant digit of a fraction below 0.0001 lies further right.
  const firstDigit = fraction === 0n || size >= unit ? 0 : decimals - fraction.toString().length + 1;
  const kept = Math.min(decimals, Math.max(4, firstDigit + 1));
  const step = 10n ** BigInt(decimals - kept);
  const rounded = ((size + step / 2n) / step) * step;
  return formatAmount(value < 0n ? -rounded : rounded, decimals, symbol);
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
