import { keccak256, toBeHex } from "ethers";

import type { Integer } from "./integer";

const WORD_LIMIT = 1n << 256n;

/**
 * The Raffle's draw rule (contracts/src/libraries/DrawRule.sol; README, "How winners are drawn"): h_0 is the VRF word
 * and h_(k+1) = keccak256 of h_k as a 32-byte big-endian word; candidate k is `firstTicketId + h_k mod ticketCount`.
 * Positions take the candidates in order, first position first, skipping a ticket already drawn, until every position
 * has one. A round that sold a single ticket to a single winner is drawn with word 0, which gives that ticket too.
 * Pure computation over ethers' keccak256, so a browser page can verify a draw without a chain client; vectors.json
 * holds the cases the contract and this function are both checked against.
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
