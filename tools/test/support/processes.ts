import { spawn, type ChildProcess } from "node:child_process";

/** Resolves with the output once `marker` appears; rejects if the process exits first or time runs out. */
export function waitForOutput(child: ChildProcess, marker: string, timeoutMs: number): Promise<string> {
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

export interface Finished {
  code: number | null;
  output: string;
}

/** Runs a command to its end (SIGKILL after `timeoutMs`) and answers its exit code and output. */
export function run(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number }): Promise<Finished> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** Fails with the command's output when it did not exit with 0. */
export function succeeded(what: string, finished: Finished): string {
  if (finished.code !== 0) throw new Error(`${what} exited with ${finished.code}:\n${finished.output.slice(-3000)}`);
  return finished.output;
}
