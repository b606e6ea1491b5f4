import { ConfigError, isRetryable } from "@raffle/config";

import { retryWithBackoff } from "./backoff";
import type { ChainRotationsReport, ChainRotator, SingleRunResult } from "./chain-rotator";
import { errorMessage, type WorkerLogger } from "./logger";
import type { ChainRelayer, RelayerHealth } from "./relayer/chain-relayer";

/** What a chain runner needs of its node (a ChainConnection, or a stub in unit tests). */
export interface ChainNode {
  /** Throws a ConfigError when the node serves another chain, any other error when it does not answer. */
  verifyChainId(): Promise<void>;
  destroy(): void;
}

export type ChainState = "connecting" | "running" | "failed" | "stopped";

/** One chain in /health. */
export interface ChainHealth {
  chainId: number;
  /** `connecting` while the node has not answered yet (retried in the background), `failed` after a fatal error. */
  state: ChainState;
  /** Whether the node answered (and served this chain) at the last contact. */
  reachable: boolean;
  raffles: number;
  lastRefresh?: ChainRotationsReport["lastRefresh"];
  lastRotation?: ChainRotationsReport["lastRotation"];
  lastError?: ChainRotationsReport["lastError"];
  /** The relayer of gasless jobs on this chain, when RELAYER_ENABLED is on. */
  relayer?: RelayerHealth;
}

export interface ChainRunnerOptions {
  chainId: number;
  /** The setting naming the chain's node (RPC_URL, CHAIN_<id>_RPC_URL): every line about an unreachable node names it. */
  rpcUrlSetting: string;
  node: ChainNode;
  rotator: ChainRotator;
  /** Carries `chainId` on every line. */
  logger: WorkerLogger;
  /** Backoff while the node does not answer. */
  retry: { initialDelayMs: number; maxDelayMs: number };
  /** How often a running chain's node is asked its chain id, so /health tells an outage (and its end). */
  probeIntervalMs: number;
  /** `--once` gives an unreachable node this many attempts before counting the chain as failed. */
  singleRunAttempts?: number;
  /** Runs after each successful contact with the node (start, probes): the gas balance check. Never awaited. */
  afterNodeAnswered?: () => Promise<void>;
  /** Relays the mailbox's jobs once the chain runs (RELAYER_ENABLED); not part of `--once`. */
  relayer?: ChainRelayer;
}

/** Errors no retry can fix (a node of another chain, a refused API key): each says so itself. */
function isFatal(error: unknown): boolean {
  return !isRetryable(error);
}

const DEFAULT_SINGLE_RUN_ATTEMPTS = 5;

/**
 * Runs one chain's rotations, isolated from the other chains: its node is reached with backoff in the background,
 * so a node that is down never holds up the start (or the rotations) of another chain; once the node answers with
 * the right chain id, the chain's rotator starts. A fatal error (node of another chain, refused API key) found at the
 * first attempt fails the start; found later, it stops this chain only, and /health says so.
 */
export class ChainRunner {
  private state: ChainState = "connecting";
  private reachable = false;
  private lastNodeError?: { time: string; message: string };
  private readonly stopping = new AbortController();
  private background?: Promise<void>;
  private probeTimer?: NodeJS.Timeout;
  private startSettled = false;

  constructor(private readonly options: ChainRunnerOptions) {}

  get chainId(): number {
    return this.options.chainId;
  }

  get rotator(): ChainRotator {
    return this.options.rotator;
  }

  /**
   * Resolves once the chain runs, or once its node's first answer failed (then retried in the background). Rejects
   * on a fatal error at the first attempt.
   */
  async start(): Promise<void> {
    let firstAttemptFailed!: () => void;
    const failedOnce = new Promise<void>((resolve) => (firstAttemptFailed = resolve));
    const run = retryWithBackoff(
      `reaching the chain's node at ${this.options.rpcUrlSetting}`,
      async () => {
        try {
          await this.verifyNode();
        } catch (error) {
          if (!isFatal(error)) firstAttemptFailed();
          throw error;
        }
      },
      this.options.logger,
      { ...this.options.retry, isFatal, signal: this.stopping.signal },
    ).then(async () => {
      await this.options.rotator.start();
      if (this.stopping.signal.aborted) return;
      this.state = "running";
      this.startProbing();
      this.options.relayer?.start();
    });
    this.background = run.catch((error: unknown) => this.failed(error));
    try {
      await Promise.race([run, failedOnce]);
    } finally {
      this.startSettled = true;
    }
    if (this.state === "connecting")
      this.options.logger.warn(
        `chain's node unreachable: check the node and ${this.options.rpcUrlSetting}; retrying in the background, other chains go on`,
      );
  }

  /** `--once` on this chain: reach the node (a few attempts), then one rotation of every raffle (or of `contract`). */
  async runOnce(contract?: string): Promise<SingleRunResult> {
    let attempts = 0;
    const maxAttempts = this.options.singleRunAttempts ?? DEFAULT_SINGLE_RUN_ATTEMPTS;
    try {
      await retryWithBackoff(`reaching the chain's node at ${this.options.rpcUrlSetting}`, () => this.verifyNode(), this.options.logger, {
        ...this.options.retry,
        isFatal: (error) => isFatal(error) || (attempts += 1) >= maxAttempts,
        signal: this.stopping.signal,
      });
    } catch (error) {
      if (isFatal(error)) throw error;
      this.options.logger.error(`chain's node unreachable: check the node and ${this.options.rpcUrlSetting}; this chain's run failed`, {
        error: errorMessage(error),
        attempts,
      });
      return { ok: false, found: true };
    }
    return this.options.rotator.runOnce(contract);
  }

  health(): ChainHealth {
    const report = this.options.rotator.report();
    const errors = [report.lastError, this.lastNodeError].filter((error) => error !== undefined);
    return {
      chainId: this.options.chainId,
      state: this.state,
      reachable: this.reachable,
      raffles: report.raffles,
      lastRefresh: report.lastRefresh,
      lastRotation: report.lastRotation,
      // ISO 8601 UTC times sort as strings.
      lastError: errors.sort((a, b) => a.time.localeCompare(b.time)).at(-1),
      ...(this.options.relayer ? { relayer: this.options.relayer.health() } : {}),
    };
  }

  async idle(): Promise<void> {
    await this.options.rotator.idle();
  }

  get relayer(): ChainRelayer | undefined {
    return this.options.relayer;
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    clearInterval(this.probeTimer);
    await this.options.rotator.stop();
    await this.options.relayer?.stop();
    await this.background;
    if (this.state !== "failed") this.state = "stopped";
    this.options.node.destroy();
  }

  private async verifyNode(): Promise<void> {
    try {
      await this.options.node.verifyChainId();
    } catch (error) {
      // A probe still in flight when stop() destroys the node fails with "provider destroyed": not the node's fault.
      if (!this.stopping.signal.aborted) this.nodeFailed(error);
      throw error;
    }
    if (!this.reachable && this.lastNodeError) this.options.logger.info("chain's node reachable again");
    this.reachable = true;
    this.options.afterNodeAnswered?.().catch(() => undefined);
  }

  private nodeFailed(error: unknown): void {
    if (this.reachable)
      this.options.logger.warn(`chain's node unreachable: check the node and ${this.options.rpcUrlSetting}`, { error: errorMessage(error) });
    this.reachable = false;
    this.lastNodeError = { time: new Date().toISOString(), message: errorMessage(error) };
  }

  private startProbing(): void {
    this.probeTimer = setInterval(() => {
      this.verifyNode().catch((error: unknown) => {
        if (error instanceof ConfigError) this.options.logger.error("chain's node now serves another chain", { error: errorMessage(error) });
      });
    }, this.options.probeIntervalMs);
  }

  /** A fatal error of this chain: logged here when it came after the start (the caller reports one found at start). */
  private failed(error: unknown): void {
    if (this.stopping.signal.aborted) return;
    this.state = "failed";
    this.lastNodeError = { time: new Date().toISOString(), message: errorMessage(error) };
    if (this.startSettled)
      this.options.logger.error("chain stopped: its configuration must be fixed; other chains go on", { error: errorMessage(error) });
  }
}
