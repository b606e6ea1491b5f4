import { PlatformError } from "./errors";

/**
 * A bad configuration: every problem found, each naming the variable (or file) to fix. The apps refuse to start with it,
 * and its message, the problems joined by "; ", is their one "failed to start" line.
 */
export class ConfigError extends PlatformError {
  readonly problems: readonly string[];

  constructor(problems: string | readonly string[]) {
    const list = typeof problems === "string" ? [problems] : [...problems];
    // Not retryable: the same settings fail the same way until someone changes them.
    super("invalidConfiguration", list.join("; "), false);
    this.problems = list;
  }
}

/**
 * Collects every bad setting instead of stopping at the first: `read` runs one reader (readSettings, a file's check)
 * and keeps the problems of its ConfigError; `check` throws them all at once, so an operator fixes the whole
 * environment in one go. A problem found twice (a shared setting read for several chains) is reported once.
 */
export class ConfigProblems {
  private readonly problems: string[] = [];

  read<T>(reader: () => T): T {
    try {
      return reader();
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      this.problems.push(...error.problems);
      // Never used: `check` throws before the caller builds anything from what was read.
      return undefined as T;
    }
  }

  add(problem: string): void {
    this.problems.push(problem);
  }

  check(): void {
    if (this.problems.length > 0) throw new ConfigError([...new Set(this.problems)]);
  }
}
