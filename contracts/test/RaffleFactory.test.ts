import { expect } from "chai";
import { loadFixture } from "@nomicfoundation/hardhat-toolbox/network-helpers";
import { ZeroAddress, ZeroHash, id } from "ethers";

import { RaffleFactory__factory, RaffleTicket__factory, Raffle__factory } from "@raffle/chain";

import { COMMISSION_BPS, DEFAULT_VRF, KEY_HASH, ONE_DAY, deployPlatform, deployRaffle } from "./support/fixtures";

const ONE_HOUR = 3_600n;

/** One config per VRF rule broken: zero coordinator, zero callback gas limit, a timeout one second under an hour. */
function invalidVrfConfigs<T extends { coordinator: string; callbackGasLimit: unknown; randomnessTimeout: unknown }>(valid: T) {
  return [
    { ...valid, coordinator: ZeroAddress },
    { ...valid, callbackGasLimit: 0n },
    { ...valid, randomnessTimeout: ONE_HOUR - 1n },
  ];
}

const CONFIG = { commission: COMMISSION_BPS, timeLagBeforeRelease: ONE_DAY, ticketName: "T", ticketSymbol: "T" };

async function platformFixture() {
  const platform = await deployPlatform();
  const [alice, otherMerchant] = platform.players;
  await (await platform.factory.grantRole(await platform.factory.MERCHANT_ROLE(), otherMerchant.address)).wait();
  return { ...platform, alice, otherMerchant };
}

/** A raffle-interface view of the factory's address, so errors bubbled from the Raffle constructor can be matched. */
const raffleErrors = Raffle__factory.connect(ZeroAddress);

describe("RaffleFactory", () => {
  describe("constructor", () => {
    it("stores the Exchange, the ticket deployer and the VRF settings, and emits VrfConfigSet", async () => {
      const { factory, exchange, vrf, admin } = await loadFixture(platformFixture);
      expect(await factory.exchange()).to.equal(await exchange.getAddress());
      expect(await factory.ticketDeployer()).not.to.equal(ZeroAddress);
      expect(await factory.hasRole(ZeroHash, admin.address)).to.equal(true);
      expect(await factory.MERCHANT_ROLE()).to.equal(id("MERCHANT_ROLE"));
      const config = await factory.vrfConfig();
      expect(config.coordinator).to.equal(await vrf.getAddress());
      expect(config.keyHash).to.equal(KEY_HASH);
      expect(config.subscriptionId).not.to.equal(0n); // created by the fixture

      const fresh = await new RaffleFactory__factory(admin).deploy(
        admin.address,
        await exchange.getAddress(),
        await factory.ticketDeployer(),
        { ...DEFAULT_VRF, coordinator: await vrf.getAddress(), subscriptionId: 5n },
      );
      await expect(fresh.deploymentTransaction())
        .to.emit(fresh, "VrfConfigSet")
        .withArgs(await vrf.getAddress(), KEY_HASH, 5n);
    });

    async function constructorArgs(platform: Awaited<ReturnType<typeof platformFixture>>) {
      return {
        admin: platform.admin.address,
        exchange: await platform.exchange.getAddress(),
        ticketDeployer: await platform.factory.ticketDeployer(),
        vrf: { ...DEFAULT_VRF, coordinator: await platform.vrf.getAddress() },
      };
    }

    it("rejects a zero admin, Exchange or ticket deployer with ZeroAddress", async () => {
      const platform = await loadFixture(platformFixture);
      const deployer = new RaffleFactory__factory(platform.admin);
      const args = await constructorArgs(platform);
      const variants = [
        { ...args, admin: ZeroAddress },
        { ...args, exchange: ZeroAddress },
        { ...args, ticketDeployer: ZeroAddress },
        // The addresses are checked before the VRF config.
        { ...args, admin: ZeroAddress, vrf: { ...args.vrf, coordinator: ZeroAddress } },
      ];
      for (const v of variants) {
        await expect(deployer.deploy(v.admin, v.exchange, v.ticketDeployer, v.vrf)).to.be.revertedWithCustomError(
          deployer,
          "ZeroAddress",
        );
      }
    });

    it("rejects an unusable VRF config with InvalidVrfConfig, accepting a timeout of exactly one hour", async () => {
      const platform = await loadFixture(platformFixture);
      const deployer = new RaffleFactory__factory(platform.admin);
      const args = await constructorArgs(platform);
      for (const vrf of invalidVrfConfigs(args.vrf)) {
        await expect(deployer.deploy(args.admin, args.exchange, args.ticketDeployer, vrf)).to.be.revertedWithCustomError(
          deployer,
          "InvalidVrfConfig",
        );
      }
      const edge = await deployer.deploy(args.admin, args.exchange, args.ticketDeployer, {
        ...args.vrf,
        randomnessTimeout: ONE_HOUR,
      });
      expect((await edge.vrfConfig()).randomnessTimeout).to.equal(ONE_HOUR);
    });
  });

  describe("deployRaffle", () => {
    it("is reserved to MERCHANT_ROLE", async () => {
      const { factory, alice, admin } = await loadFixture(platformFixture);
      for (const caller of [alice, admin]) {
        await expect(factory.connect(caller).deployRaffle(CONFIG))
          .to.be.revertedWithCustomError(factory, "AccessControlUnauthorizedAccount")
          .withArgs(caller.address, id("MERCHANT_ROLE"));
      }
    });

    it("emits RaffleDeployed(merchant, raffle, ticket, commission, timeLag) with the deployed addresses", async () => {
      const { factory, merchant } = await loadFixture(platformFixture);
      const config = { ...CONFIG, commission: 2_500n, timeLagBeforeRelease: 3n * ONE_DAY };
      const [raffle, ticket] = await factory.connect(merchant).deployRaffle.staticCall(config);
      await expect(factory.connect(merchant).deployRaffle(config))
        .to.emit(factory, "RaffleDeployed")
        .withArgs(merchant.address, raffle, ticket, 2_500n, 3n * ONE_DAY);
      const deployed = Raffle__factory.connect(raffle, merchant);
      expect(await deployed.ticketContract()).to.equal(ticket);
      expect(await deployed.commission()).to.equal(2_500n);
      expect(await deployed.timeLagBeforeRelease()).to.equal(3n * ONE_DAY);
    });

    it("wires the roles: merchant administers the raffle, the Exchange prints, the raffle mints", async () => {
      const platform = await loadFixture(platformFixture);
      const { raffle, ticket, address } = await deployRaffle(platform);
      const { merchant, exchange, factory } = platform;
      expect(await raffle.hasRole(ZeroHash, merchant.address)).to.equal(true);
      expect(await raffle.hasRole(id("ROUND_MANAGER_ROLE"), merchant.address)).to.equal(true);
      expect(await raffle.hasRole(ZeroHash, await factory.getAddress())).to.equal(false);
      expect(await raffle.hasRole(id("ROUND_MANAGER_ROLE"), await factory.getAddress())).to.equal(false);
      expect(await raffle.exchange()).to.equal(await exchange.getAddress());
      expect(await raffle.beneficiary()).to.equal(merchant.address);
      expect(await ticket.raffle()).to.equal(address);
      expect(await ticket.name()).to.equal("Raffle Ticket");
    });

    it("gives the raffle the factory's VRF settings and adds it as a consumer of the subscription", async () => {
      const platform = await loadFixture(platformFixture);
      const { address, raffle } = await deployRaffle(platform);
      const factoryVrf = await platform.factory.vrfConfig();
      const raffleVrf = await raffle.vrfConfig();
      expect(raffleVrf.coordinator).to.equal(factoryVrf.coordinator);
      expect(raffleVrf.keyHash).to.equal(factoryVrf.keyHash);
      expect(raffleVrf.subscriptionId).to.equal(factoryVrf.subscriptionId);
      expect(raffleVrf.callbackGasLimit).to.equal(factoryVrf.callbackGasLimit);
      expect(raffleVrf.requestConfirmations).to.equal(factoryVrf.requestConfirmations);
      expect(raffleVrf.randomnessTimeout).to.equal(factoryVrf.randomnessTimeout);
      expect(await platform.vrf.consumerIsAdded(factoryVrf.subscriptionId, address)).to.equal(true);
    });

    it("emits the new raffle's setup events from its constructor", async () => {
      const { factory, merchant, vrf } = await loadFixture(platformFixture);
      const [raffleAddress] = await factory.connect(merchant).deployRaffle.staticCall(CONFIG);
      const raffle = Raffle__factory.connect(raffleAddress, merchant);
      const { subscriptionId } = await factory.vrfConfig();
      const tx = factory.connect(merchant).deployRaffle(CONFIG);
      await expect(tx).to.emit(raffle, "VrfConfigSet").withArgs(await vrf.getAddress(), KEY_HASH, subscriptionId);
      await expect(tx).to.emit(raffle, "BeneficiarySet").withArgs(merchant.address);
      await expect(tx)
        .to.emit(raffle, "RoleGranted")
        .withArgs(id("ROUND_MANAGER_ROLE"), merchant.address, await factory.getAddress());
      await expect(tx).to.emit(vrf, "SubscriptionConsumerAdded").withArgs(subscriptionId, raffleAddress);
    });

    it("gives each merchant its own raffle, administered by that merchant only", async () => {
      const platform = await loadFixture(platformFixture);
      const first = await deployRaffle(platform);
      const second = await deployRaffle({ ...platform, merchant: platform.otherMerchant });
      expect(first.address).not.to.equal(second.address);
      expect(first.ticketAddress).not.to.equal(second.ticketAddress);
      expect(await second.raffle.hasRole(ZeroHash, platform.otherMerchant.address)).to.equal(true);
      expect(await second.raffle.hasRole(ZeroHash, platform.merchant.address)).to.equal(false);
      expect(await first.raffle.hasRole(ZeroHash, platform.otherMerchant.address)).to.equal(false);
      expect(await RaffleTicket__factory.connect(second.ticketAddress, platform.admin).raffle()).to.equal(second.address);
    });

    it("rejects a commission above 3000 bps with CommissionTooHigh", async () => {
      const { factory, merchant } = await loadFixture(platformFixture);
      await expect(factory.connect(merchant).deployRaffle({ ...CONFIG, commission: 3_001n }))
        .to.be.revertedWithCustomError(raffleErrors, "CommissionTooHigh")
        .withArgs(3_001n, 3_000n);
      await expect(factory.connect(merchant).deployRaffle({ ...CONFIG, commission: 3_000n })).to.emit(
        factory,
        "RaffleDeployed",
      );
    });

    it("rejects a time lag under one day with TimeLagTooShort", async () => {
      const { factory, merchant } = await loadFixture(platformFixture);
      await expect(factory.connect(merchant).deployRaffle({ ...CONFIG, timeLagBeforeRelease: ONE_DAY - 1n }))
        .to.be.revertedWithCustomError(raffleErrors, "TimeLagTooShort")
        .withArgs(ONE_DAY - 1n, ONE_DAY);
      await expect(factory.connect(merchant).deployRaffle({ ...CONFIG, timeLagBeforeRelease: 0n }))
        .to.be.revertedWithCustomError(raffleErrors, "TimeLagTooShort")
        .withArgs(0n, ONE_DAY);
    });
  });

  describe("VRF subscription administration", () => {
    it("createVrfSubscription makes a new factory-owned subscription the one new raffles use", async () => {
      const platform = await loadFixture(platformFixture);
      const { factory, vrf } = platform;
      const before = (await factory.vrfConfig()).subscriptionId;
      // v2.5 subscription ids hash the previous block, so read the id from the mined transaction.
      const tx = factory.createVrfSubscription();
      const receipt = await (await tx).wait();
      const created = (await factory.vrfConfig()).subscriptionId;
      await expect(tx).to.emit(factory, "VrfConfigSet").withArgs(await vrf.getAddress(), KEY_HASH, created);
      await expect(tx).to.emit(vrf, "SubscriptionCreated").withArgs(created, await factory.getAddress());
      expect(receipt!.status).to.equal(1);
      expect(created).not.to.equal(before);
      expect((await factory.vrfConfig()).subscriptionId).to.equal(created);
      expect((await vrf.getSubscription(created)).subOwner).to.equal(await factory.getAddress());

      const { address } = await deployRaffle(platform);
      expect(await vrf.consumerIsAdded(created, address)).to.equal(true);
      expect(await vrf.consumerIsAdded(before, address)).to.equal(false);
    });

    it("acceptVrfSubscription takes over a subscription offered to the factory", async () => {
      const { factory, vrf, admin } = await loadFixture(platformFixture);
      const receipt = await (await vrf.connect(admin).createSubscription()).wait();
      const subId = receipt!.logs
        .map((log) => vrf.interface.parseLog(log))
        .find((parsed) => parsed?.name === "SubscriptionCreated")!.args.subId as bigint;
      await (await vrf.connect(admin).requestSubscriptionOwnerTransfer(subId, await factory.getAddress())).wait();
      await expect(factory.acceptVrfSubscription(subId))
        .to.emit(factory, "VrfConfigSet")
        .withArgs(await vrf.getAddress(), KEY_HASH, subId);
      expect((await factory.vrfConfig()).subscriptionId).to.equal(subId);
      expect((await vrf.getSubscription(subId)).subOwner).to.equal(await factory.getAddress());
    });

    it("setVrfConfig replaces the settings", async () => {
      const { factory, vrf } = await loadFixture(platformFixture);
      const next = { ...DEFAULT_VRF, coordinator: await vrf.getAddress(), keyHash: `0x${"33".repeat(32)}`, subscriptionId: 9n };
      await expect(factory.setVrfConfig(next))
        .to.emit(factory, "VrfConfigSet")
        .withArgs(next.coordinator, next.keyHash, 9n);
      expect((await factory.vrfConfig()).keyHash).to.equal(next.keyHash);
      expect((await factory.vrfConfig()).subscriptionId).to.equal(9n);
    });

    it("setVrfConfig rejects a zero coordinator, a zero callback gas limit and a timeout under an hour", async () => {
      const { factory } = await loadFixture(platformFixture);
      const current = await factory.vrfConfig();
      const valid = {
        coordinator: current.coordinator,
        keyHash: current.keyHash,
        subscriptionId: current.subscriptionId,
        callbackGasLimit: current.callbackGasLimit,
        requestConfirmations: current.requestConfirmations,
        randomnessTimeout: current.randomnessTimeout,
      };
      for (const bad of invalidVrfConfigs(valid)) {
        await expect(factory.setVrfConfig(bad)).to.be.revertedWithCustomError(factory, "InvalidVrfConfig");
      }
      const stored = await factory.vrfConfig();
      expect([stored.coordinator, stored.callbackGasLimit, stored.randomnessTimeout]).to.deep.equal([
        current.coordinator,
        BigInt(DEFAULT_VRF.callbackGasLimit),
        BigInt(DEFAULT_VRF.randomnessTimeout),
      ]);
    });

    it("setVrfConfig accepts a timeout of exactly one hour, and raffles deployed next accept it too (one shared rule)", async () => {
      const platform = await loadFixture(platformFixture);
      const current = await platform.factory.vrfConfig();
      await expect(
        platform.factory.setVrfConfig({
          coordinator: current.coordinator,
          keyHash: current.keyHash,
          subscriptionId: current.subscriptionId,
          callbackGasLimit: 1n,
          requestConfirmations: current.requestConfirmations,
          randomnessTimeout: ONE_HOUR,
        }),
      ).to.emit(platform.factory, "VrfConfigSet");
      const { raffle } = await deployRaffle(platform);
      const raffleVrf = await raffle.vrfConfig();
      expect([raffleVrf.callbackGasLimit, raffleVrf.randomnessTimeout]).to.deep.equal([1n, ONE_HOUR]);
    });

    it("keeps every VRF administration function admin-only", async () => {
      const { factory, merchant, alice } = await loadFixture(platformFixture);
      const config = { ...DEFAULT_VRF, coordinator: alice.address };
      for (const caller of [merchant, alice]) {
        const asCaller = factory.connect(caller);
        for (const call of [
          () => asCaller.createVrfSubscription(),
          () => asCaller.acceptVrfSubscription(1n),
          () => asCaller.setVrfConfig(config),
        ]) {
          await expect(call())
            .to.be.revertedWithCustomError(factory, "AccessControlUnauthorizedAccount")
            .withArgs(caller.address, ZeroHash);
        }
      }
    });

    it("lets only the admin onboard merchants", async () => {
      const { factory, admin, merchant, alice } = await loadFixture(platformFixture);
      await expect(factory.connect(merchant).grantRole(id("MERCHANT_ROLE"), alice.address))
        .to.be.revertedWithCustomError(factory, "AccessControlUnauthorizedAccount")
        .withArgs(merchant.address, ZeroHash);
      await expect(factory.connect(admin).grantRole(id("MERCHANT_ROLE"), alice.address))
        .to.emit(factory, "RoleGranted")
        .withArgs(id("MERCHANT_ROLE"), alice.address, admin.address);
      await expect(factory.connect(alice).deployRaffle(CONFIG)).to.emit(factory, "RaffleDeployed");

      await expect(factory.connect(admin).revokeRole(id("MERCHANT_ROLE"), alice.address))
        .to.emit(factory, "RoleRevoked")
        .withArgs(id("MERCHANT_ROLE"), alice.address, admin.address);
      await expect(factory.connect(alice).deployRaffle(CONFIG))
        .to.be.revertedWithCustomError(factory, "AccessControlUnauthorizedAccount")
        .withArgs(alice.address, id("MERCHANT_ROLE"));
    });
  });
});
