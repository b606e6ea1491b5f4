import type { ApiKey } from "./console-api";

/** A key used within this long is live: revoking it asks first, naming when it was used. */
export const LIVE_KEY_MS = 24 * 60 * 60 * 1000;

const relative = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ["day", 86_400_000],
  ["hour", 3_600_000],
  ["minute", 60_000],
];

/** "1 minute ago", "3 hours ago", "in 2 days": to the minute, as the API keeps a key's use times. */
export function fromNow(iso: string, now = Date.now()): string {
  const elapsed = Date.parse(iso) - now;
  for (const [unit, ms] of UNITS) {
    if (Math.abs(elapsed) >= ms || unit === "minute") {
      const count = Math.trunc(elapsed / ms);
      return count === 0 ? (elapsed <= 0 ? "less than a minute ago" : "within a minute") : relative.format(count, unit);
    }
  }
  return "";
}

export type KeyState = "active" | "rolled" | "revoked";

/** Active, rolled (working until its grace period ends) or revoked, at `now`. */
export function keyState(key: Pick<ApiKey, "revokedAt">, now = Date.now()): KeyState {
  if (!key.revokedAt) return "active";
  return Date.parse(key.revokedAt) > now ? "rolled" : "revoked";
}

/** Whether the key was used within the last 24 hours. */
export function usedRecently(iso: string | null, now = Date.now()): boolean {
  return iso !== null && now - Date.parse(iso) < LIVE_KEY_MS;
}
