import { prizeAmounts } from "./handlers/shared";

describe("prizeAmounts", () => {
  it("pays pot x share / 10,000 rounded down, the first position taking the remainder, summing to the pot", () => {
    expect(prizeAmounts(1001n, [5000, 3000, 2000])).toEqual([501n, 300n, 200n]);
    expect(prizeAmounts(7n, [3334, 3333, 3333])).toEqual([3n, 2n, 2n]);
    expect(prizeAmounts(135n * 10n ** 18n, [10000])).toEqual([135n * 10n ** 18n]);
    for (const pot of [0n, 1n, 999n, 2n ** 127n + 3n]) {
      const amounts = prizeAmounts(pot, [4000, 2500, 2500, 1000]);
      expect(amounts.reduce((sum, amount) => sum + amount, 0n)).toBe(pot);
    }
  });
});
