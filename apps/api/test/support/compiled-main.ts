import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

/** The compiled API, as production and the Docker image run it; `npm test` builds it first (`npm run build`). */
export const COMPILED_MAIN = path.resolve(__dirname, "../../../../dist/apps/api/src/main.js");
/** The compiled API started with a spec's webhook pace (paced-api-main.js). */
export const PACED_API_MAIN = path.resolve(__dirname, "paced-api-main.js");
/** The compiled api-key CLI (`npm run api-key` runs its source with ts-node). */
export const COMPILED_API_KEY_CLI = path.resolve(__dirname, "../../../../dist/apps/api/src/cli/api-key.js");

export interface MainRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the compiled API with exactly `env` (plus PATH) until it exits or `timeoutMs` passes (then SIGKILL), and
 * answers what it printed: for start-up failures, which must end the process with one clear message.
 */
export function runCompiledMain(env: Record<string, string>, timeoutMs = 30_000): Promise<MainRun> {
  if (!fs.existsSync(COMPILED_MAIN)) throw new Error(`${COMPILED_MAIN} is missing: run \`npm run build\` first`);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [COMPILED_MAIN], { env: { PATH: process.env.PATH ?? "", ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
