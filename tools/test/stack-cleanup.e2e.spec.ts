import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { eventually, freePort, isProcessRunning, isPortListening } from "@raffle/testing";

import type { StackFile } from "../stack/stack-file";
import { run, waitForOutput } from "./support/processes";

const ROOT = path.resolve(__dirname, "../..");

/**
 * `npm start`'s whole lifecycle under hostile endings: a supervisor's TERM followed by KILL 3 s later, and SIGKILL of
 * the stack's own process. Nothing may be left listening, and the next start on the same ports must work.
 */
describe("npm start cleans up whatever ends it", () => {
  const stackDir = fs.mkdtempSync(path.join(os.tmpdir(), "raffle-stack-cleanup-"));
  const started: ChildProcess[] = [];
  let env: NodeJS.ProcessEnv;
  let ports: number[];

  beforeAll(async () => {
    ports = [await freePort(), await freePort(), await freePort(), await freePort()];
    const [api, web, chain, secondChain] = ports;
    // The build is the one `npm test` made (or the developer's): this suite tests stopping, not building.
    env = {
      ...process.env,
      PORT: `${api}`,
      WEB_PORT: `${web}`,
      CHAIN_PORT: `${chain}`,
      SECOND_CHAIN_PORT: `${secondChain}`,
      STACK_DIR: stackDir,
      RAFFLE_FROZEN_BUILD: "1",
    };
  });

  afterAll(() => {
    for (const child of started) {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // the group is gone
      }
    }
    fs.rmSync(stackDir, { recursive: true, force: true });
  });

  async function startStack(): Promise<{ npm: ChildProcess; facts: StackFile }> {
    // In a process group of its own, so a failed test can take all of it down (afterAll); the test itself signals npm alone.
    const npm = spawn("npm", ["start", "--", "--fresh"], { cwd: ROOT, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    started.push(npm);
    await waitForOutput(npm, "\nready\n", 240_000);
    return { npm, facts: JSON.parse(fs.readFileSync(path.join(stackDir, "stack.json"), "utf8")) as StackFile };
  }

  async function expectNothingLeft(stackPid: number, withinMs: number): Promise<void> {
    await eventually(async () => {
      expect(isProcessRunning(stackPid)).toBe(false);
      for (const port of ports) expect({ port, listening: await isPortListening(port) }).toEqual({ port, listening: false });
    }, withinMs);
  }

  it("names a port that another process holds instead of failing with EADDRINUSE", async () => {
    const holder = net.createServer().listen(ports[2], "127.0.0.1");
    await new Promise((resolve) => holder.once("listening", resolve));
    try {
      const refused = await run("npm", ["start"], { cwd: ROOT, env, timeoutMs: 120_000 });
      expect(refused.code).not.toBe(0);
      expect(refused.output).toContain(`Port ${ports[2]} (the first local chain) is already in use by pid ${process.pid}`);
      expect(refused.output).toContain("CHAIN_PORT=<port>");
      expect(refused.output).not.toMatch(/EADDRINUSE/);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
    for (const port of [ports[0], ports[1], ports[3]]) expect(await isPortListening(port)).toBe(false);
  }, 180_000);

  it("TERM then KILL 3 s later leaves no chain node or server behind, and the next start on the same ports works; so does SIGKILL of the stack", async () => {
    const first = await startStack();
    for (const port of ports) expect(await isPortListening(port)).toBe(true);
    first.npm.kill("SIGTERM");
    const killLater = setTimeout(() => first.npm.kill("SIGKILL"), 3_000);
    await expectNothingLeft(first.facts.pid, 6_000);
    clearTimeout(killLater);

    // The stack's own process (under npm), killed with no chance to run any code: its reaper takes the nodes down.
    const second = await startStack();
    expect(second.facts.pid).not.toBe(first.facts.pid);
    process.kill(second.facts.pid, "SIGKILL");
    await expectNothingLeft(second.facts.pid, 6_000);
    second.npm.kill("SIGKILL");
  }, 600_000);
});
