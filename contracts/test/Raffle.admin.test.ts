import { expect } from "chai";
import { loadFixture } from "@nomicfoundation/hardhat-toolbox/network-helpers";
import { ZeroAddress, ZeroHash, id } from "ethers";

import { RaffleTicketDeployer__factory, RaffleTicket__factory, Raffle__factory } from "@raffle/chain";

import { DEFAULT_VRF, KEY_HASH, ONE_DAY, erc20Price, nativePrice, ticketAsset } from "./support/fixtures";
import { deployWorld, type RaffleWorld } from "./support/scenario";

/** Settings for a Raffle deployed directly (not through the factory), with an EOA standing in for the Exchange. */
async function directSettings(world: RaffleWorld, exchange: string) {
  const ticketDeployer = await new RaffleTicketDeployer__factory(world.admin).deploy();
  return {
    admin: world.merchant.address,
    exchange,
    ticketDeployer: await ticketDeployer.getAddress(),
    commission: 500n,
    timeLagBeforeRelease: ONE_DAY,
    ticketName: "Direct Ticket",
    ticketSymbol: "DT",
    vrf: { ...DEFAULT_VRF, coordinator: await world.vrf.getAddress(), subscriptionId: 1n },
  };
}

/** The raffle's VRF settings as a plain struct argument. */
async function vrfConfigOf(world: RaffleWorld) {
  const c = await world.raffle.vrfConfig();
  return {
    coordinator: c.coordinator,
    keyHash: c.keyHash,
    subscriptionId: c.subscriptionId,
    callbackGasLimit: c.callbackGasLimit,
    requestConfirmations: c.requestConfirmations,
    randomnessTimeout: c.randomnessTimeout,
  };
}

async function adminFixture() {
  const world = await deployWorld();
  const [alice, bob, fakeExchange] = world.players;
  return { world, alice, bob, fakeExchange };
}

describe("Raffle administration", () => {
  describe("constructor", () => {
    it("rejects zero addresses, commission above 30% and a time lag under a day", async () => {
      const { world, fakeExchange } = await loadFixture(adminFixture);
      const settings = await directSettings(world, fakeExchange.address);
      const factory = new Raffle__factory(world.admin);

      for (const key of ["admin", "exchange", "ticketDeployer"] as const) {
        await expect(factory.deploy({ ...settings, [key]: ZeroAddress })).to.be.revertedWithCustomError(
          factory,
          "ZeroAddress",
        );
      }
      await expect(factory.deploy({ ...settings, commission: 3_001n }))
        .to.be.revertedWithCustomError(factory, "CommissionTooHigh")
        .withArgs(3_001n, 3_000n);
      await expect(factory.deploy({ ...settings, timeLagBeforeRelease: ONE_DAY - 1n }))
        .to.be.revertedWithCustomError(factory, "TimeLagTooShort")
        .withArgs(ONE_DAY - 1n, ONE_DAY);
      await expect(
        factory.deploy({ ...settings, vrf: { ...settings.vrf, coordinator: ZeroAddress } }),
      ).to.be.revertedWithCustomError(factory, "InvalidVrfConfig");

      const edge = await factory.deploy({ ...settings, commission: 3_000n, timeLagBeforeRelease: ONE_DAY });
      expect(await edge.commission()).to.equal(3_000n);
      expect(await edge.timeLagBeforeRelease()).to.equal(ONE_DAY);
    });

    it("creates its own ticket contract and emits its setup events", async () => {
      const { world, fakeExchange } = await loadFixture(adminFixture);
      const settings = await directSettings(world, fakeExchange.address);
      const raffle = await new Raffle__factory(world.admin).deploy(settings);
      const receipt = await raffle.deploymentTransaction()!.wait();
      const address = await raffle.getAddress();
      const events = receipt!.logs
        .filter((log) => log.address === address)
        .map((log) => raffle.interface.parseLog(log)!)
        .map((parsed) => [parsed.name, ...parsed.args.toArray()]);
      expect(events).to.deep.equal([
        ["VrfConfigSet", settings.vrf.coordinator, KEY_HASH, 1n],
        ["BeneficiarySet", world.merchant.address],
        ["RoleGranted", ZeroHash, world.merchant.address, world.admin.address],
        ["RoleGranted", id("ROUND_MANAGER_ROLE"), world.merchant.address, world.admin.address],
      ]);

      const ticket = RaffleTicket__factory.connect(await raffle.ticketContract(), world.admin);
      expect(await ticket.raffle()).to.equal(address);
      expect(await ticket.name()).to.equal("Direct Ticket");
      expect(await ticket.symbol()).to.equal("DT");
      expect(await raffle.exchange()).to.equal(fakeExchange.address);
      expect(await raffle.beneficiary()).to.equal(world.merchant.address);
      expect(await raffle.MAX_COMMISSION()).to.equal(3_000n);
      expect(await raffle.MIN_TIME_LAG_BEFORE_RELEASE()).to.equal(ONE_DAY);
    });

    it("checks the native value that printTicket receives (WrongNativeValue), whatever the caller sent", async () => {
      const { world, alice, fakeExchange } = await loadFixture(adminFixture);
      const raffle = await new Raffle__factory(world.merchant).deploy(
        await directSettings(world, fakeExchange.address),
      );
      const item = ticketAsset(await raffle.ticketContract());
      const native = nativePrice();
      await (await raffle.startRound(item, native, 0n)).wait();

      const asExchange = raffle.connect(fakeExchange);
      for (const value of [0n, native.amount - 1n, native.amount + 1n]) {
        await expect(asExchange.printTicket(alice.address, item, native, 1n, { value }))
          .to.be.revertedWithCustomError(raffle, "WrongNativeValue")
          .withArgs(native.amount, value);
      }
      await expect(asExchange.printTicket(alice.address, item, native, 1n, { value: native.amount }))
        .to.emit(raffle, "TicketPurchased")
        .withArgs(1n, 1n, alice.address, 1n, 1n);

      await (await raffle.endRound()).wait();
      const erc20 = erc20Price(await world.token.getAddress());
      await (await raffle.startRound(item, erc20, 0n)).wait();
      await expect(asExchange.printTicket(alice.address, item, erc20, 1n, { value: 1n }))
        .to.be.revertedWithCustomError(raffle, "WrongNativeValue")
        .withArgs(0n, 1n);
    });
  });

  describe("roles", () => {
    it("gives the merchant DEFAULT_ADMIN_ROLE and ROUND_MANAGER_ROLE, and nobody else anything", async () => {
      const { world, alice } = await loadFixture(adminFixture);
      const { raffle, merchant, factory, exchange, admin } = world;
      const adminRole = await raffle.DEFAULT_ADMIN_ROLE();
      const managerRole = await raffle.ROUND_MANAGER_ROLE();
      expect(managerRole).to.equal(id("ROUND_MANAGER_ROLE"));
      expect(await raffle.hasRole(adminRole, merchant.address)).to.equal(true);
      expect(await raffle.hasRole(managerRole, merchant.address)).to.equal(true);
      for (const other of [alice.address, admin.address, await factory.getAddress(), await exchange.getAddress()]) {
        expect(await raffle.hasRole(adminRole, other)).to.equal(false);
        expect(await raffle.hasRole(managerRole, other)).to.equal(false);
      }
    });

    it("lets only the admin grant roles", async () => {
      const { world, alice, bob } = await loadFixture(adminFixture);
      const managerRole = await world.raffle.ROUND_MANAGER_ROLE();
      await expect(world.raffle.connect(alice).grantRole(managerRole, bob.address))
        .to.be.revertedWithCustomError(world.raffle, "AccessControlUnauthorizedAccount")
        .withArgs(alice.address, ZeroHash);
      await expect(world.raffle.grantRole(managerRole, bob.address))
        .to.emit(world.raffle, "RoleGranted")
        .withArgs(managerRole, bob.address, world.merchant.address);
      await expect(world.raffle.revokeRole(managerRole, bob.address))
        .to.emit(world.raffle, "RoleRevoked")
        .withArgs(managerRole, bob.address, world.merchant.address);
    });
  });

  describe("setVrfConfig", () => {
    it("updates the VRF settings and emits VrfConfigSet", async () => {
      const { world } = await loadFixture(adminFixture);
      const config = {
        coordinator: await world.vrf.getAddress(),
        keyHash: `0x${"22".repeat(32)}`,
        subscriptionId: 77n,
        callbackGasLimit: 300_000,
        requestConfirmations: 5,
        randomnessTimeout: 3_600,
      };
      await expect(world.raffle.setVrfConfig(config))
        .to.emit(world.raffle, "VrfConfigSet")
        .withArgs(config.coordinator, config.keyHash, config.subscriptionId);
      const stored = await world.raffle.vrfConfig();
      expect([
        stored.coordinator,
        stored.keyHash,
        stored.subscriptionId,
        stored.callbackGasLimit,
        stored.requestConfirmations,
        stored.randomnessTimeout,
      ]).to.deep.equal([config.coordinator, config.keyHash, 77n, 300_000n, 5n, 3_600n]);
    });

    it("rejects a zero coordinator, a zero callback gas limit and a timeout under an hour", async () => {
      const { world } = await loadFixture(adminFixture);
      const valid = await vrfConfigOf(world);
      for (const bad of [
        { ...valid, coordinator: ZeroAddress },
        { ...valid, callbackGasLimit: 0n },
        { ...valid, randomnessTimeout: 3_599n },
      ]) {
        await expect(world.raffle.setVrfConfig(bad)).to.be.revertedWithCustomError(world.raffle, "InvalidVrfConfig");
      }
      expect((await world.raffle.vrfConfig()).randomnessTimeout).to.equal(BigInt(DEFAULT_VRF.randomnessTimeout));
    });

    it("is admin-only", async () => {
      const { world, alice } = await loadFixture(adminFixture);
      const config = await vrfConfigOf(world);
      await expect(world.raffle.connect(alice).setVrfConfig({ ...config, coordinator: alice.address }))
        .to.be.revertedWithCustomError(world.raffle, "AccessControlUnauthorizedAccount")
        .withArgs(alice.address, ZeroHash);
    });
  });

  describe("setBeneficiary", () => {
    it("changes the beneficiary with BeneficiarySet; admin-only; never zero", async () => {
      const { world, alice, bob } = await loadFixture(adminFixture);
      expect(await world.raffle.beneficiary()).to.equal(world.merchant.address);
      await expect(world.raffle.setBeneficiary(bob.address))
        .to.emit(world.raffle, "BeneficiarySet")
        .withArgs(bob.address);
      expect(await world.raffle.beneficiary()).to.equal(bob.address);
      await expect(world.raffle.setBeneficiary(ZeroAddress)).to.be.revertedWithCustomError(world.raffle, "ZeroAddress");
      await expect(world.raffle.connect(alice).setBeneficiary(alice.address))
        .to.be.revertedWithCustomError(world.raffle, "AccessControlUnauthorizedAccount")
        .withArgs(alice.address, ZeroHash);
      expect(await world.raffle.beneficiary()).to.equal(bob.address);
    });
  });
});
