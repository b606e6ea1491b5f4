import { lookup } from "node:dns";
import { BlockList, isIP, type LookupFunction } from "node:net";

/**
 * Where a webhook may go. Hosts that resolve to loopback, private, link-local (cloud metadata), CGNAT, multicast or
 * reserved addresses are refused, at registration and again at each delivery's connect (DNS can change between the
 * two: the check runs inside the socket's own lookup, so the address checked is the address connected to).
 */
const BLOCKED = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  BLOCKED.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["64:ff9b::", 96],
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  BLOCKED.addSubnet(network, prefix, "ipv6");
}

/** True for an address no webhook may reach (IPv4-mapped IPv6 is judged by its IPv4 address). */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return BLOCKED.check(mapped[1], "ipv4");
  const family = isIP(address);
  if (family === 0) return true;
  return BLOCKED.check(address, family === 4 ? "ipv4" : "ipv6");
}

export class WebhookUrlError extends Error {
  constructor(
    readonly kind: "invalid" | "refused",
    message: string,
  ) {
    super(message);
  }
}

/** The URL's form: absolute http(s), no credentials; https unless private URLs are allowed. */
export function parseWebhookUrl(raw: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookUrlError("invalid", "url must be an absolute https:// URL");
  }
  if (url.protocol !== "https:" && !(allowPrivate && url.protocol === "http:"))
    throw new WebhookUrlError("invalid", allowPrivate ? "url must be an http:// or https:// URL" : "url must be an https:// URL");
  if (url.username || url.password) throw new WebhookUrlError("invalid", "url must not carry credentials");
  if (url.hash) throw new WebhookUrlError("invalid", "url must not have a #fragment");
  return url;
}

function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1");
}

/** Resolves the URL's host and refuses it if any of its addresses is private (registration-time check). */
export async function checkWebhookUrl(raw: string, allowPrivate: boolean): Promise<URL> {
  const url = parseWebhookUrl(raw, allowPrivate);
  if (allowPrivate) return url;
  const host = hostOf(url);
  const addresses = isIP(host)
    ? [host]
    : await new Promise<string[]>((resolve, reject) =>
        lookup(host, { all: true }, (error, found) => (error ? reject(error) : resolve(found.map((entry) => entry.address)))),
      ).catch(() => {
        throw new WebhookUrlError("refused", `the host ${host} does not resolve`);
      });
  if (addresses.length === 0 || addresses.some(isPrivateAddress))
    throw new WebhookUrlError("refused", `the host ${host} resolves to a loopback, private, link-local or reserved address`);
  return url;
}

/** A socket lookup that fails on private addresses: used for every delivery unless private URLs are allowed. */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, "", 0);
    const list = addresses as Array<{ address: string; family: number }>;
    const refused = list.find((entry) => isPrivateAddress(entry.address));
    if (list.length === 0 || refused) {
      return callback(Object.assign(new Error(`refused: ${hostname} resolves to a private address`), { code: "EWEBHOOKREFUSED" }), "", 0);
    }
    if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: typeof list) => void)(null, list);
    callback(null, list[0].address, list[0].family);
  });
};
