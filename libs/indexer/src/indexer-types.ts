import type { PlatformDeployment } from "@raffle/chain";

import type { IndexerLogger } from "./logger";

/** The indexer's public types: its options, its status and what one step did (re-exported by indexer.ts). */

export interface IndexerOptions {
  deployment: PlatformDeployment;
  /** Blocks behind the head that are treated as final (0 on a local chain). */
  confirmations?: number;
  /** Most blocks read per batch; each batch is one database transaction. */
  batchBlocks?: number;
  pollIntervalMs?: number;
  /**
   * The longest wait between two polls of a quiet chain (default 8 × `pollIntervalMs`): each idle step in a row doubles
   * the wait up to this; events, a reorg or a new head over `wsUrl` bring it back to `pollIntervalMs`.
   */
  idlePollMaxMs?: number;
  /**
   * The node's WebSocket endpoint (ws:// or wss://). A new head it announces wakes the poll loop at once, so the lag is
   * the step's own time; polling stays as the fallback while the socket is down.
   */
  wsUrl?: string;
  /** Cron schedule of newly registered raffles. */
  defaultSchedule?: string;
  /**
   * How far below the head a reorg can reach: blocks within it are applied with the undo log, deeper ones without
   * (and a reorg below them stops the indexer with an error). Default 256 (`DEFAULT_REORG_WINDOW_BLOCKS`). The API
   * reads it per chain from its configuration (INDEXER_REORG_WINDOW_BLOCKS); the library reads no environment.
   */
  reorgWindowBlocks?: number;
  progressIntervalMs?: number;
  /** The setting that names the chain's node (RPC_URL, CHAIN_<id>_RPC_URL), named by every failure to reach it. */
  rpcSetting?: string;
  logger?: IndexerLogger;
  /** Called after each reorg rolled back (for metrics): `depth` blocks between the cursor and the common ancestor. */
  onReorg?: (reorg: { chainId: number; from: number; ancestor: number; depth: number }) => void;
}

export interface IndexerStatus {
  chainId: number;
  leader: boolean;
  cursor: number | null;
  head: number | null;
  /** Blocks between the confirmed head and the cursor. */
  lag: number | null;
  /** Age in seconds of the last indexed block while the index is behind the confirmed head; 0 when caught up. */
  lagSeconds: number | null;
  lastBatchAt: string | null;
  lastError: string | null;
  /**
   * The last step failed in a way no retry fixes (IndexResetRequired: a reorg below the undo window, a node reset under
   * the index): /ready fails the chain and names the reset command. Cleared by the next step that succeeds.
   */
  resetRequired: boolean;
  /** New heads announced over the WebSocket that woke the leader or queued its next step (0 without `wsUrl`). */
  headWakes: number;
  /** Events indexed by this process since it started (a counter: its rate is events per second). */
  eventsIndexed: number;
  /** Reorgs rolled back by this process since it started. */
  reorgs: number;
  /** Steps that failed (node or database errors), each retried. */
  failedSteps: number;
}

export type StepResult =
  | { kind: "idle" }
  | { kind: "batch"; from: number; to: number; events: number }
  | { kind: "reorg"; ancestor: number }
  | { kind: "retry"; reason: string }
  /** Another process holds the chain's indexing lock: nothing was read or written. */
  | { kind: "follower" };
