import * as fs from "node:fs";
import { Client } from "pg";

/** Server that tests create their databases on: DATABASE_URL, or the machine's PostgreSQL with trust auth. */
export const TEST_SERVER_URL = process.env.TEST_DATABASE_SERVER_URL || "postgres://postgres@127.0.0.1:5432/postgres";

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

async function withServer<T>(run: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: TEST_SERVER_URL, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

function safeLabel(label: string): string {
  return label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .slice(0, 20);
}

/**
 * A fresh, uniquely named database, so parallel suites and reruns never see each other's rows. Its name carries the
 * creating process's pid and the time, so a later run can tell a leftover (its owner is gone) from one in use.
 */
export async function createTestDatabase(label: string): Promise<TestDatabase> {
  const name = `raffle_${safeLabel(label)}_${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  await withServer((client) => client.query(`CREATE DATABASE "${name}"`));
  const url = new URL(TEST_SERVER_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: () => withServer((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}

/** Whether the process `pid` runs and was started before `createdAtMs` (else the pid was reused by another). */
function ownerRuns(pid: number, createdAtMs: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  try {
    // /proc/<pid>/stat's 22nd field: the start time, in clock ticks (100 a second) after boot (/proc/stat's btime).
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const startTicks = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]);
    const bootSeconds = Number(/^btime (\d+)/m.exec(fs.readFileSync("/proc/stat", "utf8"))![1]);
    return bootSeconds * 1000 + startTicks * 10 <= createdAtMs + 1_000;
  } catch {
    return true;
  }
}

/**
 * Drops the databases of `labels` (createTestDatabase's; "bench" takes raffle_bench_* of every label that starts so) whose
 * creating process is gone: what a run that was killed
 * (SIGKILL, a crash, a closed terminal) could not drop itself. With `includingOwn`, this process's own go too (its
 * interrupted exit). Answers the names dropped.
 */
export async function dropLeftoverDatabases(labels: string[], options: { includingOwn?: boolean } = {}): Promise<string[]> {
  const prefixes = labels.map((label) => `raffle_${safeLabel(label)}_`);
  return withServer(async (client) => {
    const { rows } = await client.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE 'raffle\\_%'");
    const leftovers = rows
      .map((row) => row.datname)
      .filter((name) => {
        const owner = /^(.*_)(\d+)_(\d{13})_\d+$/.exec(name);
        if (!owner || !prefixes.some((prefix) => owner[1].startsWith(prefix))) return false;
        const pid = Number(owner[2]);
        if (pid === process.pid) return options.includingOwn === true;
        return !ownerRuns(pid, Number(owner[3]));
      });
    for (const name of leftovers) await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    return leftovers;
  });
}
