import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

export const ROOT = path.resolve(__dirname, "../../..");

/** The page that holds the Sepolia walkthrough. */
export const WALKTHROUGH_PAGE = "docs/guides/deployer.md";

/** A command of the deployer guide's walkthrough: where it runs (the repository root or contracts/) and its exact text. */
export interface WalkthroughCommand {
  cwd: "root" | "contracts";
  command: string;
}

/**
 * The commands of the deployer guide's walkthrough (WALKTHROUGH_PAGE), in order: every fenced block that follows a
 * `<!-- walkthrough: root|contracts -->` marker, one command a line, comments dropped.
 */
export function readmeWalkthrough(): WalkthroughCommand[] {
  const readme = fs.readFileSync(path.join(ROOT, WALKTHROUGH_PAGE), "utf8");
  const commands: WalkthroughCommand[] = [];
  for (const match of readme.matchAll(/<!-- walkthrough: (root|contracts) -->\s*```bash\n([\s\S]*?)```/g)) {
    for (const line of match[2].split("\n")) {
      const command = line.replace(/\s+#.*$/, "").trim();
      if (command && !command.startsWith("#")) commands.push({ cwd: match[1] as "root" | "contracts", command });
    }
  }
  return commands;
}

export interface Outcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
}

/** Runs one command line with bash, as a reader would type it; `input` is what they would type at its prompts. */
export function runCommand(
  step: WalkthroughCommand,
  env: NodeJS.ProcessEnv,
  input = "",
  onStart: (child: ChildProcess) => void = () => undefined,
  timeoutMs = 180_000,
): Promise<Outcome> {
  return new Promise((resolve) => {
    const child = spawn("bash", ["-c", step.command], { cwd: step.cwd === "root" ? ROOT : path.join(ROOT, "contracts"), env, detached: true });
    onStart(child);
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    // A command that never reads its input (or exits before it does) closes the pipe: EPIPE then, which is no failure of
    // its own (its exit code and output tell how it went), not an uncaught error in the test.
    child.stdin.on("error", () => undefined);
    child.stdin.end(input);
    const timer = setTimeout(() => process.kill(-child.pid!, "SIGKILL"), timeoutMs);
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, output });
    });
  });
}

/** Starts a command that keeps running (the API), resolving once `ready` appears in its output. */
export function startCommand(step: WalkthroughCommand, env: NodeJS.ProcessEnv, ready: RegExp, timeoutMs = 120_000): Promise<ChildProcess> {
  const child = spawn("bash", ["-c", step.command], { cwd: step.cwd === "root" ? ROOT : path.join(ROOT, "contracts"), env, detached: true });
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => {
      // Never left running: a leftover process keeps the test runner from exiting.
      process.kill(-child.pid!, "SIGKILL");
      reject(new Error(`"${step.command}" not ready within ${timeoutMs} ms:\n${output.slice(-3000)}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (ready.test(output)) {
        clearTimeout(timer);
        child.stdout!.removeAllListeners("data").resume();
        child.stderr!.removeAllListeners("data").resume();
        resolve(child);
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`"${step.command}" exited with ${code}:\n${output.slice(-3000)}`));
    });
  });
}

/** Stops a process group started here and waits for it. */
export async function stopGroup(child: ChildProcess | undefined, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    process.kill(-child.pid, signal);
  } catch {
    return;
  }
  await exited;
}
