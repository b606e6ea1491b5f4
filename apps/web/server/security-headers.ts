/**
 * The headers every answer of the player app and the merchant console carries, wherever the static files are served:
 * the Node server of the local stack and the tests (serve-web-app.ts), and the production web service of the deploy
 * kit (deploy/web/, generated from this file: `npm run web:headers -w apps/web`, held to it by a drift test).
 *
 * The pages hold a connected wallet, so no other site may frame them (clickjacking Buy, Sign in, Revoke), and scripts
 * come only from the build itself. The pages talk to the API and to each chain's node: those origins come from the
 * runtime config.json, so the policy is computed from the same config.
 */

/** What the policy needs of config.json (see src/lib/runtime-config.ts for all of it). */
export interface WebConfigOrigins {
  apiUrl: string;
  chains: Array<{ rpcUrl: string; [other: string]: unknown }>;
}

/**
 * The origins the pages fetch from: the API and each chain's node. An origin, not the full URL: a node provider's key
 * in the path stays out of the header, and the browser matches origins anyway. A relative API URL is the page's own
 * origin ('self').
 */
export function connectSources(config: WebConfigOrigins): string[] {
  const origins = [config.apiUrl, ...config.chains.map((chain) => chain.rpcUrl)].flatMap((url) => {
    try {
      const { origin } = new URL(url);
      return origin === "null" ? [] : [origin];
    } catch {
      return [];
    }
  });
  return [...new Set(origins)];
}

/**
 * The Content-Security-Policy. Vite's build is module scripts and stylesheets of the same origin (no inline script or
 * style). Images: the build's own, wallet icons (EIP-6963 gives them as data: URLs), a raffle's image, which a
 * merchant may host anywhere over https, and an item prize's picture (data:image/ or https:, src/lib/item-metadata.ts).
 * Fetches: the API and each chain's node, and any https host for an item prize's metadata JSON (a game studio's
 * `tokenURI` may point anywhere); never plain http beyond the configured origins. A fetched body is only ever parsed as
 * JSON into a plain-text name and an image URL, and scripts still come from 'self' alone.
 */
export function contentSecurityPolicy(connect: string[]): string {
  const directives: Array<[string, string[]]> = [
    ["default-src", ["'self'"]],
    ["script-src", ["'self'"]],
    ["style-src", ["'self'"]],
    ["img-src", ["'self'", "data:", "https:"]],
    ["font-src", ["'self'"]],
    ["connect-src", ["'self'", "https:", ...connect]],
    ["object-src", ["'none'"]],
    ["base-uri", ["'none'"]],
    ["form-action", ["'self'"]],
    ["frame-ancestors", ["'none'"]],
  ];
  return directives.map(([name, sources]) => `${name} ${sources.join(" ")}`).join("; ");
}

/** Every header a host of these pages must send, on every answer (pages, assets, config.json). */
export function securityHeaders(connect: string[]): Record<string, string> {
  return {
    "Content-Security-Policy": contentSecurityPolicy(connect),
    // For browsers that predate frame-ancestors.
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
  };
}
