import { spawn, type ChildProcess } from "node:child_process";
import * as path from "node:path";

import { eventually, isProcessRunning } from "../src";

const OWNER = path.join(__dirname, "fixtures/owner.ts");
const REAPER = path.join(__dirname, "../src/reaper.js");

function startIdle(options: { ignoreTerm?: boolean } = {}): number {
  const script = `${options.ignoreTerm ? "process.on('SIGTERM', () => undefined); " : ""}setInterval(() => undefined, 1000)`;
  return spawn(process.execPath, ["-e", script], { detached: true, stdio: "ignore" }).pid!;
}

interface OwnerPids {
  polite: number;
  stubborn: number;
  released: number;
  reaper: number;
}

async function startOwner(mode: "wait" | "crash"): Promise<{ owner: ChildProcess; pids: OwnerPids }> {
  const owner = spawn(process.execPath, ["--require", "ts-node/register/transpile-only", OWNER, mode], { stdio: ["ignore", "pipe", "pipe"] });
  const line = await new Promise<string>((resolve, reject) => {
    let output = "";
    owner.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("\n")) resolve(output.split("\n")[0]);
    });
    owner.once("exit", (code) => reject(new Error(`the owner exited with ${code} before starting its children`)));
  });
  return { owner, pids: JSON.parse(line) as OwnerPids };
}

const leftovers: number[] = [];
afterAll(() => {
  for (const pid of leftovers) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone
    }
  }
});

describe("the process reaper", () => {
  it("takes the children of a SIGKILLed owner down within seconds, a TERM-deaf one by SIGKILL, and spares a released one", async () => {
    const { owner, pids } = await startOwner("wait");
    leftovers.push(pids.polite, pids.stubborn, pids.released);
    expect([pids.polite, pids.stubborn, pids.released, pids.reaper].map(isProcessRunning)).toEqual([true, true, true, true]);
    const killedAt = Date.now();
    owner.kill("SIGKILL");
    await eventually(async () => expect(isProcessRunning(pids.polite)).toBe(false), 2_000);
    await eventually(async () => expect(isProcessRunning(pids.stubborn)).toBe(false), 4_000);
    expect(Date.now() - killedAt).toBeLessThan(4_000);
    await eventually(async () => expect(isProcessRunning(pids.reaper)).toBe(false), 2_000);
    // Released: its pid could belong to another process by now, so the reaper must never signal it.
    expect(isProcessRunning(pids.released)).toBe(true);
  }, 30_000);

  it("takes the children down when the owner crashes on an unhandled rejection", async () => {
    const { owner, pids } = await startOwner("crash");
    leftovers.push(pids.polite, pids.stubborn, pids.released);
    const exitCode = await new Promise((resolve) => owner.once("exit", resolve));
    expect(exitCode).not.toBe(0);
    await eventually(async () => expect([isProcessRunning(pids.polite), isProcessRunning(pids.stubborn)]).toEqual([false, false]), 4_000);
  }, 30_000);

  it("ignores lines that name no process and still reaps the ones that do when its pipe closes", async () => {
    const child = startIdle();
    leftovers.push(child);
    const reaper = spawn(process.execPath, [REAPER], { stdio: ["pipe", "ignore", "ignore"] });
    const exited = new Promise((resolve) => reaper.once("exit", resolve));
    reaper.stdin!.write("garbage\n+abc\n+12.5\n-\n");
    reaper.stdin!.write(`+${child}`);
    // Split across writes: a line counts once it is whole.
    reaper.stdin!.write("\n");
    reaper.stdin!.end();
    expect(await exited).toBe(0);
    await eventually(async () => expect(isProcessRunning(child)).toBe(false), 2_000);
  });

  it("reaps its children when it is itself told to stop", async () => {
    const child = startIdle({ ignoreTerm: true });
    leftovers.push(child);
    const reaper = spawn(process.execPath, [REAPER], { stdio: ["pipe", "pipe", "ignore"] });
    const exited = new Promise((resolve) => reaper.once("exit", resolve));
    reaper.stdin!.write(`+${child}\n`);
    // Once it has its handlers: until then TERM ends it like any process.
    await new Promise((resolve) => reaper.stdout!.once("data", resolve));
    // And has read the line written before (stdin is read on the event loop's next turns).
    await new Promise((resolve) => setTimeout(resolve, 200));
    reaper.kill("SIGTERM");
    expect(await exited).toBe(0);
    // The child is this test's own: killed, it stays a zombie (and answers signal 0) until Node reaps it on a later turn.
    await eventually(async () => expect(isProcessRunning(child)).toBe(false), 2_000);
  });
});
