import * as net from "node:net";

/** Ports this process handed out: a port is probed and closed, so the next probe could see it free again. */
const handedOut = new Set<number>();

/**
 * A TCP port on 127.0.0.1 that nothing listens on right now: the OS picks it, or, with FREE_PORT_RANGE=low-high
 * (a machine shared by several runs that each keep to their own ports), one of that range. In @raffle/config, not
 * @raffle/testing, because the apps' embedded PGlite database (@raffle/db's data source) listens on one too.
 */
export async function freePort(): Promise<number> {
  const range = portRange(process.env.FREE_PORT_RANGE);
  if (!range) return listenable(0);
  const [low, high] = range;
  const size = high - low + 1;
  // A random start, so two processes of one range seldom probe the same ports in the same order.
  const start = Math.floor(Math.random() * size);
  for (let step = 0; step < size; step += 1) {
    const port = low + ((start + step) % size);
    if (handedOut.has(port)) continue;
    try {
      await listenable(port);
      handedOut.add(port);
      return port;
    } catch {
      // Taken: try the next one.
    }
  }
  throw new Error(`no free port in FREE_PORT_RANGE ${low}-${high}`);
}

/** `low-high` as two ports, or undefined when unset; anything else is refused rather than silently ignored. */
export function portRange(value: string | undefined): [number, number] | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  const match = /^\s*(\d+)\s*-\s*(\d+)\s*$/.exec(value);
  const [low, high] = match ? [Number(match[1]), Number(match[2])] : [NaN, NaN];
  if (!(low >= 1 && high <= 65_535 && low <= high)) throw new Error(`FREE_PORT_RANGE must be low-high (1..65535), got "${value}"`);
  return [low, high];
}

/** Listens on `port` (0: any) and closes again, answering the port. */
function listenable(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.listen(port, "127.0.0.1", () => {
      const { port: bound } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(bound));
    });
    probe.on("error", reject);
  });
}
