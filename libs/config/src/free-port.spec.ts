import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { freePort, portRange, portsBelowEphemeral } from "./free-port";

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

describe("freePort by default: below the kernel's ephemeral range", () => {
  it("reads Linux's ip_local_port_range, and gives up where it is missing or leaves too few ports", () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "port-range-"));
    const file = (text: string) => {
      const name = path.join(folder, `range-${Math.random()}`);
      fs.writeFileSync(name, text);
      return name;
    };
    try {
      expect(portsBelowEphemeral(file("32768\t60999\n"))).toEqual({ first: 16_384, last: 32_767 });
      expect(portsBelowEphemeral(file("1024 65535\n"))).toBeUndefined();
      expect(portsBelowEphemeral(file("not a number\n"))).toBeUndefined();
      expect(portsBelowEphemeral(path.join(folder, "absent"))).toBeUndefined();
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  it("hands out ports an outgoing connection can never be given meanwhile", async () => {
    const saved = process.env.RAFFLE_PORT_RANGE;
    delete process.env.RAFFLE_PORT_RANGE;
    try {
      const range = portsBelowEphemeral();
      const ports = [await freePort(), await freePort()];
      expect(ports[0]).not.toBe(ports[1]);
      // Below the kernel's range where it can be read (every Linux); elsewhere the OS picks.
      expect(process.platform !== "linux" || range !== undefined).toBe(true);
      const outside = ports.filter((port) => range && (port < range.first || port > range.last));
      expect(outside).toEqual([]);
    } finally {
      if (saved !== undefined) process.env.RAFFLE_PORT_RANGE = saved;
    }
  });
});
