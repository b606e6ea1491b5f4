import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";

/** A port the local stack listens on, and the setting that moves it. */
export interface StackPort {
  port: number;
  what: string;
  setting: string;
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}

/** Who listens on `port`, as "pid 123: node hardhat node --port 8545", when `ss` can tell (else null). */
export function portHolder(port: number): string | null {
  try {
    const listing = execFileSync("ss", ["-ltnpH", `sport = :${port}`], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
    const pid = /pid=(\d+)/.exec(listing)?.[1];
    if (!pid) return null;
    const command = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ");
    return `pid ${pid}: ${command.length > 160 ? `${command.slice(0, 157)}...` : command}`;
  } catch {
    return null;
  }
}

/**
 * Sentences naming each port that something else already listens on (and that process, when it can be found), so
 * `npm start` says what to stop or which setting to change instead of failing later with a raw EADDRINUSE.
 */
export async function takenPorts(ports: StackPort[]): Promise<string[]> {
  const problems: string[] = [];
  for (const { port, what, setting } of ports) {
    if (await isFree(port)) continue;
    const holder = portHolder(port);
    problems.push(
      `Port ${port} (${what}) is already in use${holder ? ` by ${holder}` : ""}. Stop that process, or start on another port with ${setting}=<port>.`,
    );
  }
  return problems;
}
