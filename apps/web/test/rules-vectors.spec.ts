import { RULE_VECTORS } from "@raffle/chain/rules/vectors";

import { priceForQuantity } from "../src/lib/bundles";
import { netPrize } from "../src/lib/prize";

/**
 * What the player app shows as a purchase's total and a winner's paid prize, against the shared vectors the contract's
 * BundlePrice and PrizeSplit are checked against: a page that showed another amount than the chain pays fails here.
 */
describe("the player app's prices and prizes, against the contract's rules", () => {
  it.each(RULE_VECTORS.bundlePrice.map((vector) => [vector.name, vector]))("bundle price: %s", (_name, vector) => {
    const bundles = vector.bundles.map((bundle) => ({ quantity: bundle.quantity, price: bundle.price }));
    expect(priceForQuantity(vector.quantity, vector.unitPrice, bundles).toString()).toBe(vector.total);
  });

  it.each(RULE_VECTORS.commission.map((vector) => [vector.name, vector]))("prize paid: %s", (_name, vector) => {
    expect(netPrize(vector.amount, BigInt(vector.rate)).toString()).toBe(vector.net);
  });

  it("refuses an amount the API could never send rather than showing a wrong one", () => {
    expect(() => netPrize("12.5", 1_000n)).toThrow(SyntaxError);
    expect(() => priceForQuantity(2, "abc")).toThrow(SyntaxError);
  });
});
