import * as net from "node:net";
import { freePort, portRange } from "./free-port";

describe("freePort within RAFFLE_PORT_RANGE", () => {
  const saved = process.env.RAFFLE_PORT_RANGE;
  afterEach(() => {
    if (saved === undefined) delete process.env.RAFFLE_PORT_RANGE;
    else process.env.RAFFLE_PORT_RANGE = saved;
  });

  it("reads <first>-<last> and refuses anything else", () => {
    expect(portRange("23000-23999")).toEqual({ first: 23000, last: 23999 });
    expect(portRange(undefined)).toBeUndefined();
    expect(() => portRange("23999-23000")).toThrow(/RAFFLE_PORT_RANGE/);
    expect(() => portRange("23000")).toThrow(/RAFFLE_PORT_RANGE/);
    expect(() => portRange("0-70000")).toThrow(/RAFFLE_PORT_RANGE/);
  });

  it("hands out different ports of the range, skipping one that is taken", async () => {
    // A range of three ports, one held by a listener: the two others, in either order.
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    const held = (holder.address() as net.AddressInfo).port;
    process.env.RAFFLE_PORT_RANGE = `${held - 1}-${held + 1}`;
    try {
      const ports = [await freePort(), await freePort()];
      expect(ports.sort()).toEqual([held - 1, held + 1]);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });
});
