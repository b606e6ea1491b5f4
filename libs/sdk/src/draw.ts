import { Contract, ZeroAddress, type ContractRunner } from "ethers";
import { RAFFLE_CLIENT_ABI, RAFFLE_FACTORY_CLIENT_ABI } from "@raffle/chain";

import type { DrawRecord, Integer } from "./draw-rule";

export { drawWinners, verifyDraw, type DrawRecord, type DrawVerification } from "./draw-rule";

/**
 * Whether `raffle` is one of the platform's: the platform's `factory` (its address from the platform's deployment,
 * never the raffle's own `factory()`) deployed it and names its merchant. Anyone can deploy the genuine raffle
 * bytecode with a "factory" of their own; such a look-alike is not the platform's.
 */
export async function isPlatformRaffle(raffle: string, factory: string, runner: ContractRunner): Promise<boolean> {
  const merchant = (await new Contract(factory, RAFFLE_FACTORY_CLIENT_ABI, runner).merchantOf(raffle)) as string;
  return merchant !== ZeroAddress;
}

/**
 * The draw record of round `roundId` as the Raffle at `raffle` stores it (`getRound` and `getWinners`). Given the
 * platform's factory address, it also says whether the raffle is the platform's (`genuine`), which `verifyDraw`
 * then requires.
 */
export async function readDrawRecord(
  raffle: string,
  roundId: Integer,
  runner: ContractRunner,
  options: { factory?: string } = {},
): Promise<DrawRecord> {
  const contract = new Contract(raffle, RAFFLE_CLIENT_ABI, runner);
  const [round, winners, genuine] = await Promise.all([
    contract.getRound(BigInt(roundId)),
    contract.getWinners(BigInt(roundId)),
    options.factory === undefined ? undefined : isPlatformRaffle(raffle, options.factory, runner),
  ]);
  return {
    ...(genuine === undefined ? {} : { genuine }),
    randomWord: round.randomWord as bigint,
    firstTicketId: round.firstTicketId as bigint,
    ticketCount: round.ticketCount as bigint,
    winners: (winners as Array<{ ticketId: bigint }>).map((winner, position) => ({ ticketId: winner.ticketId, position })),
  };
}
