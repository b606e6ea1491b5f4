import * as net from "node:net";

import { freePort, portRange } from "./free-port";

describe("freePort", () => {
  const saved = process.env.FREE_PORT_RANGE;
  afterEach(() => {
    if (saved === undefined) delete process.env.FREE_PORT_RANGE;
    else process.env.FREE_PORT_RANGE = saved;
  });

  it("keeps to FREE_PORT_RANGE, skipping a taken port and never handing one out twice", async () => {
    const taken = net.createServer();
    const takenPort = await new Promise<number>((resolve) => taken.listen(0, "127.0.0.1", () => resolve((taken.address() as net.AddressInfo).port)));
    try {
      process.env.FREE_PORT_RANGE = `${takenPort}-${takenPort + 2}`;
      const ports = [await freePort(), await freePort()];
      expect(ports).not.toContain(takenPort);
      expect(new Set(ports).size).toBe(2);
      for (const port of ports) expect(port).toBeGreaterThan(takenPort);
      for (const port of ports) expect(port).toBeLessThanOrEqual(takenPort + 2);
      await expect(freePort()).rejects.toThrow(/no free port/);
    } finally {
      taken.close();
    }
  });

  it("refuses a malformed range", () => {
    expect(portRange(undefined)).toBeUndefined();
    expect(portRange("21000-21999")).toEqual([21000, 21999]);
    expect(() => portRange("21999-21000")).toThrow(/low-high/);
    expect(() => portRange("21000")).toThrow(/low-high/);
  });
});
