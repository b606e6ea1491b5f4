/**
 * Where a URL points, safe to log: scheme and host (with port) only. The rest may carry secrets: a password in the
 * user part, a provider's API key in the path or the query.
 */
export function urlOrigin(raw: string): string {
  try {
    const url = new URL(raw);
    if (!url.hostname || !raw.trim().startsWith(`${url.protocol}//`)) return "(not a URL)";
    return `${url.protocol}//${url.host}`;
  } catch {
    return "(not a URL)";
  }
}

/** A database URL safe to log: user, host, port and database name, never the password or the query. */
export function databaseUrlForLogs(raw: string): string {
  try {
    const url = new URL(raw);
    // Without "//" and a host, what follows the scheme is a path and may hold "user:password@host".
    if (!url.hostname || !raw.trim().startsWith(`${url.protocol}//`)) return "(not a URL)";
    const user = url.username ? `${decodeURIComponent(url.username)}@` : "";
    return `${url.protocol}//${user}${url.host}${url.pathname}`;
  } catch {
    return "(not a URL)";
  }
}
