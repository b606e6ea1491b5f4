import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const BIN = (() => {
  const root = "/usr/lib/postgresql";
  const version = fs.existsSync(root) ? fs.readdirSync(root).sort().pop() : undefined;
  if (!version) throw new Error("no PostgreSQL server binaries under /usr/lib/postgresql");
  return path.join(root, version, "bin");
})();

/**
 * A throwaway PostgreSQL server of our own, so a test can stop and restart it without touching the machine's
 * server. Runs as the `postgres` OS user when started as root (PostgreSQL refuses root).
 */
export class PrivatePostgres {
  private constructor(
    readonly dataDir: string,
    readonly port: number,
  ) {}

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  static create(port: number): PrivatePostgres {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "raffle-pg-"));
    fs.chmodSync(dataDir, 0o700);
    if (process.getuid?.() === 0) execFileSync("chown", ["postgres:postgres", dataDir]);
    const server = new PrivatePostgres(dataDir, port);
    server.run("initdb", ["-D", dataDir, "-U", "postgres", "--auth=trust", "-E", "UTF8"]);
    return server;
  }

  start(): void {
    this.run("pg_ctl", [
      "-D",
      this.dataDir,
      "-o",
      `-p ${this.port} -k /tmp -c listen_addresses=127.0.0.1`,
      "-w",
      "-l",
      path.join(this.dataDir, "log"),
      "start",
    ]);
  }

  stop(mode: "fast" | "immediate" = "fast"): void {
    this.run("pg_ctl", ["-D", this.dataDir, "-m", mode, "-w", "stop"]);
  }

  destroy(): void {
    try {
      this.stop("immediate");
    } catch {
      // already stopped
    }
    fs.rmSync(this.dataDir, { recursive: true, force: true });
  }

  private run(binary: string, args: string[]): void {
    const command = path.join(BIN, binary);
    if (process.getuid?.() === 0) execFileSync("runuser", ["-u", "postgres", "--", command, ...args], { stdio: "ignore" });
    else execFileSync(command, args, { stdio: "ignore" });
  }
}
