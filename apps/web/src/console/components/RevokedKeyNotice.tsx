import { useQuery } from "@tanstack/react-query";

import type { ApiKey } from "../console-api";
import { useConsole } from "../console-context";
import { fromNow, keyState, usedRecently } from "../key-times";

/** The merchant's revoked keys that something still called with in the last 24 hours (refused each time). */
export function useRevokedKeysInUse(): ApiKey[] {
  const { client } = useConsole();
  const keys = useQuery({ queryKey: ["console", "keys"], queryFn: client.apiKeys, refetchInterval: 30_000 });
  return (keys.data ?? []).filter((key) => keyState(key) === "revoked" && usedRecently(key.lastRejectedAt));
}

/** “local stack” (rk_0123456789ab_…): how the console names a key in a sentence. */
export function KeyName({ apiKey }: { apiKey: ApiKey }) {
  return (
    <>
      <bdi>{apiKey.label ? `“${apiKey.label}”` : ""}</bdi> (rk_{apiKey.prefix}_…)
    </>
  );
}

/**
 * Overview's notice for each revoked key still called in the last 24 hours: the client behind it (often the merchant
 * worker) is refused on every call, and the key, not the worker, is what to fix.
 */
export function RevokedKeyNotice() {
  const stale = useRevokedKeysInUse();
  if (stale.length === 0) return null;
  return (
    <section className="panel warning" aria-labelledby="revoked-keys">
      <h2 id="revoked-keys">Revoked API key still in use</h2>
      <ul className="attention">
        {stale.map((key) => (
          <li key={key.id}>
            Your API key <KeyName apiKey={key} /> was revoked and is still being used: a call with it was refused {fromNow(key.lastRejectedAt!)}.
            Whatever uses it (the merchant worker or your game server) is refused on every call; give it a working key from API keys.
          </li>
        ))}
      </ul>
    </section>
  );
}
