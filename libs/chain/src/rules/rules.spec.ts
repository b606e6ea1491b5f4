import { bundlePrice, commissionOf, drawWinners, netPrize, prizeAmounts, priceForQuantity } from "./index";
import { RULE_VECTORS } from "./rule-vectors";

/** The TypeScript rules against the shared vectors the contract's libraries are checked against (Rules.vectors.test.ts). */
describe("the Raffle's rules in TypeScript", () => {
  it.each(RULE_VECTORS.prizeSplit.map((vector) => [vector.name, vector]))("prize split: %s", (_name, vector) => {
    expect(prizeAmounts(vector.pot, vector.shares).map(String)).toEqual(vector.amounts);
  });

  it("pays 0 to positions past the shares (item-only positions), the shares as without them", () => {
    for (const vector of RULE_VECTORS.prizeSplit) {
      const amounts = prizeAmounts(vector.pot, vector.shares, vector.shares.length + 2).map(String);
      expect(amounts).toEqual([...vector.amounts, "0", "0"]);
    }
  });

  it.each(RULE_VECTORS.commission.map((vector) => [vector.name, vector]))("commission: %s", (_name, vector) => {
    expect(commissionOf(vector.amount, vector.rate).toString()).toBe(vector.commission);
    expect(netPrize(vector.amount, vector.rate).toString()).toBe(vector.net);
  });

  it.each(RULE_VECTORS.draw.map((vector) => [vector.name, vector]))("draw: %s", (_name, vector) => {
    expect(drawWinners(vector.randomWord, vector.firstTicketId, vector.ticketCount, vector.winnersCount).map(String)).toEqual(vector.winners);
  });

  it.each(RULE_VECTORS.bundlePrice.map((vector) => [vector.name, vector]))("bundle price: %s", (_name, vector) => {
    expect(bundlePrice(vector.bundles, vector.unitPrice, vector.quantity)).toEqual({ perTicket: BigInt(vector.perTicket), tier: vector.tier });
    expect(priceForQuantity(vector.bundles, vector.unitPrice, vector.quantity).toString()).toBe(vector.total);
  });

  it("refuses a draw it could never finish or that the chain could not hold", () => {
    expect(() => drawWinners(1n, 1n, 2n, 3)).toThrow(RangeError);
    expect(() => drawWinners(1n << 256n, 1n, 10n, 1)).toThrow(RangeError);
    expect(() => drawWinners(-1n, 1n, 10n, 1)).toThrow(RangeError);
    expect(() => drawWinners(1n, 1n, 10n, 0)).toThrow(RangeError);
    expect(() => drawWinners(1n, 1n, 10n, 1.5)).toThrow(RangeError);
  });

  it("takes the API's decimal strings and refuses anything that is not an integer", () => {
    expect(prizeAmounts("1001", ["5000", "3000", "2000"])).toEqual([501n, 300n, 200n]);
    expect(() => prizeAmounts("1e3", [10_000])).toThrow(SyntaxError);
    expect(() => priceForQuantity([], "1.5", 2)).toThrow(SyntaxError);
  });
});
