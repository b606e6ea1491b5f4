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

/**
 * A TCP port on 127.0.0.1 that nothing listens on right now: the OS picks it, or within RAFFLE_PORT_RANGE when set. In
 * @raffle/config, not @raffle/testing, because the apps' embedded PGlite database (@raffle/db's data source) listens on
 * one too.
 */
export async function freePort(): Promise<number> {
  const range = portRange();
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
  throw new Error(`no free TCP port in RAFFLE_PORT_RANGE ${range.first}-${range.last}`);
}
