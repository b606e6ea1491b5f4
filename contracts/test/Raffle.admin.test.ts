import { expect } from "chai";
import { loadFixture, setCode } from "@nomicfoundation/hardhat-toolbox/network-helpers";
import { ZeroAddress, ZeroHash, id } from "ethers";

import {
  RaffleDeployer__factory,
  RaffleFactory__factory,
  RaffleTicketDeployer__factory,
  RaffleTicket__factory,
  Raffle__factory,
} from "@raffle/chain";

import { DEFAULT_VRF, ONE_DAY, nativePrice, ticketAsset } from "./support/fixtures";
import { deployWorld, type RaffleWorld } from "./support/scenario";

/** Settings for a Raffle deployed directly (not through the factory), with an EOA standing in for the Exchange. */
async function directSettings(world: RaffleWorld, exchange: string) {
  const ticketDeployer = await new RaffleTicketDeployer__factory(world.admin).deploy();
  return {
    admin: world.merchant.address,
    // An EOA here: these raffles are only built and inspected, never asked for a round.
    factory: world.admin.address,
    exchange,
    ticketDeployer: await ticketDeployer.getAddress(),
    commission: 500n,
    timeLagBeforeRelease: ONE_DAY,
    ticketName: "Direct Ticket",
    ticketSymbol: "DT",
  };
}

/** A raffle whose Exchange is `exchange` (an EOA the test signs for), deployed by a factory of its own. */
async function raffleWithExchange(world: RaffleWorld, exchange: string) {
  const factory = await new RaffleFactory__factory(world.admin).deploy(
    world.admin.address,
    exchange,
    await (await new RaffleTicketDeployer__factory(world.admin).deploy()).getAddress(),
    await (await new RaffleDeployer__factory(world.admin).deploy()).getAddress(),
  );
  await (await factory.proposeVrfConfig({ ...DEFAULT_VRF, coordinator: await world.vrf.getAddress() })).wait();
  await (await factory.createVrfSubscription()).wait();
  await (await factory.grantRole(await factory.MERCHANT_ROLE(), world.merchant.address)).wait();
  // The factory lists each raffle on its Exchange: the EOA answers that one call as a contract that does nothing.
  await setCode(exchange, "0x00");
  const receipt = await (
    await factory.connect(world.merchant).deployRaffle({ commission: 500n, timeLagBeforeRelease: ONE_DAY, ticketName: "T", ticketSymbol: "T" })
  ).wait();
  await setCode(exchange, "0x");
  const event = receipt!.logs.map((log) => factory.interface.parseLog(log)).find((parsed) => parsed?.name === "RaffleDeployed");
  return Raffle__factory.connect(event!.args.raffle as string, world.merchant);
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

      for (const key of ["admin", "factory", "exchange", "ticketDeployer"] as const) {
        await expect(factory.deploy({ ...settings, [key]: ZeroAddress })).to.be.revertedWithCustomError(factory, "ZeroAddress");
      }
      await expect(factory.deploy({ ...settings, commission: 3_001n }))
        .to.be.revertedWithCustomError(factory, "CommissionTooHigh")
        .withArgs(3_001n, 3_000n);
      await expect(factory.deploy({ ...settings, timeLagBeforeRelease: ONE_DAY - 1n }))
        .to.be.revertedWithCustomError(factory, "TimeLagTooShort")
        .withArgs(ONE_DAY - 1n, ONE_DAY);

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
        ["BeneficiarySet", world.merchant.address],
        ["RoleGranted", ZeroHash, world.merchant.address, world.admin.address],
        ["RoleGranted", id("ROUND_MANAGER_ROLE"), world.merchant.address, world.admin.address],
      ]);

      const ticket = RaffleTicket__factory.connect(await raffle.ticketContract(), world.admin);
      expect(await ticket.raffle()).to.equal(address);
      expect(await ticket.name()).to.equal("Direct Ticket");
      expect(await ticket.symbol()).to.equal("DT");
      expect(await raffle.exchange()).to.equal(fakeExchange.address);
      // The factory named in its settings is its source of randomness and price tokens (RaffleDeployer names its
      // caller, in production the factory).
      expect(await raffle.factory()).to.equal(settings.factory);
      expect(await raffle.beneficiary()).to.equal(world.merchant.address);
      expect(await raffle.MAX_COMMISSION()).to.equal(3_000n);
      expect(await raffle.MIN_TIME_LAG_BEFORE_RELEASE()).to.equal(ONE_DAY);
    });

    it("checks the native value that printTicket receives (WrongNativeValue), whatever the caller sent", async () => {
      const { world, alice, fakeExchange } = await loadFixture(adminFixture);
      const raffle = await raffleWithExchange(world, fakeExchange.address);
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
        .to.emit(raffle, "TicketsPurchased")
        .withArgs(1n, alice.address, 1n, 1n, native.amount, 1n);
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

  describe("randomness belongs to the platform", () => {
    it("has no function through which its admin could set a coordinator, key hash, subscription or timeout", async () => {
      const { world } = await loadFixture(adminFixture);
      const writes = world.raffle.interface.fragments
        .filter((fragment) => fragment.type === "function")
        .map((fragment) => fragment as unknown as { name: string; stateMutability: string })
        .filter((fn) => fn.stateMutability !== "view" && fn.stateMutability !== "pure")
        .map((fn) => fn.name)
        .sort();
      // Every way to change a raffle. A new one must be added here on purpose, after asking what it lets a merchant do.
      // v2 added finishDraw (anyone; it draws from the word already recorded, so it chooses nothing) and
      // setRoundRules (admin; prize shares, minimum, wallet cap and bundles of rounds started later: no VRF setting).
      // drawInCallback is the VRF callback's capped inline draw, callable by the raffle itself only (CallerNotSelf).
      // Item prizes added setItemPrizes (admin; items of later rounds, pulled from the caller), returnItems (anyone;
      // pays only the round's merchant) and moveItem (the raffle itself only): no VRF setting.
      expect(writes).to.deep.equal([
        "claimPrizes",
        "drawInCallback",
        "enableRefunds",
        "endRound",
        "finishDraw",
        "fulfillDraw",
        "grantRole",
        "moveItem",
        "pause",
        "printTicket",
        "refundTickets",
        "releasePrize",
        "renounceRole",
        "returnItems",
        "revokeRole",
        "setBeneficiary",
        "setItemPrizes",
        "setRoundRules",
        "startRound",
        "unpause",
        "withdrawCommission",
      ]);
    });

    it("asks the factory that deployed it, which the merchant does not administer", async () => {
      const { world } = await loadFixture(adminFixture);
      expect(await world.raffle.factory()).to.equal(await world.factory.getAddress());
      const adminRole = await world.factory.DEFAULT_ADMIN_ROLE();
      expect(await world.factory.hasRole(adminRole, world.merchant.address)).to.equal(false);
      const vrf = await world.factory.vrfConfig();
      const config = { ...DEFAULT_VRF, coordinator: world.merchant.address, subscriptionId: vrf.subscriptionId };
      await expect(world.factory.connect(world.merchant).proposeVrfConfig(config))
        .to.be.revertedWithCustomError(world.factory, "AccessControlUnauthorizedAccount")
        .withArgs(world.merchant.address, adminRole);
      await expect(world.factory.connect(world.merchant).grantRole(adminRole, world.merchant.address))
        .to.be.revertedWithCustomError(world.factory, "AccessControlUnauthorizedAccount")
        .withArgs(world.merchant.address, adminRole);
    });
  });

  describe("setBeneficiary", () => {
    it("changes the beneficiary with BeneficiarySet; admin-only; never zero", async () => {
      const { world, alice, bob } = await loadFixture(adminFixture);
      expect(await world.raffle.beneficiary()).to.equal(world.merchant.address);
      await expect(world.raffle.setBeneficiary(bob.address)).to.emit(world.raffle, "BeneficiarySet").withArgs(bob.address);
      expect(await world.raffle.beneficiary()).to.equal(bob.address);
      await expect(world.raffle.setBeneficiary(ZeroAddress)).to.be.revertedWithCustomError(world.raffle, "ZeroAddress");
      await expect(world.raffle.connect(alice).setBeneficiary(alice.address))
        .to.be.revertedWithCustomError(world.raffle, "AccessControlUnauthorizedAccount")
        .withArgs(alice.address, ZeroHash);
      expect(await world.raffle.beneficiary()).to.equal(bob.address);
    });
  });
});
