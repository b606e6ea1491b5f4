import { expect } from "chai";
import { loadFixture, time } from "@nomicfoundation/hardhat-toolbox/network-helpers";
import { ZeroAddress, ZeroHash, id } from "ethers";

import { RaffleFactory__factory, RaffleTicket__factory, Raffle__factory } from "@raffle/chain";

import { COMMISSION_BPS, DEFAULT_VRF, KEY_HASH, ONE_DAY, deployPlatform, deployRaffle } from "./support/fixtures";
import { latestTimestamp } from "./support/vouchers";

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
    it("stores the Exchange and the ticket deployer, takes no chain-specific value, and starts with no VRF settings", async () => {
      const { factory, exchange, admin } = await loadFixture(platformFixture);
      expect(await factory.exchange()).to.equal(await exchange.getAddress());
      expect(await factory.ticketDeployer()).not.to.equal(ZeroAddress);
      expect(await factory.hasRole(ZeroHash, admin.address)).to.equal(true);
      expect(await factory.MERCHANT_ROLE()).to.equal(id("MERCHANT_ROLE"));
      expect(await factory.drawsPerDay()).to.equal(await factory.DEFAULT_DRAWS_PER_DAY());

      const fresh = await new RaffleFactory__factory(admin).deploy(
        admin.address,
        await exchange.getAddress(),
        await factory.ticketDeployer(),
        await factory.raffleDeployer(),
      );
      expect((await fresh.vrfConfig()).coordinator).to.equal(ZeroAddress);
      await (await fresh.grantRole(id("MERCHANT_ROLE"), admin.address)).wait();
      await expect(fresh.deployRaffle(CONFIG)).to.be.revertedWithCustomError(fresh, "VrfNotConfigured");
      await expect(fresh.createVrfSubscription()).to.be.revertedWithCustomError(fresh, "VrfNotConfigured");
    });

    it("rejects a zero admin, Exchange, ticket deployer or raffle deployer with ZeroAddress", async () => {
      const platform = await loadFixture(platformFixture);
      const deployer = new RaffleFactory__factory(platform.admin);
      const args = [
        platform.admin.address,
        await platform.exchange.getAddress(),
        await platform.factory.ticketDeployer(),
        await platform.factory.raffleDeployer(),
      ];
      for (let i = 0; i < args.length; i += 1) {
        const variant = args.map((arg, index) => (index === i ? ZeroAddress : arg)) as [string, string, string, string];
        await expect(deployer.deploy(...variant)).to.be.revertedWithCustomError(deployer, "ZeroAddress");
      }
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

    it("makes itself the raffle's source of randomness and records the merchant; the raffle is no VRF consumer", async () => {
      const platform = await loadFixture(platformFixture);
      const { address, raffle } = await deployRaffle(platform);
      const factoryVrf = await platform.factory.vrfConfig();
      expect(await raffle.factory()).to.equal(await platform.factory.getAddress());
      expect(await platform.factory.merchantOf(address)).to.equal(platform.merchant.address);
      expect(await platform.factory.raffleCount()).to.equal(1n);
      expect(await platform.vrf.consumerIsAdded(factoryVrf.subscriptionId, address)).to.equal(false);
      expect(await platform.vrf.consumerIsAdded(factoryVrf.subscriptionId, await platform.factory.getAddress())).to.equal(true);
    });

    it("emits the new raffle's setup events from its constructor", async () => {
      const { factory, merchant, vrf } = await loadFixture(platformFixture);
      const [raffleAddress] = await factory.connect(merchant).deployRaffle.staticCall(CONFIG);
      const raffle = Raffle__factory.connect(raffleAddress, merchant);
      const { subscriptionId } = await factory.vrfConfig();
      const tx = factory.connect(merchant).deployRaffle(CONFIG);
      await expect(tx).to.emit(raffle, "BeneficiarySet").withArgs(merchant.address);
      // The raffle's constructor runs under the raffle deployer, which the factory calls.
      await expect(tx)
        .to.emit(raffle, "RoleGranted")
        .withArgs(id("ROUND_MANAGER_ROLE"), merchant.address, await factory.raffleDeployer());
      await expect(tx).not.to.emit(vrf, "SubscriptionConsumerAdded");
      expect(subscriptionId).not.to.equal(0n);
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
      await expect(factory.connect(merchant).deployRaffle({ ...CONFIG, commission: 3_000n })).to.emit(factory, "RaffleDeployed");
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

  describe("VRF administration", () => {
    /** The current VRF settings as a plain struct argument, with some fields replaced. */
    async function vrfWith(factory: Awaited<ReturnType<typeof platformFixture>>["factory"], changes: object = {}) {
      const c = await factory.vrfConfig();
      return {
        coordinator: c.coordinator,
        keyHash: c.keyHash,
        subscriptionId: c.subscriptionId,
        callbackGasLimit: c.callbackGasLimit,
        requestConfirmations: c.requestConfirmations,
        randomnessTimeout: c.randomnessTimeout,
        ...changes,
      };
    }

    it("applies settings at once while no raffle exists (setup), and createVrfSubscription makes a factory-owned one", async () => {
      const platform = await loadFixture(platformFixture);
      const { factory, vrf } = platform;
      const before = (await factory.vrfConfig()).subscriptionId;
      const version = (await factory.vrfVersion()) + 1n;
      // v2.5 subscription ids hash the previous block, so read the id from the mined transaction.
      const tx = factory.createVrfSubscription();
      await (await tx).wait();
      const created = (await factory.vrfConfig()).subscriptionId;
      await expect(tx)
        .to.emit(factory, "VrfConfigSet")
        .withArgs(version, await vrf.getAddress(), KEY_HASH, created);
      await expect(tx)
        .to.emit(vrf, "SubscriptionConsumerAdded")
        .withArgs(created, await factory.getAddress());
      await expect(tx)
        .to.emit(vrf, "SubscriptionCreated")
        .withArgs(created, await factory.getAddress());
      expect(created).not.to.equal(before);
      expect((await vrf.getSubscription(created)).subOwner).to.equal(await factory.getAddress());

      const { address } = await deployRaffle(platform);
      expect(await vrf.consumerIsAdded(created, address)).to.equal(false);
      expect(await vrf.consumerIsAdded(created, await factory.getAddress())).to.equal(true);
    });

    it("acceptVrfSubscription takes over a subscription offered to the factory", async () => {
      const { factory, vrf, admin } = await loadFixture(platformFixture);
      const receipt = await (await vrf.connect(admin).createSubscription()).wait();
      const subId = receipt!.logs.map((log) => vrf.interface.parseLog(log)).find((parsed) => parsed?.name === "SubscriptionCreated")!.args
        .subId as bigint;
      await (await vrf.connect(admin).requestSubscriptionOwnerTransfer(subId, await factory.getAddress())).wait();
      await expect(factory.acceptVrfSubscription(subId))
        .to.emit(factory, "VrfConfigSet")
        .withArgs((await factory.vrfVersion()) + 1n, await vrf.getAddress(), KEY_HASH, subId);
      expect(await vrf.consumerIsAdded(subId, await factory.getAddress())).to.equal(true);
      expect((await factory.vrfConfig()).subscriptionId).to.equal(subId);
      expect((await vrf.getSubscription(subId)).subOwner).to.equal(await factory.getAddress());
    });

    it("transferVrfSubscription hands the subscription to a new owner, who accepts it on the coordinator", async () => {
      const { factory, vrf, alice } = await loadFixture(platformFixture);
      const { subscriptionId } = await factory.vrfConfig();
      await expect(factory.transferVrfSubscription(ZeroAddress)).to.be.revertedWithCustomError(factory, "ZeroAddress");
      await expect(factory.transferVrfSubscription(alice.address))
        .to.emit(vrf, "SubscriptionOwnerTransferRequested")
        .withArgs(subscriptionId, await factory.getAddress(), alice.address);
      await (await vrf.connect(alice).acceptSubscriptionOwnerTransfer(subscriptionId)).wait();
      expect((await vrf.getSubscription(subscriptionId)).subOwner).to.equal(alice.address);
    });

    it("once raffles exist, announces a change and applies it only after VRF_CONFIG_DELAY, by anyone", async () => {
      const platform = await loadFixture(platformFixture);
      const { factory, alice } = platform;
      await deployRaffle(platform);
      const next = await vrfWith(factory, { keyHash: `0x${"33".repeat(32)}`, randomnessTimeout: 2n * ONE_HOUR });
      const tx = factory.proposeVrfConfig(next);
      const effectiveAt = (await latestTimestamp()) + 1n + (await factory.VRF_CONFIG_DELAY());
      await expect(tx)
        .to.emit(factory, "VrfConfigProposed")
        .withArgs(
          next.coordinator,
          next.keyHash,
          next.subscriptionId,
          2n * ONE_HOUR,
          effectiveAt,
          effectiveAt + (await factory.VRF_PROPOSAL_WINDOW()),
        );
      await expect(tx).not.to.emit(factory, "VrfConfigSet");
      expect((await factory.vrfConfig()).keyHash).to.equal(KEY_HASH);
      const [pending, pendingAt] = await factory.pendingVrfConfig();
      expect([pending.keyHash, pendingAt]).to.deep.equal([next.keyHash, effectiveAt]);

      await time.increaseTo(effectiveAt - 10n);
      await expect(factory.connect(alice).applyVrfConfig()).to.be.revertedWithCustomError(factory, "VrfConfigNotYetEffective").withArgs(effectiveAt);
      await time.increaseTo(effectiveAt);
      await expect(factory.connect(alice).applyVrfConfig())
        .to.emit(factory, "VrfConfigSet")
        .withArgs((await factory.vrfVersion()) + 1n, next.coordinator, next.keyHash, next.subscriptionId);
      expect((await factory.vrfConfig()).randomnessTimeout).to.equal(2n * ONE_HOUR);
      expect((await factory.pendingVrfConfig())[1]).to.equal(0n);
      await expect(factory.applyVrfConfig()).to.be.revertedWithCustomError(factory, "NoVrfConfigProposal");
    });

    it("lets the admin withdraw an announced change", async () => {
      const platform = await loadFixture(platformFixture);
      const { factory } = platform;
      await deployRaffle(platform);
      await expect(factory.cancelVrfConfigProposal()).to.be.revertedWithCustomError(factory, "NoVrfConfigProposal");
      await (await factory.proposeVrfConfig(await vrfWith(factory, { callbackGasLimit: 123_456n }))).wait();
      await expect(factory.cancelVrfConfigProposal()).to.emit(factory, "VrfConfigProposalCanceled");
      await time.increase(await factory.VRF_CONFIG_DELAY());
      await expect(factory.applyVrfConfig()).to.be.revertedWithCustomError(factory, "NoVrfConfigProposal");
      expect((await factory.vrfConfig()).callbackGasLimit).to.equal(BigInt(DEFAULT_VRF.callbackGasLimit));
    });

    it("rejects a zero coordinator, a zero callback gas limit, and a timeout outside [1 hour, 7 days]", async () => {
      const { factory } = await loadFixture(platformFixture);
      const valid = await vrfWith(factory);
      for (const bad of [...invalidVrfConfigs(valid), { ...valid, randomnessTimeout: 7n * ONE_DAY + 1n }]) {
        await expect(factory.proposeVrfConfig(bad)).to.be.revertedWithCustomError(factory, "InvalidVrfConfig");
      }
      for (const edge of [ONE_HOUR, 7n * ONE_DAY]) {
        await expect(factory.proposeVrfConfig({ ...valid, randomnessTimeout: edge })).to.emit(factory, "VrfConfigSet");
      }
    });

    it("moves to another subscription with itself as the one consumer, whatever raffles exist", async () => {
      const platform = await loadFixture(platformFixture);
      const { factory, vrf } = platform;
      const { address } = await deployRaffle(platform);
      const receipt = await (await vrf.createSubscription()).wait();
      const subId = receipt!.logs.map((log) => vrf.interface.parseLog(log)).find((parsed) => parsed?.name === "SubscriptionCreated")!.args
        .subId as bigint;
      await (await vrf.requestSubscriptionOwnerTransfer(subId, await factory.getAddress())).wait();
      await (await factory.acceptVrfSubscription(subId)).wait(); // proposed, not applied: raffles exist
      const [, , , , consumers] = await vrf.getSubscription(subId);
      expect(consumers).to.deep.equal([await factory.getAddress()]);
      expect(await vrf.consumerIsAdded(subId, address)).to.equal(false);
    });

    it("keeps every platform setting admin-only", async () => {
      const { factory, merchant, alice, token } = await loadFixture(platformFixture);
      const config = { ...DEFAULT_VRF, coordinator: alice.address };
      for (const caller of [merchant, alice]) {
        const asCaller = factory.connect(caller);
        for (const call of [
          () => asCaller.createVrfSubscription(),
          () => asCaller.acceptVrfSubscription(1n),
          () => asCaller.transferVrfSubscription(caller.address),
          () => asCaller.proposeVrfConfig(config),
          () => asCaller.cancelVrfConfigProposal(),
          () => asCaller.cancelVrfSubscription(alice.address, 1n, alice.address),
          () => asCaller.setPriceToken(token, true),
          () => asCaller.setDrawsPerDay(1_000_000n),
          () => asCaller.setMerchantDrawsPerDay(caller.address, 1_000_000n),
        ]) {
          await expect(call()).to.be.revertedWithCustomError(factory, "AccessControlUnauthorizedAccount").withArgs(caller.address, ZeroHash);
        }
      }
    });

    it("lets only raffles it deployed ask for a draw", async () => {
      const { factory, merchant, alice } = await loadFixture(platformFixture);
      for (const caller of [merchant, alice]) {
        await expect(factory.connect(caller).requestDraw(1n, 1n)).to.be.revertedWithCustomError(factory, "NotARaffle").withArgs(caller.address);
        await expect(factory.connect(caller).authorizeRound(ZeroAddress))
          .to.be.revertedWithCustomError(factory, "NotARaffle")
          .withArgs(caller.address);
      }
    });
  });

  describe("price tokens", () => {
    it("lists and unlists ERC20 price tokens with PriceTokenSet; never an account without code", async () => {
      const { factory, token, alice } = await loadFixture(platformFixture);
      const address = await token.getAddress();
      expect(await factory.isPriceToken(address)).to.equal(true); // listed by the fixture
      await expect(factory.setPriceToken(address, false)).to.emit(factory, "PriceTokenSet").withArgs(address, false);
      expect(await factory.isPriceToken(address)).to.equal(false);
      await expect(factory.setPriceToken(alice.address, true)).to.be.revertedWithCustomError(factory, "NotAContract").withArgs(alice.address);
      await expect(factory.setPriceToken(alice.address, false)).to.emit(factory, "PriceTokenSet");
    });
  });

  describe("merchant onboarding", () => {
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
