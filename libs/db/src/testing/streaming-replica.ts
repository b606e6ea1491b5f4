import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { freePort } from "@raffle/config";
import { Client } from "pg";

import type { TestDatabase } from "./test-database";

/** The machine's PostgreSQL server binaries (Debian's /usr/lib/postgresql/<version>/bin): initdb, pg_ctl, pg_basebackup. */
function serverBinaries(): string {
  const root = "/usr/lib/postgresql";
  const version = fs.existsSync(root) ? fs.readdirSync(root).sort().pop() : undefined;
  if (!version) throw new Error("no PostgreSQL server binaries under /usr/lib/postgresql: a streaming replica needs them");
  return path.join(root, version, "bin");
}

/** One server of the pair: its data folder and port. */
interface Server {
  dataDir: string;
  port: number;
}

/**
 * A PostgreSQL primary and a hot standby streaming from it, both private to the caller (a temp folder, free ports,
 * trust auth on 127.0.0.1), with one database `raffle` created on the primary and replicated. For the tests, the
 * bench and the reliability scripts of reads from a replica; the machine's own cluster is never touched. `stop()`
 * stops both and removes the folder: call it in a finally.
 */
export interface StreamingReplica {
  /** The `raffle` database on the primary (drop() stops both servers). */
  primary: TestDatabase;
  /** The same database on the standby (read-only). */
  replicaUrl: string;
  /** Stops the standby as a crash would (`pg_ctl -m immediate`): its connections end at once. */
  killReplica(): void;
  /** Starts the standby again after killReplica(); resolves once it accepts reads. */
  startReplica(): Promise<void>;
  /** Holds the standby's replay of the primary's WAL (it keeps receiving): it falls behind by however long it is held. */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  stop(): Promise<void>;
}

/** Runs a server binary, as the `postgres` OS user when this process is root (PostgreSQL refuses root). */
function run(binary: string, args: string[]): void {
  const command = path.join(serverBinaries(), binary);
  if (process.getuid?.() === 0) execFileSync("runuser", ["-u", "postgres", "--", command, ...args], { stdio: "pipe" });
  else execFileSync(command, args, { stdio: "pipe" });
}

function startServer(server: Server, socketDir: string): void {
  const options = `-p ${server.port} -k ${socketDir} -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off`;
  run("pg_ctl", [
    "-D",
    server.dataDir,
    "-o",
    options,
    "-w",
    "-t",
    "60",
    "-l",
    path.join(path.dirname(server.dataDir), `${path.basename(server.dataDir)}.log`),
    "start",
  ]);
}

function stopServer(server: Server, mode: "fast" | "immediate"): void {
  try {
    run("pg_ctl", ["-D", server.dataDir, "-m", mode, "-w", "stop"]);
  } catch {
    // already stopped
  }
}

async function onServer<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const urlOf = (port: number, database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;

/** Starts the pair: initdb, the primary, pg_basebackup -R of it, the standby; a failure stops what started. */
export async function startStreamingReplica(): Promise<StreamingReplica> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "raffle-replica-"));
  fs.chmodSync(root, 0o700);
  if (process.getuid?.() === 0) execFileSync("chown", ["postgres:postgres", root]);
  const primary: Server = { dataDir: path.join(root, "primary"), port: await freePort() };
  const replica: Server = { dataDir: path.join(root, "replica"), port: await freePort() };
  const stop = async () => {
    stopServer(replica, "immediate");
    stopServer(primary, "immediate");
    fs.rmSync(root, { recursive: true, force: true });
  };
  try {
    // Throwaway data: no fsync anywhere, and a fast checkpoint for the base backup (a spread one takes minutes).
    run("initdb", ["-D", primary.dataDir, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
    fs.appendFileSync(path.join(primary.dataDir, "pg_hba.conf"), "\nhost replication all 127.0.0.1/32 trust\n");
    startServer(primary, root);
    await onServer(urlOf(primary.port, "postgres"), (client) => client.query("CREATE DATABASE raffle"));
    run("pg_basebackup", [
      "-h",
      "127.0.0.1",
      "-p",
      String(primary.port),
      "-U",
      "postgres",
      "-D",
      replica.dataDir,
      "-R",
      "-X",
      "stream",
      "--no-sync",
      "-c",
      "fast",
    ]);
    startServer(replica, root);
    const replicaUrl = urlOf(replica.port, "raffle");
    const untilReads = async () => {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const ok = await onServer(
          replicaUrl,
          async (client) => (await client.query("SELECT pg_is_in_recovery() AS standby")).rows[0].standby === true,
        ).catch(() => false);
        if (ok) return;
        if (Date.now() > deadline) throw new Error("the standby did not accept reads within 30 s");
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    await untilReads();
    return {
      primary: { url: urlOf(primary.port, "raffle"), name: "raffle", drop: stop },
      replicaUrl,
      killReplica: () => stopServer(replica, "immediate"),
      startReplica: async () => {
        startServer(replica, root);
        await untilReads();
      },
      pauseReplay: () => onServer(replicaUrl, (client) => client.query("SELECT pg_wal_replay_pause()")).then(() => undefined),
      resumeReplay: () => onServer(replicaUrl, (client) => client.query("SELECT pg_wal_replay_resume()")).then(() => undefined),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
