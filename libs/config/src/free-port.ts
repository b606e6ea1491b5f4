import * as fs from "node:fs";
import * as net from "node:net";

/** `RAFFLE_PORT_RANGE=<first>-<last>`: where freePort picks, for machines whose users share out port ranges. */
export function portRange(value = process.env.RAFFLE_PORT_RANGE): { first: number; last: number } | undefined {
  if (!value) return undefined;
  const match = /^(\d+)-(\d+)$/.exec(value.trim());
  const [first, last] = match ? [Number(match[1]), Number(match[2])] : [NaN, NaN];
  if (!(first >= 1 && first <= last && last <= 65_535)) throw new Error(`RAFFLE_PORT_RANGE must be <first>-<last> within 1-65535, not "${value}"`);
  return { first, last };
}

function listensOn(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once("error", () => resolve(undefined));
    probe.listen(port, "127.0.0.1", () => {
      const { port: bound } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(bound));
    });
  });
}

/**
 * The next port of the range this process tries: it walks the range from a random start, so two freePort calls
 * before either port is bound get different ports, and two processes rarely start at the same place.
 */
let cursor = -1;

/** Where freePort picks by default: from here up to the kernel's ephemeral range. */
const LOWEST_DEFAULT_PORT = 16_384;

/**
 * The ports below the kernel's ephemeral range (Linux's ip_local_port_range), or undefined where it cannot be read or
 * leaves too few. A port the kernel hands out (a port-0 listener's, an outgoing connection's) is free again once
 * probed, and thousands of connections a minute to the database and the chains took one now and then: a stack that
 * bound its API port a minute after picking it found it taken (EADDRINUSE). Below that range only listeners bind.
 */
export function portsBelowEphemeral(file = "/proc/sys/net/ipv4/ip_local_port_range"): { first: number; last: number } | undefined {
  let ephemeralFirst: number;
  try {
    ephemeralFirst = Number(fs.readFileSync(file, "utf8").trim().split(/\s+/)[0]);
  } catch {
    return undefined;
  }
  if (!Number.isInteger(ephemeralFirst) || ephemeralFirst - LOWEST_DEFAULT_PORT < 4_096) return undefined;
  return { first: LOWEST_DEFAULT_PORT, last: ephemeralFirst - 1 };
}

/**
 * A TCP port on 127.0.0.1 that nothing listens on right now: within RAFFLE_PORT_RANGE when set, else below the
 * kernel's ephemeral range (portsBelowEphemeral), else the one the OS picks. In @raffle/config, not @raffle/testing,
 * because the apps' embedded PGlite database (@raffle/db's data source) listens on one too.
 */
export async function freePort(): Promise<number> {
  const range = portRange() ?? portsBelowEphemeral();
  if (!range) {
    const port = await listensOn(0);
    if (port === undefined) throw new Error("no free TCP port on 127.0.0.1");
    return port;
  }
  const size = range.last - range.first + 1;
  if (cursor < 0) cursor = Math.floor(Math.random() * size);
  for (let tries = 0; tries < size; tries += 1) {
    const port = range.first + (cursor++ % size);
    if ((await listensOn(port)) !== undefined) return port;
  }
  throw new Error(`no free TCP port in ${range.first}-${range.last}`);
}
