import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { freePort } from "@raffle/testing";

import type { StackFile } from "../stack/stack-file";

const ROOT = path.resolve(__dirname, "../..");

/** Resolves with the output once `marker` appears; rejects if the process exits first or time runs out. */
function waitForOutput(child: ChildProcess, marker: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`no "${marker}" within ${timeoutMs} ms:\n${output.slice(-3000)}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(marker)) {
        clearTimeout(timer);
        resolve(output);
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before "${marker}":\n${output.slice(-3000)}`));
    });
  });
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

function portIsOpen(port: number): Promise<boolean> {
  return fetch(`http://127.0.0.1:${port}`, { method: "POST" }).then(
    () => true,
    () => false,
  );
}

describe("npm start, then npm run demo against it", () => {
  const stackDir = fs.mkdtempSync(path.join(os.tmpdir(), "raffle-stack-"));
  let stack: ChildProcess | null = null;

  afterAll(() => {
    // Only when the test failed before stopping the stack: never leave its processes behind.
    if (stack?.pid && stack.exitCode === null && stack.signalCode === null) {
      try {
        process.kill(-stack.pid, "SIGKILL");
      } catch {
        // the process group is already gone
      }
    }
    fs.rmSync(stackDir, { recursive: true, force: true });
  });

  it("boots the whole system, runs the demo end to end, and stops cleanly on Ctrl-C", async () => {
    const [apiPort, chainPort] = [await freePort(), await freePort()];
    const env = {
      ...process.env,
      PORT: String(apiPort),
      CHAIN_PORT: String(chainPort),
      STACK_DIR: stackDir,
      RAFFLE_SCHEDULE: "*/5 * * * * *",
    };
    stack = spawn("npm", ["start", "--", "--fresh"], { cwd: ROOT, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    const boot = await waitForOutput(stack, "\nready\n", 240_000);
    for (const step of ["[1/8]", "[4/8]", "[6/8]", "[8/8]"]) expect(boot).toContain(step);
    expect(boot).toContain(`http://127.0.0.1:${apiPort}/docs`);
    expect(boot).toMatch(/API key\s+rk_[0-9a-f]{12}_/);

    const facts = JSON.parse(fs.readFileSync(path.join(stackDir, "stack.json"), "utf8")) as StackFile;
    expect(facts).toMatchObject({ apiUrl: `http://127.0.0.1:${apiPort}`, rpcUrl: `http://127.0.0.1:${chainPort}`, chainId: 31337 });
    expect(facts.contracts.raffles.map((raffle) => raffle.kind).sort()).toEqual(["ERC20", "NATIVE"]);
    expect(facts.players.length).toBeGreaterThanOrEqual(2);

    const demo = await run("npm", ["run", "demo"], env, 240_000);
    expect({ code: demo.code, output: demo.code === 0 ? "" : demo.output }).toEqual({ code: 0, output: "" });
    expect(demo.output).toContain("demo complete");
    expect(demo.output.match(/bought ticket \d+ of round \d+ for [\d.]+ (GOLD|ETH) \(tx 0x[0-9a-f]{64}\)/g)).toHaveLength(4);
    expect(demo.output).toMatch(/round \d+ has [12] tickets/);
    expect(demo.output).toMatch(/round (\d+) ended, round (\d+) is open/);
    expect(demo.output).toMatch(/won ticket \d+: [\d.]+ GOLD after commission/);
    expect(demo.output).toContain("the API lists the claim as REDEEMED");

    let shutdownOutput = "";
    stack.stdout!.on("data", (chunk: Buffer) => (shutdownOutput += chunk.toString()));
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
      stack!.once("exit", (code, signal) => resolve({ code, signal })),
    );
    // Ctrl-C reaches the whole process group, as in a terminal; npm itself then ends by that signal.
    process.kill(-stack.pid!, "SIGINT");
    const { code, signal } = await exited;
    expect(code === 0 || signal === "SIGINT").toBe(true);
    expect(shutdownOutput).toContain("stopped");
    // Nothing of the stack is left: neither the API nor the chain answers.
    expect(await portIsOpen(apiPort)).toBe(false);
    expect(await portIsOpen(chainPort)).toBe(false);
  });
});
