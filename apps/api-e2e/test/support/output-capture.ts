import { logLevel, redirectLogOutput, setLogLevel, type LogLevel } from "@raffle/config";

/**
 * Captures everything this process prints while `run` runs, at `level` (default info): the log lines (pino writes them
 * to stdout's file descriptor itself), stdout, stderr and console calls (libraries such as ethers print with
 * console.log, which Jest would otherwise keep to itself).
 */
export async function captureOutput<T>(run: () => Promise<T>, level: LogLevel = "info"): Promise<{ result: T; lines: string[] }> {
  const lines: string[] = [];
  const previousLevel = process.env.LOG_LEVEL;
  const previousLoggerLevel = logLevel();
  process.env.LOG_LEVEL = level;
  setLogLevel(level);
  const keep = (chunk: unknown) => lines.push(...String(chunk).split("\n").filter(Boolean));
  const restoreLogs = redirectLogOutput(keep);
  const spies = [
    jest.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => (keep(chunk), true)),
    jest.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => (keep(chunk), true)),
    ...(["log", "info", "warn", "error"] as const).map((method) =>
      jest.spyOn(console, method).mockImplementation((...args: unknown[]) => keep(args.join(" "))),
    ),
  ];
  try {
    return { result: await run(), lines };
  } finally {
    for (const spy of spies) spy.mockRestore();
    restoreLogs();
    setLogLevel(previousLoggerLevel);
    process.env.LOG_LEVEL = previousLevel;
  }
}

/** The lines that are not JSON objects: a structured log has none. */
export function plainTextLines(lines: string[]): string[] {
  return lines.filter((line) => {
    try {
      return typeof JSON.parse(line) !== "object";
    } catch {
      return true;
    }
  });
}
