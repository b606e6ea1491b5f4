import { spawn } from "node:child_process";
import * as path from "node:path";
import { eventually, isProcessRunning, isPortListening } from "@raffle/testing";

const OWNER = path.join(__dirname, "fixtures/stack-owner.ts");

interface Owned {
  nodePid: number;
  nodePort: number;
  servicePid: number;
  servicePort: number;
}

async function startOwner(mode: "wait" | "crash") {
  const owner = spawn(process.execPath, ["--require", "ts-node/register/transpile-only", OWNER, mode], {
    cwd: path.resolve(__dirname, ".."),
    stdio: ["ignore", "pipe", "pipe"],
  });
  const owned = await new Promise<Owned>((resolve, reject) => {
    let output = "";
    owner.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("\n")) resolve(JSON.parse(output.split("\n")[0]) as Owned);
    });
    owner.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    owner.once("exit", (code) => reject(new Error(`the owner exited with ${code}: ${output}`)));
  });
  return { owner, owned };
}

async function expectAllGone(owned: Owned, withinMs: number): Promise<void> {
  await eventually(async () => {
    expect({ node: isProcessRunning(owned.nodePid), service: isProcessRunning(owned.servicePid) }).toEqual({ node: false, service: false });
    expect({ node: await isPortListening(owned.nodePort), service: await isPortListening(owned.servicePort) }).toEqual({
      node: false,
      service: false,
    });
  }, withinMs);
}

describe("a test run's chain node and services do not outlive it", () => {
  it("go within seconds when the run is SIGKILLed (no exit hook runs)", async () => {
    const { owner, owned } = await startOwner("wait");
    expect(await isPortListening(owned.nodePort)).toBe(true);
    await eventually(async () => expect(await isPortListening(owned.servicePort)).toBe(true), 10_000);
    owner.kill("SIGKILL");
    await expectAllGone(owned, 5_000);
  }, 90_000);

  it("go when the run crashes on an uncaught exception", async () => {
    const { owner, owned } = await startOwner("crash");
    const code = await new Promise((resolve) => owner.once("exit", resolve));
    expect(code).not.toBe(0);
    await expectAllGone(owned, 5_000);
  }, 90_000);
});
