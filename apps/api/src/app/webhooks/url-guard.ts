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
  // :: and ::1, and the deprecated IPv4-compatible form ::a.b.c.d, which some stacks still route to IPv4.
  ["::", 96],
  // IPv4-translated (SIIT), NAT64 (well-known and local-use), 6to4 and Teredo: each reaches an IPv4 address a
  // gateway chooses, so none can be judged by its own bits.
  ["::ffff:0:0:0", 96],
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  ["2002::", 16],
  ["2001::", 23],
  ["3fff::", 20],
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  BLOCKED.addSubnet(network, prefix, "ipv6");
}

/** The eight 16-bit groups of a valid IPv6 address, a dotted IPv4 tail included. */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail.slice(1).map(Number);
    text = `${text.slice(0, tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = text.split("::");
  const parse = (part: string | undefined) => (part ? part.split(":").map((group) => parseInt(group, 16)) : []);
  const left = parse(head);
  const right = parse(rest);
  return rest === undefined ? left : [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/**
 * True for an address no webhook may reach. An IPv4-mapped IPv6 address (::ffff:a.b.c.d, in any spelling) is judged by
 * its IPv4 address; the transition forms that lead to an IPv4 address some gateway picks are refused outright.
 */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  if (family === 4) return BLOCKED.check(address, "ipv4");
  const groups = ipv6Groups(address);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return BLOCKED.check([groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff].join("."), "ipv4");
  }
  return BLOCKED.check(address, "ipv6");
}

/**
 * The one refusal of a host, whether it does not resolve or resolves to a private address: different answers would
 * tell a caller which internal names exist.
 */
export const HOST_REFUSED = "must resolve, and only to public addresses";

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
      ).catch(() => [] as string[]);
  if (addresses.length === 0 || addresses.some(isPrivateAddress)) throw new WebhookUrlError("refused", `the url's host ${HOST_REFUSED}`);
  return url;
}

/** A socket lookup that fails on private addresses: used for every delivery unless private URLs are allowed. */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  lookup(hostname, { ...options, all: true }, (error, addresses) => {
    const list = error ? [] : (addresses as Array<{ address: string; family: number }>);
    if (list.length === 0 || list.some((entry) => isPrivateAddress(entry.address))) {
      return callback(Object.assign(new Error(`refused: the host ${HOST_REFUSED}`), { code: "EWEBHOOKREFUSED" }), "", 0);
    }
    if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: typeof list) => void)(null, list);
    callback(null, list[0].address, list[0].family);
  });
};
