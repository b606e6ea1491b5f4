import { ZeroAddress } from "ethers";
import { TokenType } from "@raffle/chain";

import { CallRejectedError, MissingRoleError } from "../../src/errors";
import type { RaffleRoundsPort, RoundState, SentTransaction } from "../../src/rotation";

/**
 * An in-memory Raffle with the contract's round rules (startRound reverts while a round is active, endRound
 * without one), shared by any number of ports, each acting as one worker instance.
 */
export class FakeRaffle {
  roundId = 0n;
  active = false;
  startTimestamp = 0n;
  endTimestamp = 0n;
  clock = 1_000n;
  ended: bigint[] = [];
  started: bigint[] = [];
  roundManagers = new Set<string>(["merchant"]);
  /** Rounds whose VRF word arrived and whose winners wait for `finishDraw` (anyone may call it). */
  awaitingWinners = new Set<bigint>();
  finishedDraws: bigint[] = [];
  private nextTx = 0;

  constructor(readonly address = "0x00000000000000000000000000000000000000aa") {}

  startFirstRound(): void {
    this.start();
  }

  read(): RoundState {
    if (this.roundId === 0n) {
      const none = { tokenType: 0, token: ZeroAddress, tokenId: 0n, amount: 0n };
      return { roundId: 0n, startTimestamp: 0n, endTimestamp: 0n, maxTicket: 0n, ticketAsset: none, acceptedAsset: none };
    }
    return {
      roundId: this.roundId,
      startTimestamp: this.startTimestamp,
      endTimestamp: this.active ? 0n : this.endTimestamp,
      maxTicket: 100n,
      ticketAsset: { tokenType: TokenType.ERC721, token: "0x00000000000000000000000000000000000000bb", tokenId: 0n, amount: 1n },
      acceptedAsset: { tokenType: TokenType.NATIVE, token: ZeroAddress, tokenId: 0n, amount: 10n },
    };
  }

  checkEnd(caller: string): void {
    this.checkRole(caller);
    if (!this.active) throw new CallRejectedError("endRound", "NoActiveRound", []);
  }

  checkStart(caller: string): void {
    this.checkRole(caller);
    if (this.active) throw new CallRejectedError("startRound", "RoundStillActive", [this.roundId]);
  }

  end(caller: string): SentTransaction {
    this.checkEnd(caller);
    this.active = false;
    this.endTimestamp = this.tick();
    this.ended.push(this.roundId);
    return this.tx();
  }

  start(caller = "merchant"): SentTransaction {
    this.checkStart(caller);
    this.roundId += 1n;
    this.active = true;
    this.startTimestamp = this.tick();
    this.endTimestamp = 0n;
    this.started.push(this.roundId);
    return this.tx();
  }

  checkFinishDraw(roundId: bigint): void {
    if (!this.awaitingWinners.has(roundId)) throw new CallRejectedError("finishDraw", "UnexpectedRoundStatus", [roundId, 3]);
  }

  finishDraw(roundId: bigint): SentTransaction {
    this.checkFinishDraw(roundId);
    this.awaitingWinners.delete(roundId);
    this.finishedDraws.push(roundId);
    return this.tx();
  }

  port(caller = "merchant", overrides: Partial<RaffleRoundsPort> = {}): RaffleRoundsPort & { calls: string[] } {
    const calls: string[] = [];
    const port: RaffleRoundsPort & { calls: string[] } = {
      address: this.address,
      calls,
      readRound: async () => (calls.push("readRound"), this.read()),
      simulateEndRound: async () => (calls.push("simulateEndRound"), this.checkEnd(caller)),
      endRound: async () => (calls.push("endRound"), this.end(caller)),
      simulateStartRound: async () => (calls.push("simulateStartRound"), this.checkStart(caller)),
      startRound: async () => (calls.push("startRound"), this.start(caller)),
      roundsAwaitingWinners: async (roundIds) => (
        calls.push("roundsAwaitingWinners"),
        roundIds.filter((roundId) => this.awaitingWinners.has(roundId))
      ),
      simulateFinishDraw: async (roundId) => (calls.push(`simulateFinishDraw ${roundId}`), this.checkFinishDraw(roundId)),
      finishDraw: async (roundId) => (calls.push(`finishDraw ${roundId}`), this.finishDraw(roundId)),
      ...overrides,
    };
    return port;
  }

  private checkRole(caller: string): void {
    if (!this.roundManagers.has(caller)) throw new MissingRoleError(caller, "ROUND_MANAGER_ROLE", this.address);
  }

  private tick(): bigint {
    this.clock += 1n;
    return this.clock;
  }

  private tx(): SentTransaction {
    this.nextTx += 1;
    return { hash: `0x${this.nextTx.toString(16).padStart(64, "0")}`, blockNumber: this.nextTx };
  }
}
