import type { AssetStruct } from "@raffle/chain";

import { CallRejectedError } from "./errors";
import { errorMessage, type WorkerLogger } from "./logger";

/** `getCurrentRoundInfo` as plain, writable values. */
export interface RoundState {
  roundId: bigint;
  startTimestamp: bigint;
  endTimestamp: bigint;
  maxTicket: bigint;
  ticketAsset: AssetStruct;
  acceptedAsset: AssetStruct;
}

export interface SentTransaction {
  hash: string;
  blockNumber: number;
}

/**
 * The round functions of one raffle, as the rotation needs them. Simulations throw `CallRejectedError` (or
 * `MissingRoleError`) when the contract would revert; sends resolve once the receipt has its confirmations.
 */
export interface RaffleRoundsPort {
  readonly address: string;
  readRound(): Promise<RoundState>;
  simulateEndRound(): Promise<void>;
  endRound(): Promise<SentTransaction>;
  simulateStartRound(round: RoundState): Promise<void>;
  startRound(round: RoundState): Promise<SentTransaction>;
  /** Rounds among `roundIds` whose VRF word arrived but whose winners are not drawn yet (status WinnersPending). */
  roundsAwaitingWinners(roundIds: bigint[]): Promise<bigint[]>;
  simulateFinishDraw(roundId: bigint): Promise<void>;
  finishDraw(roundId: bigint): Promise<SentTransaction>;
}

/** Fault injection for tests: a hook that throws acts like a crash at that point. */
export interface RotationHooks {
  afterEndRound?(tx: SentTransaction): void | Promise<void>;
}

export interface RotationOptions {
  logger: WorkerLogger;
  hooks?: RotationHooks;
  /**
   * Second of the schedule tick that started this run. An active round that started at or after it was already
   * rotated for this tick (by another worker instance) and is left alone. Manual runs (`--once`) pass none.
   */
  tickSecond?: number;
  now?: () => number;
  /** Receives the hash of each transaction as soon as it is mined, so a run that fails later still reports them. */
  txHashes?: string[];
}

export type RotationStatus =
  /** This run sent startRound (and endRound if the round was still active). */
  | "rotated"
  /** The raffle has no round yet: nothing to rotate. */
  | "noRound"
  /** Another instance finished the rotation while this run was under way. */
  | "rotatedElsewhere"
  /** The current round started at or after this tick: another instance rotated it already. */
  | "alreadyRotatedThisTick";

export interface RotationOutcome {
  status: RotationStatus;
  /** The round found at the start of the run. */
  roundId: bigint;
  /** The round started by this run. */
  newRoundId?: bigint;
  txHashes: string[];
}

export const FIRST_ROUND_HINT =
  "raffle has no round yet; start the first round with `npm run deploy:raffle` or by calling startRound(ticket, price, maxTicket) with the merchant key";

/**
 * Spec §1 "Round automation flow": read the round; none → nothing; active → endRound; then startRound with the
 * round's ticket asset, accepted asset and ticket cap. The chain is read again before each step and every call is
 * simulated first, so a re-run after a crash at any point finishes the rotation without repeating a step, and a
 * concurrent run of another instance ends as a no-op. A run only ever rotates the round it found at its start.
 */
export async function rotateRound(port: RaffleRoundsPort, options: RotationOptions): Promise<RotationOutcome> {
  let round = await port.readRound();
  const target = round.roundId;
  const txHashes = options.txHashes ?? [];
  if (target === 0n) {
    options.logger.info(FIRST_ROUND_HINT);
    return { status: "noRound", roundId: 0n, txHashes };
  }
  const log = options.logger.child({ roundId: target.toString() });
  const rotatedElsewhere = (): RotationOutcome => {
    log.info("another instance finished this rotation");
    return { status: "rotatedElsewhere", roundId: target, txHashes };
  };

  if (round.endTimestamp === 0n) {
    if (startedThisTick(round, options)) {
      log.info("round started at or after this tick: already rotated by another instance", { tickSecond: options.tickSecond });
      return { status: "alreadyRotatedThisTick", roundId: target, txHashes };
    }
    if (await simulationPasses(() => port.simulateEndRound(), "NoActiveRound", log)) {
      let tx: SentTransaction | undefined;
      try {
        tx = await port.endRound();
      } catch (error) {
        // A reverted or displaced transaction is fine if the round got ended anyway (by another instance).
        round = await port.readRound();
        if (round.roundId === target && round.endTimestamp === 0n) throw error;
        log.info("endRound did not go through, but the round is ended", { error: errorMessage(error) });
      }
      if (tx) {
        txHashes.push(tx.hash);
        log.info("round ended", { txHash: tx.hash, blockNumber: tx.blockNumber });
        await options.hooks?.afterEndRound?.(tx);
      }
    }
    round = await port.readRound();
    if (round.roundId !== target) return rotatedElsewhere();
    if (round.endTimestamp === 0n) throw new Error(`round ${target} is still active after endRound`);
  }

  if (!(await simulationPasses(() => port.simulateStartRound(round), "RoundStillActive", log))) {
    if ((await port.readRound()).roundId > target) return rotatedElsewhere();
    throw new Error(`startRound rejected with RoundStillActive but round ${target} is still current`);
  }
  let tx: SentTransaction;
  try {
    tx = await port.startRound(round);
  } catch (error) {
    if ((await port.readRound()).roundId > target) return rotatedElsewhere();
    throw error;
  }
  txHashes.push(tx.hash);
  const newRoundId = target + 1n;
  log.info("round started", { txHash: tx.hash, blockNumber: tx.blockNumber, newRoundId: newRoundId.toString() });
  return { status: "rotated", roundId: target, newRoundId, txHashes };
}

/**
 * True when the call may be sent; false when the contract rejects it with `doneElsewhere`, the error that means
 * the step already happened. Any other rejection (a missing role included) is thrown.
 */
async function simulationPasses(simulate: () => Promise<void>, doneElsewhere: string, log: WorkerLogger): Promise<boolean> {
  try {
    await simulate();
    return true;
  } catch (error) {
    if (error instanceof CallRejectedError && error.reason === doneElsewhere) {
      log.info(`${error.call} would revert with ${doneElsewhere}: step already done elsewhere`);
      return false;
    }
    throw error;
  }
}

function startedThisTick(round: RoundState, options: RotationOptions): boolean {
  if (options.tickSecond === undefined) return false;
  const nowSecond = Math.floor((options.now?.() ?? Date.now()) / 1_000);
  const started = Number(round.startTimestamp);
  // A round that starts "in the future" means the chain clock runs ahead of ours (a local dev chain that mines
  // several blocks a second): the comparison says nothing there, and the run goes on.
  if (started > nowSecond) return false;
  return started >= options.tickSecond;
}

/**
 * How many of a raffle's latest rounds each run looks at for a draw left to finish. The VRF answer of a round ended at
 * one tick normally arrives before the next, so the round before the current one is the usual case; the rest covers
 * the ticks missed while the worker was down.
 */
export const FINISH_DRAW_LOOKBACK = 5n;

/**
 * Raffle v2: a VRF callback that could not afford drawing every winner records the word and leaves the round in
 * WinnersPending, to be finished by anyone with `finishDraw(roundId)` (the winners follow from the word alone, so
 * whoever calls it changes nothing). Each run finishes those among the raffle's latest rounds. A failure here is
 * logged and never stops the rotation; the next run tries again.
 */
export async function finishPendingDraws(port: RaffleRoundsPort, currentRoundId: bigint, options: RotationOptions): Promise<bigint[]> {
  if (currentRoundId === 0n) return [];
  const first = currentRoundId > FINISH_DRAW_LOOKBACK ? currentRoundId - FINISH_DRAW_LOOKBACK + 1n : 1n;
  const candidates: bigint[] = [];
  for (let roundId = first; roundId <= currentRoundId; roundId += 1n) candidates.push(roundId);
  const finished: bigint[] = [];
  let pending: bigint[];
  try {
    pending = await port.roundsAwaitingWinners(candidates);
  } catch (error) {
    options.logger.warn("could not read which rounds await their winners; retried at the next run", { error: errorMessage(error) });
    return finished;
  }
  for (const roundId of pending) {
    const log = options.logger.child({ roundId: roundId.toString() });
    try {
      if (!(await simulationPasses(() => port.simulateFinishDraw(roundId), "UnexpectedRoundStatus", log))) continue;
      const tx = await port.finishDraw(roundId);
      options.txHashes?.push(tx.hash);
      finished.push(roundId);
      log.info("winners drawn with finishDraw", { txHash: tx.hash, blockNumber: tx.blockNumber });
    } catch (error) {
      log.warn("finishDraw failed; retried at the next run", { error: errorMessage(error) });
    }
  }
  return finished;
}
