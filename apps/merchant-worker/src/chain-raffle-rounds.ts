import { ZeroHash, id, type Wallet } from "ethers";
import { RaffleFactory__factory, Raffle__factory, RoundStatus, assetFromChain, type Raffle } from "@raffle/chain";

import { CallRejectedError, MissingRoleError } from "./errors";
import type { WorkerLogger } from "./logger";
import type { RaffleRoundsPort, RoundState, SentTransaction } from "./rotation";
import type { TxSender } from "./tx-sender";

const raffleInterface = Raffle__factory.createInterface();
/** `endRound` asks the platform's factory for a draw, whose refusals (`DrawBudgetExhausted`) bubble up through it. */
const factoryInterface = RaffleFactory__factory.createInterface();

/** Names of the Raffle's AccessControl roles, for readable reports. */
const ROLE_NAMES: Record<string, string> = {
  [id("ROUND_MANAGER_ROLE")]: "ROUND_MANAGER_ROLE",
  [ZeroHash]: "DEFAULT_ADMIN_ROLE",
};

/** Revert data carried by an ethers error from `staticCall` or `estimateGas`, if any. */
function revertData(error: unknown): string | undefined {
  const data = (error as { data?: unknown } | null)?.data;
  return typeof data === "string" && data.length >= 10 ? data : undefined;
}

/**
 * Turns a revert of `call` into a typed error: `MissingRoleError` for OpenZeppelin's
 * `AccessControlUnauthorizedAccount(account, role)` and for `RoundNotOverdue` (what `endRound` answers a key without
 * ROUND_MANAGER_ROLE while the round is young), `CallRejectedError` for the Raffle's and the factory's own errors.
 * Anything that carries no decodable revert (a network failure) is returned as it is.
 */
export function decodeRaffleRejection(call: string, raffle: string, error: unknown, caller?: string): unknown {
  const data = revertData(error);
  if (!data) return error;
  const parsed = raffleInterface.parseError(data) ?? factoryInterface.parseError(data);
  if (!parsed) return error;
  if (parsed.name === "AccessControlUnauthorizedAccount") {
    const [account, role] = parsed.args as unknown as [string, string];
    return new MissingRoleError(account, ROLE_NAMES[role] ?? role, raffle);
  }
  if (parsed.name === "RoundNotOverdue" && caller !== undefined) {
    return new MissingRoleError(caller, "ROUND_MANAGER_ROLE", raffle);
  }
  return new CallRejectedError(call, parsed.name, [...parsed.args]);
}

/** `RaffleRoundsPort` over a deployed Raffle, signing with the merchant wallet. */
export class ChainRaffleRounds implements RaffleRoundsPort {
  private readonly contract: Raffle;
  private readonly caller: string;

  constructor(
    readonly address: string,
    wallet: Wallet,
    private readonly sender: TxSender,
    private readonly logger: WorkerLogger,
  ) {
    this.contract = Raffle__factory.connect(address, wallet);
    this.caller = wallet.address;
  }

  async readRound(): Promise<RoundState> {
    const info = await this.contract.getCurrentRoundInfo();
    return {
      roundId: info.roundId,
      startTimestamp: info.startTimestamp,
      endTimestamp: info.endTimestamp,
      maxTicket: info.maxTicket,
      // ethers returns read-only Results that it cannot encode again: copy before startRound.
      ticketAsset: assetFromChain(info.ticketAsset),
      acceptedAsset: assetFromChain(info.acceptedAsset),
    };
  }

  async simulateEndRound(): Promise<void> {
    await this.rejectionsDecoded("endRound", () => this.contract.endRound.staticCall());
  }

  endRound(): Promise<SentTransaction> {
    return this.send("endRound", raffleInterface.encodeFunctionData("endRound"));
  }

  async simulateStartRound(round: RoundState): Promise<void> {
    await this.rejectionsDecoded("startRound", () => this.contract.startRound.staticCall(round.ticketAsset, round.acceptedAsset, round.maxTicket));
  }

  startRound(round: RoundState): Promise<SentTransaction> {
    // Spec 4.8: ticket asset, accepted asset, ticket cap, in that order.
    return this.send("startRound", raffleInterface.encodeFunctionData("startRound", [round.ticketAsset, round.acceptedAsset, round.maxTicket]));
  }

  async roundsAwaitingWinners(roundIds: bigint[]): Promise<bigint[]> {
    const rounds = await Promise.all(roundIds.map((roundId) => this.contract.getRound(roundId)));
    return roundIds.filter((_, index) => Number(rounds[index].status) === RoundStatus.WinnersPending);
  }

  async simulateFinishDraw(roundId: bigint): Promise<void> {
    await this.rejectionsDecoded("finishDraw", () => this.contract.finishDraw.staticCall(roundId));
  }

  finishDraw(roundId: bigint): Promise<SentTransaction> {
    return this.send("finishDraw", raffleInterface.encodeFunctionData("finishDraw", [roundId]));
  }

  private send(call: string, data: string): Promise<SentTransaction> {
    return this.rejectionsDecoded(call, () => this.sender.send({ to: this.address, data, label: call }, this.logger));
  }

  private async rejectionsDecoded<T>(call: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw decodeRaffleRejection(call, this.address, error, this.caller);
    }
  }
}
