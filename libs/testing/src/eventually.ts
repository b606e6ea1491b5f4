/**
 * Calls `check` until it resolves, every `intervalMs`, and answers its value; after `timeoutMs` the last failure is
 * thrown. For state that another process catches up with (an indexer, a worker, a chain node).
 */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 10_000, intervalMs = 50): Promise<T> {
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
