import * as net from "node:net";

import { eventually } from "./eventually";
import { freePort } from "@raffle/config";

describe("eventually", () => {
  it("answers the first value that `check` resolves with", async () => {
    let calls = 0;
    const value = await eventually(
      async () => {
        calls += 1;
        if (calls < 3) throw new Error("not yet");
        return calls;
      },
      1_000,
      1,
    );
    expect(value).toBe(3);
  });

  it("throws the last failure once the time is up", async () => {
    let calls = 0;
    await expect(
      eventually(
        async () => {
          calls += 1;
          throw new Error(`failure ${calls}`);
        },
        30,
        5,
      ),
    ).rejects.toThrow(/failure \d+/);
    expect(calls).toBeGreaterThan(1);
  });
});

describe("freePort", () => {
  it("gives a port that can be listened on", async () => {
    const port = await freePort();
    const server = net.createServer();
    await new Promise<void>((resolve, reject) => server.once("error", reject).listen(port, "127.0.0.1", resolve));
    await new Promise((resolve) => server.close(resolve));
  });
});
