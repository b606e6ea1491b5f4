import { AbiCoder, keccak256 } from "ethers";

import { RULE_VECTORS } from "@raffle/chain/rules/vectors";

import { drawWinners, verifyDraw } from "./draw";

/** h_(k+1) as the contract computes it, through the ABI encoder rather than the SDK's own 32-byte conversion. */
const rehash = (word: bigint) => BigInt(keccak256(AbiCoder.defaultAbiCoder().encode(["uint256"], [word])));

describe("drawWinners (the Raffle's draw rule)", () => {
  it("takes the first candidate from the word itself: first ticket + word mod ticket count", () => {
    expect(drawWinners(7n, 100n, 10n, 1)).toEqual([107n]);
    expect(drawWinners("123456789", "1", "1000", 1)).toEqual([790n]);
  });

  it("draws a lone ticket with word 0 (won outright)", () => {
    expect(drawWinners(0n, 41n, 1n, 1)).toEqual([41n]);
  });

  it("takes the next candidates from keccak256 of the previous word, 32 bytes big-endian", () => {
    const word = 2n ** 255n + 12_345n;
    const count = 1_000_003n; // prime: three distinct candidates here
    const h1 = rehash(word);
    const h2 = rehash(h1);
    expect(drawWinners(word, 500n, count, 3)).toEqual([500n + (word % count), 500n + (h1 % count), 500n + (h2 % count)]);
  });

  it("skips a candidate already drawn and re-hashes until every position has a distinct ticket", () => {
    // A word whose second candidate repeats the first among 3 tickets, and whose third does not: the second position
    // must move on to h_2.
    let word = 1n;
    while (word % 3n !== rehash(word) % 3n || rehash(rehash(word)) % 3n === word % 3n) word += 1n;
    const winners = drawWinners(word, 10n, 3n, 3);
    expect(winners[0]).toBe(10n + (word % 3n));
    expect(new Set(winners).size).toBe(3);
    expect([...winners].sort()).toEqual([10n, 11n, 12n]);
    expect(winners[1]).toBe(10n + (rehash(rehash(word)) % 3n));
  });

  it("refuses what the contract never draws: fewer tickets than winners, no winner, a word beyond uint256", () => {
    expect(() => drawWinners(1n, 1n, 2n, 3)).toThrow(RangeError);
    expect(() => drawWinners(1n, 1n, 2n, 0)).toThrow(RangeError);
    expect(() => drawWinners(2n ** 256n, 1n, 2n, 1)).toThrow(RangeError);
  });
});

describe("verifyDraw", () => {
  const word = 987_654_321_987_654_321n;
  const winners = drawWinners(word, 1n, 50n, 3);

  it("accepts the winners the word draws, in the API's order by position or in chain order", () => {
    const api = {
      randomWord: word.toString(),
      firstTicketId: "1",
      ticketCount: 50,
      winners: [2, 0, 1].map((position) => ({ position, ticketId: winners[position].toString() })),
    };
    expect(verifyDraw(api)).toEqual({ valid: true, expected: winners, recorded: winners });
    expect(verifyDraw({ randomWord: word, firstTicketId: 1n, ticketCount: 50n, winners: winners.map((ticketId) => ({ ticketId })) }).valid).toBe(
      true,
    );
  });

  it("rejects winners in another order, another ticket, or a record without winners", () => {
    const swapped = [winners[1], winners[0], winners[2]].map((ticketId) => ({ ticketId }));
    expect(verifyDraw({ randomWord: word, firstTicketId: 1n, ticketCount: 50n, winners: swapped }).valid).toBe(false);
    const other = [winners[0], winners[1], winners[2] === 50n ? 49n : winners[2] + 1n].map((ticketId) => ({ ticketId }));
    expect(verifyDraw({ randomWord: word, firstTicketId: 1n, ticketCount: 50n, winners: other })).toMatchObject({ valid: false, expected: winners });
    expect(verifyDraw({ randomWord: word + 1n, firstTicketId: 1n, ticketCount: 50n, winners: winners.map((ticketId) => ({ ticketId })) }).valid).toBe(
      false,
    );
    expect(verifyDraw({ randomWord: word, firstTicketId: 1n, ticketCount: 50n, winners: [] }).valid).toBe(false);
  });

  it("says whether the raffle is the platform's when the record knows, and never accepts one that is not", () => {
    const record = { randomWord: word, firstTicketId: 1n, ticketCount: 50n, winners: winners.map((ticketId) => ({ ticketId })) };
    expect(verifyDraw({ ...record, genuine: true })).toEqual({ valid: true, expected: winners, recorded: winners, genuine: true });
    // A look-alike's winners can follow the rule exactly: the draw still proves nothing.
    expect(verifyDraw({ ...record, genuine: false })).toEqual({ valid: false, expected: winners, recorded: winners, genuine: false });
    expect(verifyDraw(record)).not.toHaveProperty("genuine");
  });
});

describe("verifyDraw on the shared draw vectors (libs/chain/src/rules/vectors.json, the contract's DrawRule cases)", () => {
  it.each(RULE_VECTORS.draw.map((vector) => [vector.name, vector]))("%s", (_name, vector) => {
    const record = { ...vector, winners: vector.winners.map((ticketId, position) => ({ ticketId, position })) };
    expect(verifyDraw(record)).toEqual({ valid: true, expected: vector.winners.map(BigInt), recorded: vector.winners.map(BigInt) });
    if (vector.winners.length > 1) {
      // A forger who swaps the first two positions, or passes a later candidate off as the first, is caught.
      const [first, second, ...rest] = vector.winners;
      expect(verifyDraw({ ...record, winners: [second, first, ...rest].map((ticketId) => ({ ticketId })) }).valid).toBe(false);
    }
    expect(verifyDraw({ ...record, randomWord: BigInt(vector.randomWord) ^ 1n }).valid).toBe(vector.ticketCount === "1");
  });
});
