/**
 * The check of a Raffle draw, on its own: pure computation over the draw rule (libs/chain's, the one the contract's
 * `DrawRule` is tested against), so a browser page can verify a draw without the chain client (`readDrawRecord`, in
 * draw.ts, reads a record from the chain with ethers).
 */
import { drawWinners, type Integer } from "@raffle/chain/rules";

export { drawWinners, type Integer };

/**
 * What a round's draw is checked from: the recorded VRF word, the round's ticket ids (`ticketCount` consecutive ids
 * from `firstTicketId`) and its winners, first position first. The winners are those of `GET /rounds/:id` (any order;
 * `position` orders them when given) or of the chain's `getWinners`; `readDrawRecord` reads the whole record from the
 * chain.
 */
export interface DrawRecord {
  randomWord: Integer;
  firstTicketId: Integer;
  ticketCount: Integer;
  winners: ReadonlyArray<{ ticketId: Integer; position?: number }>;
  /**
   * Whether the raffle is one of the platform's (its factory names a merchant for it), when known: `readDrawRecord`
   * sets it when given the platform's factory address. A look-alike raffle's draw can follow the rule and still be
   * worthless: its own "factory" answers its draws as it likes.
   */
  genuine?: boolean;
}

export interface DrawVerification {
  /** True when the recorded winners are exactly the ones the word draws, position by position. */
  valid: boolean;
  /** The winners the draw rule gives, first position first. */
  expected: bigint[];
  /** The winners as recorded, first position first. */
  recorded: bigint[];
  /** The record's `genuine` when it has one: false for a raffle the platform's factory does not list (then `valid`
   * is false too, whatever its winners). */
  genuine?: boolean;
}

/**
 * Recomputes a drawn round's winners from its recorded word and tickets, and compares them with the recorded ones:
 * anyone can check that the winners follow from the VRF word alone. Pass a round of the API (with its
 * `firstTicketId`, which `readDrawRecord` reads from the chain if the resource lacks it) or a record read from chain.
 * A record read with the platform's factory address also says whether the raffle is the platform's (`genuine`).
 */
export function verifyDraw(round: DrawRecord): DrawVerification {
  const genuine = round.genuine === undefined ? {} : { genuine: round.genuine };
  const ordered = round.winners.every((winner) => winner.position !== undefined)
    ? [...round.winners].sort((a, b) => a.position! - b.position!)
    : [...round.winners];
  const recorded = ordered.map((winner) => BigInt(winner.ticketId));
  if (recorded.length === 0) return { valid: false, expected: [], recorded, ...genuine };
  const expected = drawWinners(round.randomWord, round.firstTicketId, round.ticketCount, recorded.length);
  const valid = round.genuine !== false && expected.every((ticketId, index) => ticketId === recorded[index]);
  return { valid, expected, recorded, ...genuine };
}
