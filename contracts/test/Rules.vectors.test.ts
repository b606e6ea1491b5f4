import { expect } from "chai";
import { ethers } from "hardhat";

import { RULE_VECTORS } from "@raffle/chain/rules/vectors";
import { RulesHarness__factory, type RulesHarness } from "@raffle/chain";

/**
 * The rule libraries the Raffle pays, prices and draws with (contracts/src/libraries), against the shared vectors
 * that the TypeScript rules in libs/chain, the indexer, the SDK and the player app check too.
 */
describe("the Raffle's rule libraries, against the shared vectors", () => {
  let harness: RulesHarness;

  before(async () => {
    const [deployer] = await ethers.getSigners();
    harness = await new RulesHarness__factory(deployer).deploy();
  });

  it("has cases of every rule", () => {
    for (const rule of ["prizeSplit", "commission", "draw", "bundlePrice"] as const) expect(RULE_VECTORS[rule]).to.not.be.empty;
  });

  for (const vector of RULE_VECTORS.prizeSplit) {
    it(`prize split: ${vector.name}`, async () => {
      const amounts = await harness.prizes.staticCall(vector.pot, vector.shares);
      expect(amounts.map(String)).to.deep.equal(vector.amounts);
      expect(amounts.reduce((sum, amount) => sum + amount, 0n)).to.equal(BigInt(vector.pot));
    });
  }

  for (const vector of RULE_VECTORS.commission) {
    it(`commission: ${vector.name}`, async () => {
      const commission = await harness.commissionOf(vector.amount, vector.rate);
      expect(commission.toString()).to.equal(vector.commission);
      expect((BigInt(vector.amount) - commission).toString()).to.equal(vector.net);
    });
  }

  for (const vector of RULE_VECTORS.draw) {
    it(`draw: ${vector.name}`, async () => {
      const winners = await harness.winners(vector.randomWord, vector.firstTicketId, vector.ticketCount, vector.winnersCount);
      expect(winners.map(String)).to.deep.equal(vector.winners);
      expect(new Set(vector.winners).size).to.equal(vector.winnersCount);
    });
  }

  for (const vector of RULE_VECTORS.bundlePrice) {
    it(`bundle price: ${vector.name}`, async () => {
      const [perTicket, tier] = await harness.bundlePrice.staticCall(vector.bundles, vector.unitPrice, vector.quantity);
      expect(perTicket.toString()).to.equal(vector.perTicket);
      expect(Number(tier)).to.equal(vector.tier);
      expect((perTicket * BigInt(vector.quantity)).toString()).to.equal(vector.total);
    });
  }

  it("never draws from a round without tickets (the raffle closes it instead)", async () => {
    await expect(harness.winners(1n, 1n, 0n, 1n)).to.be.revertedWithPanic(0x12);
  });
});
