import type { IndexerOptions } from "./indexer-types";

/** Owns the indexer's option defaults and their checks, so a bad setting fails at construction, not at a reorg. */

/** Blocks below the head that a reorg may reach by default (INDEXER_REORG_WINDOW_BLOCKS in the API's settings). */
export const DEFAULT_REORG_WINDOW_BLOCKS = 256;

/** How far a quiet chain's poll backs off by default, in poll intervals. */
export const IDLE_POLL_BACKOFF_FACTOR = 8;

export type ResolvedIndexerOptions = Required<Omit<IndexerOptions, "logger" | "wsUrl" | "onReorg" | "rpcSetting">>;

export function resolveIndexerOptions(options: IndexerOptions): ResolvedIndexerOptions {
  const reorgWindowBlocks = options.reorgWindowBlocks ?? DEFAULT_REORG_WINDOW_BLOCKS;
  // A window of 0 (or NaN from a mistyped setting) would silently apply every block without the undo log, and the
  // first reorg would then stop the indexer: refuse it at once, naming the chain.
  if (!Number.isSafeInteger(reorgWindowBlocks) || reorgWindowBlocks < 1) {
    throw new Error(`reorgWindowBlocks of chain ${options.deployment.chainId} must be a whole number of blocks >= 1, got ${reorgWindowBlocks}`);
  }
  const pollIntervalMs = options.pollIntervalMs ?? 1_000;
  const idlePollMaxMs = options.idlePollMaxMs ?? pollIntervalMs * IDLE_POLL_BACKOFF_FACTOR;
  if (!(idlePollMaxMs >= pollIntervalMs)) {
    throw new Error(`idlePollMaxMs of chain ${options.deployment.chainId} must be at least pollIntervalMs (${pollIntervalMs}), got ${idlePollMaxMs}`);
  }
  return {
    deployment: options.deployment,
    confirmations: options.confirmations ?? 0,
    batchBlocks: options.batchBlocks ?? 2_000,
    pollIntervalMs,
    idlePollMaxMs,
    defaultSchedule: options.defaultSchedule ?? "0 0 * * *",
    progressIntervalMs: options.progressIntervalMs ?? 5_000,
    reorgWindowBlocks,
  };
}
