import { Contract, type ContractRunner } from "ethers";
import { RAFFLE_CLIENT_ABI } from "@raffle/chain";

import type { DrawRecord, Integer } from "./draw-rule";

export { drawWinners, verifyDraw, type DrawRecord, type DrawVerification } from "./draw-rule";

/** The draw record of round `roundId` as the Raffle at `raffle` stores it (`getRound` and `getWinners`). */
export async function readDrawRecord(raffle: string, roundId: Integer, runner: ContractRunner): Promise<DrawRecord> {
  const contract = new Contract(raffle, RAFFLE_CLIENT_ABI, runner);
  const [round, winners] = await Promise.all([contract.getRound(BigInt(roundId)), contract.getWinners(BigInt(roundId))]);
  return {
    randomWord: round.randomWord as bigint,
    firstTicketId: round.firstTicketId as bigint,
    ticketCount: round.ticketCount as bigint,
    winners: (winners as Array<{ ticketId: bigint }>).map((winner, position) => ({ ticketId: winner.ticketId, position })),
  };
}
