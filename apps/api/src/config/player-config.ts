import { ConfigError, readSettings, setting } from "@raffle/config";

/** Public sale and Sign-In with Ethereum (issue #29): who may sign in from where, for how long, and how often. */
export interface PlayerConfig {
  /**
   * WEB_ORIGINS: the origins of the player app (`https://play.example.com`, comma-separated). A SIWE message must name
   * one of their hosts as `domain` and a URI under it; the API answers cross-origin requests of these origins only.
   * Empty (the default): no browser can sign in.
   */
  webOrigins: string[];
  /** PLAYER_SESSION_TTL_SECONDS (default 1 h): a session token's life; a SIWE message may not ask for longer. */
  sessionTtlSeconds: number;
  /** MERCHANT_SESSION_TTL_SECONDS (default 8 h): the life of a merchant's console session (same origins as players). */
  merchantSessionTtlSeconds: number;
  /** Per RATE_LIMIT_WINDOW_SECONDS: vouchers per player address, and player requests (nonces, vouchers) per client IP. */
  signPerAddress: number;
  requestsPerIp: number;
  /**
   * Per RATE_LIMIT_WINDOW_SECONDS and client IP, each on a counter of its own: the console's nonces and sign-ins (so
   * players behind a merchant's NAT cannot use up its sign-in), and the public reads (`GET /player/raffles...`).
   */
  consoleSignInPerIp: number;
  publicReadsPerIp: number;
}

export const PLAYER_SETTINGS = {
  WEB_ORIGINS: setting.text().default(""),
  PLAYER_SESSION_TTL_SECONDS: setting.integer({ min: 60 }).default(3_600),
  MERCHANT_SESSION_TTL_SECONDS: setting.integer({ min: 60 }).default(28_800),
  RATE_LIMIT_PLAYER_SIGN_PER_ADDRESS: setting.integer({ min: 1 }).default(30),
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
    sessionTtlSeconds: settings.PLAYER_SESSION_TTL_SECONDS,
    merchantSessionTtlSeconds: settings.MERCHANT_SESSION_TTL_SECONDS,
    signPerAddress: settings.RATE_LIMIT_PLAYER_SIGN_PER_ADDRESS,
    requestsPerIp: settings.RATE_LIMIT_PLAYER_PER_IP,
    consoleSignInPerIp: settings.RATE_LIMIT_CONSOLE_SIGN_IN_PER_IP,
    publicReadsPerIp: settings.RATE_LIMIT_PUBLIC_READS_PER_IP,
  };
}
