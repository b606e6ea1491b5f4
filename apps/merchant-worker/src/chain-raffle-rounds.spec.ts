import { Wallet } from "ethers";
import { RaffleFactory__factory, Raffle__factory } from "@raffle/chain";
import { isRetryable } from "@raffle/config";

import { decodeRaffleRejection } from "./chain-raffle-rounds";
import { CallRejectedError, MissingRoleError } from "./errors";

const raffle = Wallet.createRandom().address;
const caller = Wallet.createRandom().address;
const reverted = (data: string) => Object.assign(new Error("execution reverted"), { data });

describe("decodeRaffleRejection", () => {
  it("reads RoundNotOverdue (endRound by a key without ROUND_MANAGER_ROLE) as a missing role of the caller", () => {
    const data = Raffle__factory.createInterface().encodeErrorResult("RoundNotOverdue", [3n, 1_700_000_000n]);
    const decoded = decodeRaffleRejection("endRound", raffle, reverted(data), caller);
    expect(decoded).toBeInstanceOf(MissingRoleError);
    expect((decoded as MissingRoleError).message).toBe(`merchant key ${caller} lacks ROUND_MANAGER_ROLE on raffle ${raffle}`);
    expect(isRetryable(decoded)).toBe(false);
  });

  it("decodes the factory's DrawBudgetExhausted, bubbled up through endRound, as a passing refusal", () => {
    const merchant = Wallet.createRandom().address;
    const data = RaffleFactory__factory.createInterface().encodeErrorResult("DrawBudgetExhausted", [merchant, 288n, 86_400n]);
    const decoded = decodeRaffleRejection("endRound", raffle, reverted(data), caller);
    expect(decoded).toBeInstanceOf(CallRejectedError);
    expect((decoded as CallRejectedError).reason).toBe("DrawBudgetExhausted");
    expect(isRetryable(decoded)).toBe(true);
  });

  it("returns an error without revert data as it is", () => {
    const error = new Error("socket hang up");
    expect(decodeRaffleRejection("endRound", raffle, error, caller)).toBe(error);
  });
});
