import { expect } from "chai";
import { ethers } from "hardhat";
import { loadFixture } from "@nomicfoundation/hardhat-toolbox/network-helpers";
import { ZeroAddress, id, parseUnits } from "ethers";

import { TestCollectible__factory, TestToken__factory, TokenType } from "@raffle/chain";

import { deployWorld } from "./support/scenario";

async function tokensFixture() {
  const [admin, alice, bob] = await ethers.getSigners();
  const token = await new TestToken__factory(admin).deploy("Test Gold", "GOLD", admin.address);
  const collectible = await new TestCollectible__factory(admin).deploy("Test Item", "ITEM", admin.address);
  return { admin, alice, bob, token, collectible };
}

describe("Test tokens (local and test chains only)", () => {
  describe("TestToken", () => {
    it("is an 18-decimal ERC20 that only MINTER_ROLE can mint", async () => {
      const { admin, alice, token } = await loadFixture(tokensFixture);
      expect(await token.decimals()).to.equal(18n);
      expect(await token.hasRole(id("MINTER_ROLE"), admin.address)).to.equal(true);
      await expect(token.mint(alice.address, parseUnits("5", 18)))
        .to.emit(token, "Transfer")
        .withArgs(ZeroAddress, alice.address, parseUnits("5", 18));
      await expect(token.connect(alice).mint(alice.address, 1n))
        .to.be.revertedWithCustomError(token, "AccessControlUnauthorizedAccount")
        .withArgs(alice.address, id("MINTER_ROLE"));
      expect(await token.balanceOf(alice.address)).to.equal(parseUnits("5", 18));
    });

    it("emits Approval when a buyer approves the Exchange", async () => {
      const { alice, bob, token } = await loadFixture(tokensFixture);
      await expect(token.connect(alice).approve(bob.address, 7n)).to.emit(token, "Approval").withArgs(alice.address, bob.address, 7n);
    });
  });

  describe("TestCollectible", () => {
    it("mints ids from 1 to MINTER_ROLE's choice of holder", async () => {
      const { alice, bob, collectible } = await loadFixture(tokensFixture);
      await expect(collectible.mint(alice.address)).to.emit(collectible, "Transfer").withArgs(ZeroAddress, alice.address, 1n);
      await expect(collectible.mint(bob.address)).to.emit(collectible, "Transfer").withArgs(ZeroAddress, bob.address, 2n);
      await expect(collectible.connect(alice).mint(alice.address))
        .to.be.revertedWithCustomError(collectible, "AccessControlUnauthorizedAccount")
        .withArgs(alice.address, id("MINTER_ROLE"));
      expect(await collectible.supportsInterface("0x80ac58cd")).to.equal(true); // ERC721
      expect(await collectible.supportsInterface("0x7965db0b")).to.equal(true); // AccessControl
    });

    it("cannot be a raffle price (only NATIVE and ERC20 prices are payable)", async () => {
      const world = await deployWorld();
      const collectible = await new TestCollectible__factory(world.admin).deploy("Test Item", "ITEM", world.admin.address);
      const price = { tokenType: TokenType.ERC721, token: await collectible.getAddress(), tokenId: 1n, amount: 1n };
      await expect(world.raffle.startRound(world.item, price, 0n)).to.be.revertedWithCustomError(world.raffle, "InvalidPriceAsset");
    });
  });
});
