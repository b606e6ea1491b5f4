import * as net from "node:net";
import { freePort } from "@raffle/testing";

import { startHardhatNode } from "./hardhat-node";
import { startOnPort, type DevNode } from "./node-process";

const started = { rpcUrl: "http://127.0.0.1:1" } as DevNode;

describe("starting a local node", () => {
  it("fails with the node's own reason when its port is taken", async () => {
    const port = await freePort();
    const holder = net.createServer().listen(port, "127.0.0.1");
    await new Promise((resolve) => holder.once("listening", resolve));
    try {
      await expect(startHardhatNode({ port })).rejects.toThrow(/hardhat node exited with 1: .*(EADDRINUSE|address already in use)/is);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  }, 60_000);

  it("starts again on another free port when the one it found was taken meanwhile, and on no other error", async () => {
    const ports: number[] = [];
    const takenOnce = async (port: number) => {
      ports.push(port);
      if (ports.length === 1) throw new Error("hardhat node exited with 1: Error: listen EADDRINUSE: address already in use");
      return started;
    };
    expect(await startOnPort(undefined, takenOnce)).toBe(started);
    expect(ports).toHaveLength(2);

    const broken = jest.fn(async () => {
      throw new Error("hardhat node exited with 1: Error: HH8: There's one or more errors in your config file");
    });
    await expect(startOnPort(undefined, broken)).rejects.toThrow(/HH8/);
    expect(broken).toHaveBeenCalledTimes(1);

    // A port the caller chose is the caller's: never swapped for another.
    const always = jest.fn(async () => {
      throw new Error("listen EADDRINUSE");
    });
    await expect(startOnPort(8545, always)).rejects.toThrow(/EADDRINUSE/);
    expect(always).toHaveBeenCalledWith(8545);
    expect(always).toHaveBeenCalledTimes(1);
  });
});
