/** Long enough for an indexer or a worker to catch up while other suites load the machine's two cores. */
const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * Calls `check` until it resolves, every `intervalMs`, and answers its value; after `timeoutMs` the last failure is
 * thrown. For state that another process catches up with (an indexer, a worker, a chain node).
 */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = DEFAULT_TIMEOUT_MS, intervalMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}
