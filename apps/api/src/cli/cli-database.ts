import * as fs from "node:fs";
import * as net from "node:net";
import * as path from "node:path";
import { contractsDir } from "@raffle/chain";
import { databaseUrlForLogs, readSettings, setting } from "@raffle/config";

/** Which database a command-line tool opens, and how to say so. */
export interface CliDatabase {
  url?: string;
  pgliteDir?: string;
  /** For messages: which database this is and why it was chosen. */
  description: string;
  /** What to do when it cannot be opened. */
  hint: string;
}

/** What the CLI reads of the local stack's `stack.json` (written by `npm start`). */
interface StackFacts {
  databaseUrl?: string;
  pgliteDir?: string;
  pid?: number;
}

/**
 * A relative path as the user meant it: from the folder the command was typed in. npm runs workspace scripts in the
 * workspace's folder (apps/api), and keeps the caller's folder in INIT_CWD.
 */
function fromCallerDir(env: NodeJS.ProcessEnv, file: string): string {
  return path.resolve(env.INIT_CWD || process.cwd(), file);
}

/** Where `npm start` keeps its facts and its database: STACK_DIR, else `.local` at the repository root. */
export function stackDir(env: NodeJS.ProcessEnv): string {
  return env.STACK_DIR ? fromCallerDir(env, env.STACK_DIR) : path.join(path.dirname(contractsDir()), ".local");
}

function readStackFacts(file: string): StackFacts | null {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as StackFacts;
  } catch {
    return null;
  }
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Whether something listens at the URL's host and port (for stack files written before they carried a pid). */
function listens(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      resolve(false);
      return;
    }
    const socket = net.connect({ host: target.hostname, port: Number(target.port || 5432) });
    const done = (result: boolean) => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}

/**
 * The database the API uses, so a key created here is one the API accepts:
 * 1. DATABASE_URL, when set;
 * 2. while `npm start` runs, the stack's own database, through the URL it serves it on (its embedded PGlite belongs
 *    to the stack's process: opening its folder from here would read stale data and have the key overwritten);
 * 3. otherwise the embedded folder PGLITE_DIR, by default the stack's (`.local/pglite` at the repository root, the
 *    one `npm start` opens next), never a folder relative to wherever npm happened to run the script.
 */
export async function resolveCliDatabase(env: NodeJS.ProcessEnv): Promise<CliDatabase> {
  // The API's own check of DATABASE_URL: a scheme-less or mysql:// URL is refused by name, its password never echoed.
  const { DATABASE_URL } = readSettings(env, { DATABASE_URL: setting.postgresUrl().optional() });
  if (DATABASE_URL) {
    return {
      url: DATABASE_URL,
      description: `DATABASE_URL (${databaseUrlForLogs(DATABASE_URL)})`,
      hint: "check DATABASE_URL and that the database server runs",
    };
  }
  const dir = stackDir(env);
  const stackFile = path.join(dir, "stack.json");
  const stackPglite = path.join(dir, "pglite");
  const requestedDir = env.PGLITE_DIR ? fromCallerDir(env, env.PGLITE_DIR) : undefined;
  const facts = readStackFacts(stackFile);
  const stackFolder = facts?.pgliteDir ? path.resolve(facts.pgliteDir) : stackPglite;
  const wantsStackDatabase = requestedDir === undefined || requestedDir === stackFolder;
  if (facts?.databaseUrl && wantsStackDatabase) {
    const running = facts.pid !== undefined ? processIsAlive(facts.pid) : await listens(facts.databaseUrl);
    if (running) {
      return {
        url: facts.databaseUrl,
        description: `the running local stack's database (${stackFile}${facts.pid !== undefined ? `, pid ${facts.pid}` : ""})`,
        hint: "the local stack runs but its database does not answer: wait until `npm start` prints ready, or stop the stack (Ctrl-C) and run this again",
      };
    }
  }
  const pgliteDir = requestedDir ?? stackPglite;
  return {
    pgliteDir,
    description: `the embedded database in ${pgliteDir}${pgliteDir === stackFolder ? " (the local stack's; the stack is not running)" : ""}`,
    hint: "another process may hold that folder: stop it, or set DATABASE_URL",
  };
}
