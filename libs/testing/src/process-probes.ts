import * as fs from "node:fs";
import * as net from "node:net";

/**
 * Whether process `pid` is running: a zombie (exited, waiting for a parent that does not reap it) counts as gone, so
 * cleanup tests see a killed child as gone even when its parent never waits for it. Linux only (/proc).
 */
export function isProcessRunning(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/** Whether something accepts connections on 127.0.0.1:`port`. */
export function isPortListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}
