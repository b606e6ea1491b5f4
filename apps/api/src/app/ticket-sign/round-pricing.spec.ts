import { MAX_TICKETS_PER_PURCHASE, priceForQuantity } from "./round-pricing";

describe("priceForQuantity", () => {
  const unit = 10n * 10n ** 18n;
  const bundles = [
    { quantity: 5, price: (45n * 10n ** 18n).toString() },
    { quantity: 10, price: (80n * 10n ** 18n).toString() },
  ];

  it("charges the round's price below the smallest bundle and without bundles", () => {
    expect(priceForQuantity(unit, bundles, 1)).toBe(unit);
    expect(priceForQuantity(unit, bundles, 4)).toBe(4n * unit);
    expect(priceForQuantity(unit, [], 7)).toBe(7n * unit);
  });

  it("charges the per-ticket price of the largest bundle not above the quantity", () => {
    expect(priceForQuantity(unit, bundles, 5)).toBe(45n * 10n ** 18n);
    expect(priceForQuantity(unit, bundles, 9)).toBe(9n * 9n * 10n ** 18n);
    expect(priceForQuantity(unit, bundles, 10)).toBe(80n * 10n ** 18n);
    expect(priceForQuantity(unit, bundles, MAX_TICKETS_PER_PURCHASE)).toBe(800n * 10n ** 18n);
  });
});
