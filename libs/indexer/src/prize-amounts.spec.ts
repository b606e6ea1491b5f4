import { RULE_VECTORS } from "@raffle/chain/rules/vectors";

import { prizeAmounts } from "./projector";

/**
 * The amounts the indexer stores for each winner position (round_winner.amount) and the claim it pays, against the
 * shared vectors the contract's PrizeSplit is checked against.
 */
describe("prizeAmounts, as the indexer records a draw", () => {
  it.each(RULE_VECTORS.prizeSplit.map((vector) => [vector.name, vector]))("%s", (_name, vector) => {
    const amounts = prizeAmounts(BigInt(vector.pot), vector.shares);
    expect(amounts.map(String)).toEqual(vector.amounts);
    expect(amounts.reduce((sum, amount) => sum + amount, 0n)).toBe(BigInt(vector.pot));
  });
});
