/**
 * The Raffle's draw rule and its check, on their own: pure computation over ethers' keccak256, so a browser page can
 * verify a draw without the chain client (`readDrawRecord`, in draw.ts, reads a record from the chain with ethers).
 */
import { keccak256, toBeHex } from "ethers";

/** A value the API writes as a decimal string and the chain answers as a bigint. */
export type Integer = string | number | bigint;

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

const WORD_LIMIT = 1n << 256n;

/**
 * The Raffle's draw rule (README, "How winners are drawn"): h_0 is the VRF word and h_(k+1) = keccak256 of h_k as a
 * 32-byte big-endian word; candidate k is `firstTicketId + h_k mod ticketCount`. Positions take the candidates in
 * order, first position first, skipping a ticket already drawn, until every position has one. A round that sold a
 * single ticket to a single winner is drawn with word 0, which gives that ticket too.
 */
export function drawWinners(randomWord: Integer, firstTicketId: Integer, ticketCount: Integer, winnersCount: number): bigint[] {
  let hash = BigInt(randomWord);
  const first = BigInt(firstTicketId);
  const count = BigInt(ticketCount);
  if (hash < 0n || hash >= WORD_LIMIT) throw new RangeError(`the random word is not a uint256: ${randomWord}`);
  if (!Number.isSafeInteger(winnersCount) || winnersCount < 1) throw new RangeError(`a draw has 1 or more winners: ${winnersCount}`);
  // The contract refunds a round with fewer tickets than winners instead of drawing it; here it would never end.
  if (count < BigInt(winnersCount)) throw new RangeError(`${ticketCount} tickets cannot give ${winnersCount} distinct winners`);
  const winners: bigint[] = [];
  while (winners.length < winnersCount) {
    const candidate = first + (hash % count);
    hash = BigInt(keccak256(toBeHex(hash, 32)));
    if (!winners.includes(candidate)) winners.push(candidate);
  }
  return winners;
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
