import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { freePort } from "@raffle/config";

import { spawnChildService, type ChildService } from "./child-service";
import { COMPILED, requireCompiled } from "./compiled";

/** The compiled API running in a process of its own, healthy. */
export interface ApiProcess {
  url: string;
  port: number;
  child: ChildService;
  stop(): Promise<void>;
}

export interface ApiProcessOptions {
  /** How long it may take to answer /health (a loaded machine starts slowly). */
  healthTimeoutMs?: number;
  /** Node flags before the script (e.g. --cpu-prof). */
  nodeArgs?: string[];
  /** The port to listen on; a free one by default. */
  port?: number;
  /** Another build's compiled main.js (the bench's A/B runs against another checkout); this checkout's by default. */
  main?: string;
}

/**
 * Starts `dist/apps/api/src/main.js` with this environment (plus PORT, and LOG_LEVEL=error unless given: the output is
 * kept for the message of a failed start) and resolves once GET /health answers 200.
 */
export async function startApiProcess(env: Record<string, string>, options: ApiProcessOptions = {}): Promise<ApiProcess> {
  const port = options.port ?? (await freePort());
  const child = spawnChildService(process.execPath, [...(options.nodeArgs ?? []), requireCompiled(options.main ?? COMPILED.apiMain)], {
    cwd: COMPILED.root,
    env: { ...process.env, LOG_LEVEL: "error", ...env, PORT: String(port) },
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.healthTimeoutMs ?? 90_000);
  for (;;) {
    if (child.exited()) throw new Error(`the API exited before it was healthy:\n${child.output().slice(-2_000)}`);
    const healthy = await fetch(`${url}/health`)
      .then((response) => response.status === 200)
      .catch(() => false);
    if (healthy) break;
    if (Date.now() > deadline) {
      await child.stop();
      throw new Error(`the API was not healthy within ${options.healthTimeoutMs ?? 90_000} ms:\n${child.output().slice(-2_000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, port, child, stop: () => child.stop() };
}

/** A fresh API key of a merchant (wallet address or id), from the compiled `api-key` CLI against this database. */
export async function createApiKey(databaseUrl: string, merchant: string): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [requireCompiled(COMPILED.apiKeyCli), "create", "--merchant", merchant], {
    cwd: COMPILED.root,
    env: { ...process.env, DATABASE_URL: databaseUrl, PGLITE_DIR: "", LOG_LEVEL: "error" },
    timeout: 60_000,
  });
  const key = stdout.split("\n").find((line) => line.startsWith("rk_"));
  if (!key) throw new Error(`api-key create printed no key:\n${stdout}`);
  return key.trim();
}
