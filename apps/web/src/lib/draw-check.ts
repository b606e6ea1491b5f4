import type { Address } from "viem";
import type { Config } from "wagmi";
import { readContract } from "wagmi/actions";

import { verifyDraw, type DrawRecord } from "../../../../libs/sdk/src/draw-rule";
import { RAFFLE_ABI } from "./abi";

/**
 * A round's draw record as its Raffle stores it (`getRound` and `getWinners`), read through viem and the chain's
 * configured RPC: the same record as the SDK's `readDrawRecord`, which needs an ethers runner this page does not ship.
 */
export async function readDrawRecordFromChain(config: Config, chainId: number, raffle: Address, roundId: bigint): Promise<DrawRecord> {
  const [round, winners] = await Promise.all([
    readContract(config, { chainId, address: raffle, abi: RAFFLE_ABI, functionName: "getRound", args: [roundId] }),
    readContract(config, { chainId, address: raffle, abi: RAFFLE_ABI, functionName: "getWinners", args: [roundId] }),
  ]);
  return {
    randomWord: round.randomWord,
    firstTicketId: round.firstTicketId,
    ticketCount: round.ticketCount,
    winners: winners.map((winner, position) => ({ ticketId: winner.ticketId, position })),
  };
}

export interface DrawCheck {
  agrees: boolean;
  /** What a player reads: whether the draw agrees with the winners shown, and which differ if not. */
  sentence: string;
}

/** "1st prize", "2nd prize", …: a winner position (0 = first) as people say it. */
export function prizeName(position: number): string {
  const n = position + 1;
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? "th" : (({ 1: "st", 2: "nd", 3: "rd" } as Record<number, string>)[n % 10] ?? "th");
  return `${n}${suffix} prize`;
}

function ticketList(ids: bigint[]): string {
  const names = ids.map((id) => `#${id}`);
  return names.length <= 1 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/**
 * Runs the SDK's `verifyDraw` on the record read from the chain, and compares the winners its random word gives with
 * the winners the page shows (those the API indexed), position by position.
 */
export function checkDraw(
  record: DrawRecord,
  shown: { randomWord: string | null; winners: ReadonlyArray<{ position: number; ticketId: string }> },
): DrawCheck {
  let verification: ReturnType<typeof verifyDraw>;
  try {
    verification = verifyDraw(record);
  } catch {
    return { agrees: false, sentence: "The chain holds no complete draw for this round, so it cannot be checked." };
  }
  if (verification.recorded.length === 0)
    return { agrees: false, sentence: "The chain holds no winners for this round yet, so there is nothing to check." };
  const { expected } = verification;
  const shownIds = [...shown.winners].sort((a, b) => a.position - b.position).map((winner) => BigInt(winner.ticketId));
  const differences: string[] = [];
  for (let position = 0; position < Math.max(expected.length, shownIds.length); position += 1) {
    const drawn = expected[position];
    const listed = shownIds[position];
    if (drawn === listed) continue;
    if (listed === undefined) differences.push(`the ${prizeName(position)} is not shown, though the word picks ticket #${drawn}`);
    else if (drawn === undefined) differences.push(`the ${prizeName(position)} shows ticket #${listed}, which the chain did not draw`);
    else differences.push(`the ${prizeName(position)} shows ticket #${listed}, but the word picks ticket #${drawn}`);
  }
  if (shown.randomWord !== null && BigInt(shown.randomWord) !== BigInt(record.randomWord)) {
    differences.push("the random word shown is not the one the chain recorded");
  }
  if (!verification.valid) differences.push("the chain's own winners do not follow from its random word");
  if (differences.length === 0) {
    const picks = expected.length === 1 ? `ticket ${ticketList(expected)}, the winner shown` : `tickets ${ticketList(expected)}, the winners shown`;
    return { agrees: true, sentence: `The draw checks out: the random word recorded on chain picks ${picks}.` };
  }
  return { agrees: false, sentence: `The draw does not agree with what is shown: ${differences.join("; ")}.` };
}
