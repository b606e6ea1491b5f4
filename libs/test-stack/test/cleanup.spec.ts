import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as path from "node:path";
import { eventually } from "@raffle/testing";

const OWNER = path.join(__dirname, "fixtures/stack-owner.ts");

function running(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

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
    expect({ node: running(owned.nodePid), service: running(owned.servicePid) }).toEqual({ node: false, service: false });
    expect({ node: await listening(owned.nodePort), service: await listening(owned.servicePort) }).toEqual({ node: false, service: false });
  }, withinMs);
}

describe("a test run's chain node and services do not outlive it", () => {
  it("go within seconds when the run is SIGKILLed (no exit hook runs)", async () => {
    const { owner, owned } = await startOwner("wait");
    expect(await listening(owned.nodePort)).toBe(true);
    await eventually(async () => expect(await listening(owned.servicePort)).toBe(true), 10_000);
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
