import * as fs from "node:fs";

/** Linux's clock ticks per second in /proc/<pid>/stat (USER_HZ, 100 on every mainstream kernel). */
const TICKS_PER_SECOND = 100;

/** The fields of /proc/<pid>/stat after the command name (which may hold spaces): field 3 (state) is index 0. */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  }
}

/**
 * CPU seconds of a process: its own (utime + stime), plus with `reaped` those of the children it has waited for
 * (cutime + cstime: PostgreSQL's backends, which come and go with the connections).
 */
export function cpuSeconds(pid: number, reaped = false): number {
  const fields = statFields(pid);
  if (!fields) return 0;
  const [utime, stime, cutime, cstime] = fields.slice(11, 15).map(Number);
  return (utime + stime + (reaped ? cutime + cstime : 0)) / TICKS_PER_SECOND;
}

/** The live children of a process (their parent pid, field 4, is it). */
export function childrenOf(pid: number): number[] {
  return fs
    .readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((child) => statFields(child)?.[1] === String(pid));
}

/** A PostgreSQL server's CPU seconds: the postmaster, the backends it reaped, and those alive now. */
export function postgresCpuSeconds(postmasterPid: number): number {
  return cpuSeconds(postmasterPid, true) + childrenOf(postmasterPid).reduce((total, child) => total + cpuSeconds(child), 0);
}

/** The process listening on 127.0.0.1:`port` (a node the script started without its pid), by its socket's inode. */
export function listenerPid(port: number): number | undefined {
  const hex = port.toString(16).toUpperCase().padStart(4, "0");
  const line = fs
    .readFileSync("/proc/net/tcp", "utf8")
    .split("\n")
    .slice(1)
    .map((entry) => entry.trim().split(/\s+/))
    .find((fields) => fields[1]?.endsWith(`:${hex}`) && fields[3] === "0A");
  const socket = `socket:[${line?.[9]}]`;
  return fs
    .readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .find((pid) => {
      try {
        return fs.readdirSync(`/proc/${pid}/fd`).some((fd) => {
          try {
            return fs.readlinkSync(`/proc/${pid}/fd/${fd}`) === socket;
          } catch {
            return false;
          }
        });
      } catch {
        return false;
      }
    });
}

/**
 * CPU seconds by role over a run: each process's reading when the run starts (or when it is added) and its last
 * reading (taken again before it is killed, since a dead process's counters are gone).
 */
export class CpuMeter {
  private readonly processes = new Map<number, { role: string; read: () => number; first: number; last: number }>();

  track(role: string, pid: number, read: () => number = () => cpuSeconds(pid)): void {
    const now = read();
    this.processes.set(pid, { role, read, first: now, last: now });
  }

  /** Takes every process's reading now (at the run's end) or one's (just before it is killed). */
  update(pid?: number): void {
    for (const [tracked, process] of this.processes) if (pid === undefined || pid === tracked) process.last = Math.max(process.last, process.read());
  }

  /** CPU seconds used since tracking began, summed by role, in the order the roles were first tracked. */
  byRole(): Map<string, number> {
    const roles = new Map<string, number>();
    for (const process of this.processes.values()) roles.set(process.role, (roles.get(process.role) ?? 0) + process.last - process.first);
    return roles;
  }
}
