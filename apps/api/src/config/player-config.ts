import { ConfigError, readSettings, setting } from "@raffle/config";

/** Public sale and Sign-In with Ethereum (issue #29): who may sign in from where, for how long, and how often. */
export interface PlayerConfig {
  /**
   * WEB_ORIGINS: the origins of the player app (`https://play.example.com`, comma-separated). A SIWE message must name
   * one of their hosts as `domain` and a URI under it; the API answers cross-origin requests of these origins only.
   * Empty (the default): no browser can sign in.
   */
  webOrigins: string[];
  /** A player's session token lives at most this long; a SIWE message may not ask for longer. */
  sessionTtlSeconds: number;
  /** The life of a merchant's console session (same origins as players). */
  merchantSessionTtlSeconds: number;
  /** Per rate-limit window (a minute): vouchers per player address, and player requests (nonces, vouchers) per client IP. */
  signPerAddress: number;
  requestsPerIp: number;
  /**
   * Per rate-limit window and client IP, each on a counter of its own: the console's nonces and sign-ins (so players
   * behind a merchant's NAT cannot use up its sign-in), and the public reads (`GET /player/raffles...`).
   */
  consoleSignInPerIp: number;
  publicReadsPerIp: number;
}

/**
 * The session lives and the per-address voucher budget, one value each: none is a choice an operator needs to make (the
 * guides quote them). The per-IP budgets stay settings: behind a proxy every client shares its address, so an operator
 * sizes them to that proxy. Tests that need a budget exhausted set it on the config object.
 */
export const PLAYER_LIMITS = {
  // An hour for a player (a game session), a working day for a merchant at the console.
  sessionTtlSeconds: 3_600,
  merchantSessionTtlSeconds: 28_800,
  // A voucher every two seconds for a minute is above any person's pace at a buy button.
  signPerAddress: 30,
} as const satisfies Partial<PlayerConfig>;

export const PLAYER_SETTINGS = {
  WEB_ORIGINS: setting.text().default(""),
  RATE_LIMIT_PLAYER_PER_IP: setting.integer({ min: 1 }).default(300),
  RATE_LIMIT_CONSOLE_SIGN_IN_PER_IP: setting.integer({ min: 1 }).default(60),
  RATE_LIMIT_PUBLIC_READS_PER_IP: setting.integer({ min: 1 }).default(1_200),
};

/** An origin as browsers send it: scheme, host and port, no path. */
function origin(text: string): string {
  const url = URL.parse(text);
  if (!url) throw new ConfigError(`WEB_ORIGINS must list http:// or https:// origins, got "${text}"`);
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new ConfigError(`WEB_ORIGINS must list http:// or https:// origins, got "${text}"`);
  return url.origin;
}

export function loadPlayerConfig(env: NodeJS.ProcessEnv): PlayerConfig {
  const settings = readSettings(env, PLAYER_SETTINGS);
  return {
    webOrigins: settings.WEB_ORIGINS.split(",")
      .map((entry) => entry.trim())
      .filter(Boolean)
      .map(origin),
    ...PLAYER_LIMITS,
    requestsPerIp: settings.RATE_LIMIT_PLAYER_PER_IP,
    consoleSignInPerIp: settings.RATE_LIMIT_CONSOLE_SIGN_IN_PER_IP,
    publicReadsPerIp: settings.RATE_LIMIT_PUBLIC_READS_PER_IP,
  };
}
