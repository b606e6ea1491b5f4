import { expect } from "chai";
import { ethers } from "hardhat";
import { loadFixture } from "@nomicfoundation/hardhat-toolbox/network-helpers";
import { TypedDataEncoder, ZeroHash, id } from "ethers";

import { Exchange__factory, exchangeDomain } from "@raffle/chain";

import { approveExchange, deployWorld, purchase, startErc20Round, voucherFor } from "./support/scenario";

async function exchangeFixture() {
  const world = await deployWorld();
  const price = await startErc20Round(world);
  const [alice, bob, newSigner] = world.players;
  await approveExchange(world, [alice]);
  return { world, price, alice, bob, newSigner };
}

describe("Exchange administration", () => {
  describe("listed raffles", () => {
    it("lists each raffle its factory deploys, and lets nobody but a holder of FACTORY_ROLE list one", async () => {
      const { world, alice } = await loadFixture(exchangeFixture);
      const { exchange, factory, admin, merchant } = world;
      expect(await exchange.FACTORY_ROLE()).to.equal(id("FACTORY_ROLE"));
      expect(await exchange.hasRole(id("FACTORY_ROLE"), await factory.getAddress())).to.equal(true);
      const tx = factory.connect(merchant).deployRaffle({ commission: 0n, timeLagBeforeRelease: 86_400n, ticketName: "T", ticketSymbol: "T" });
      const receipt = await (await tx).wait();
      const deployed = receipt!.logs.map((log) => factory.interface.parseLog(log)).find((parsed) => parsed?.name === "RaffleDeployed");
      const raffle = deployed!.args.raffle as string;
      await expect(tx)
        .to.emit(exchange, "RaffleListed")
        .withArgs(await factory.getAddress(), raffle);
      expect(await exchange.isListedRaffle(raffle)).to.equal(true);

      // Not even the Exchange's admin lists a raffle by hand: only a factory does, as it deploys one.
      for (const caller of [alice, admin, merchant]) {
        await expect(exchange.connect(caller).listRaffle(caller.address))
          .to.be.revertedWithCustomError(exchange, "AccessControlUnauthorizedAccount")
          .withArgs(caller.address, id("FACTORY_ROLE"));
      }
    });
  });

  describe("deployment", () => {
    it("gives the admin DEFAULT_ADMIN_ROLE and PAUSER_ROLE, and the signer only SIGNER_ROLE", async () => {
      const { world } = await loadFixture(exchangeFixture);
      const { exchange, admin, signer } = world;
      const [adminRole, pauserRole, signerRole] = [await exchange.DEFAULT_ADMIN_ROLE(), await exchange.PAUSER_ROLE(), await exchange.SIGNER_ROLE()];
      expect(adminRole).to.equal(ZeroHash);
      expect(pauserRole).to.equal(id("PAUSER_ROLE"));
      expect(signerRole).to.equal(id("SIGNER_ROLE"));

      expect(await exchange.hasRole(adminRole, admin.address)).to.equal(true);
      expect(await exchange.hasRole(pauserRole, admin.address)).to.equal(true);
      expect(await exchange.hasRole(signerRole, admin.address)).to.equal(false);
      expect(await exchange.hasRole(signerRole, signer.address)).to.equal(true);
      expect(await exchange.hasRole(adminRole, signer.address)).to.equal(false);
      expect(await exchange.hasRole(pauserRole, signer.address)).to.equal(false);
    });

    it("emits RoleGranted for each role it sets up, and grants no signer: the constructor is the same on every chain", async () => {
      const { world } = await loadFixture(exchangeFixture);
      const { admin } = world;
      const deploying = new Exchange__factory(admin).getDeployTransaction(admin.address);
      const receipt = await (await admin.sendTransaction(await deploying)).wait();
      const exchange = Exchange__factory.connect(receipt!.contractAddress!, admin);
      const granted = receipt!.logs
        .map((log) => exchange.interface.parseLog(log))
        .filter((parsed) => parsed?.name === "RoleGranted")
        .map((parsed) => [parsed!.args.role, parsed!.args.account, parsed!.args.sender]);
      expect(granted).to.deep.equal([
        [ZeroHash, admin.address, admin.address],
        [id("PAUSER_ROLE"), admin.address, admin.address],
      ]);
    });

    it("publishes the EIP-712 domain EXCHANGE / 1.0.0 / chainId / its own address", async () => {
      const { world } = await loadFixture(exchangeFixture);
      const { chainId } = await ethers.provider.getNetwork();
      const address = await world.exchange.getAddress();
      expect(await world.exchange.domainSeparator()).to.equal(TypedDataEncoder.hashDomain(exchangeDomain(chainId, address)));
      const domain = await world.exchange.eip712Domain();
      expect(domain.name).to.equal("EXCHANGE");
      expect(domain.version).to.equal("1.0.0");
      expect(domain.chainId).to.equal(chainId);
      expect(domain.verifyingContract).to.equal(address);
    });

    it("has a different domain separator for a second Exchange, so vouchers do not cross contracts", async () => {
      const { world, price, alice } = await loadFixture(exchangeFixture);
      const second = await new Exchange__factory(world.admin).deploy(world.admin.address);
      await (await second.grantRole(await second.SIGNER_ROLE(), world.signer.address)).wait();
      expect(await second.domainSeparator()).not.to.equal(await world.exchange.domainSeparator());
      const voucher = await voucherFor(world, alice, price, { exchange: second });
      const sent = world.exchange.connect(alice).purchaseRaffle(voucher.params, voucher.item, voucher.price, voucher.signature);
      await expect(sent).to.be.revertedWithCustomError(world.exchange, "InvalidSigner");
    });
  });

  describe("pause and unpause", () => {
    it("lets only PAUSER_ROLE pause and unpause, with OZ events and errors", async () => {
      const { world, alice } = await loadFixture(exchangeFixture);
      const { exchange, admin, signer } = world;
      const pauserRole = await exchange.PAUSER_ROLE();

      for (const account of [alice, signer]) {
        await expect(exchange.connect(account).pause())
          .to.be.revertedWithCustomError(exchange, "AccessControlUnauthorizedAccount")
          .withArgs(account.address, pauserRole);
      }
      await expect(exchange.connect(admin).unpause()).to.be.revertedWithCustomError(exchange, "ExpectedPause");

      await expect(exchange.connect(admin).pause()).to.emit(exchange, "Paused").withArgs(admin.address);
      expect(await exchange.paused()).to.equal(true);
      await expect(exchange.connect(admin).pause()).to.be.revertedWithCustomError(exchange, "EnforcedPause");
      await expect(exchange.connect(alice).unpause())
        .to.be.revertedWithCustomError(exchange, "AccessControlUnauthorizedAccount")
        .withArgs(alice.address, pauserRole);

      await expect(exchange.connect(admin).unpause()).to.emit(exchange, "Unpaused").withArgs(admin.address);
      expect(await exchange.paused()).to.equal(false);
    });

    it("lets the admin delegate pausing to another account", async () => {
      const { world, alice, bob, price } = await loadFixture(exchangeFixture);
      const { exchange, admin } = world;
      await expect(exchange.connect(admin).grantRole(await exchange.PAUSER_ROLE(), bob.address))
        .to.emit(exchange, "RoleGranted")
        .withArgs(await exchange.PAUSER_ROLE(), bob.address, admin.address);
      await expect(exchange.connect(bob).pause()).to.emit(exchange, "Paused").withArgs(bob.address);
      const voucher = await voucherFor(world, alice, price);
      await expect(purchase(world, alice, voucher)).to.be.revertedWithCustomError(exchange, "EnforcedPause");
    });
  });

  describe("rotateSigner", () => {
    it("replaces the signer in one transaction: old vouchers die, new ones work", async () => {
      const { world, price, alice, newSigner } = await loadFixture(exchangeFixture);
      const { exchange, admin, signer } = world;
      const signerRole = await exchange.SIGNER_ROLE();
      const signedBefore = await voucherFor(world, alice, price);

      await expect(exchange.connect(admin).rotateSigner(signer.address, newSigner.address))
        .to.emit(exchange, "RoleRevoked")
        .withArgs(signerRole, signer.address, admin.address)
        .and.to.emit(exchange, "RoleGranted")
        .withArgs(signerRole, newSigner.address, admin.address);
      expect(await exchange.hasRole(signerRole, signer.address)).to.equal(false);
      expect(await exchange.hasRole(signerRole, newSigner.address)).to.equal(true);

      await expect(purchase(world, alice, signedBefore))
        .to.be.revertedWithCustomError(exchange, "InvalidSigner")
        .withArgs(signer.address);
      const signedAfter = await voucherFor(world, alice, price, { signer: newSigner });
      await expect(purchase(world, alice, signedAfter)).to.emit(world.raffle, "TicketsPurchased");
    });

    it("is admin-only", async () => {
      const { world, newSigner } = await loadFixture(exchangeFixture);
      const { exchange, signer } = world;
      for (const caller of [signer, newSigner]) {
        await expect(exchange.connect(caller).rotateSigner(signer.address, caller.address))
          .to.be.revertedWithCustomError(exchange, "AccessControlUnauthorizedAccount")
          .withArgs(caller.address, await exchange.DEFAULT_ADMIN_ROLE());
      }
      expect(await exchange.hasRole(await exchange.SIGNER_ROLE(), newSigner.address)).to.equal(false);
    });

    it("accepts vouchers from every holder of SIGNER_ROLE when the admin grants a second one", async () => {
      const { world, price, alice, newSigner } = await loadFixture(exchangeFixture);
      await (await world.exchange.connect(world.admin).grantRole(await world.exchange.SIGNER_ROLE(), newSigner)).wait();
      await expect(purchase(world, alice, await voucherFor(world, alice, price))).to.emit(world.raffle, "TicketsPurchased");
      await expect(purchase(world, alice, await voucherFor(world, alice, price, { signer: newSigner }))).to.emit(world.raffle, "TicketsPurchased");
    });
  });

  describe("isNonceUsed", () => {
    it("turns true only for the nonce of a successful purchase", async () => {
      const { world, price, alice } = await loadFixture(exchangeFixture);
      const voucher = await voucherFor(world, alice, price);
      const unused = await voucherFor(world, alice, price);
      expect(await world.exchange.isNonceUsed(voucher.params.nonce)).to.equal(false);
      await (await purchase(world, alice, voucher)).wait();
      expect(await world.exchange.isNonceUsed(voucher.params.nonce)).to.equal(true);
      expect(await world.exchange.isNonceUsed(unused.params.nonce)).to.equal(false);
    });
  });
});
