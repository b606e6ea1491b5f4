import { expect } from "chai";
import hre, { ethers } from "hardhat";
import { Wallet, type Signer } from "ethers";

import {
  Exchange__factory,
  IVRFSubscriptionV2Plus__factory,
  MERCHANT_ROLE,
  RaffleFactory__factory,
  SIGNER_ROLE,
  TestToken__factory,
  VRFCoordinatorV2_5Mock__factory,
  deployPlatform,
  platformPlan,
  resolvePlatformSettings,
  type DeployPlatformOptions,
} from "@raffle/chain";

import { platformModule } from "../ignition/modules/platform";

/** Everything a deployment sets on chain, with the platform's own addresses left out (they differ by strategy). */
async function platformState(deployer: Signer, exchange: string, factory: string, settings: DeployPlatformOptions) {
  const admin = await deployer.getAddress();
  const ex = Exchange__factory.connect(exchange, deployer);
  const fa = RaffleFactory__factory.connect(factory, deployer);
  const vrf = await fa.vrfConfig();
  const subscription = await IVRFSubscriptionV2Plus__factory.connect(vrf.coordinator, deployer).getSubscription(vrf.subscriptionId);
  return {
    signerRole: await ex.hasRole(SIGNER_ROLE, settings.signer),
    exchangeAdmin: await ex.hasRole(await ex.DEFAULT_ADMIN_ROLE(), admin),
    pauser: await ex.hasRole(await ex.PAUSER_ROLE(), admin),
    factoryAdmin: await fa.hasRole(await fa.DEFAULT_ADMIN_ROLE(), admin),
    factoryExchangeIsExchange: (await fa.exchange()) === exchange,
    vrf: [vrf.coordinator, vrf.keyHash, vrf.subscriptionId, vrf.callbackGasLimit, vrf.requestConfirmations, vrf.randomnessTimeout].map(String),
    subscriptionOwnedByFactory: subscription.owner === factory,
    drawsPerDay: await fa.drawsPerDay(),
    priceTokens: await Promise.all((settings.priceTokens ?? []).map((token) => fa.isPriceToken(token))),
    merchants: await Promise.all((settings.merchants ?? []).map((merchant) => fa.hasRole(MERCHANT_ROLE, merchant))),
  };
}

describe("platform deployment: the Ignition module and deployPlatform run one plan", () => {
  let snapshot: string;
  before(async () => {
    snapshot = await ethers.provider.send("evm_snapshot", []);
  });
  after(async () => {
    await ethers.provider.send("evm_revert", [snapshot]);
  });

  it("sets the same roles, VRF settings, subscription owner, draw budget, price tokens and merchants", async () => {
    const [deployer] = await ethers.getSigners();
    const mock = await new VRFCoordinatorV2_5Mock__factory(deployer).deploy(1n, 1n, 1n);
    const token = await new TestToken__factory(deployer).deploy("Gold", "GOLD", deployer.address);
    const coordinator = await mock.getAddress();
    // As a deployer does at vrf.chain.link: one subscription of its own per deployment, handed to the factory.
    const newSubscription = async () => {
      const receipt = (await (await mock.createSubscription()).wait())!;
      return mock.interface.parseLog(receipt.logs[0])!.args.subId as bigint;
    };
    const settingsWith = async () =>
      resolvePlatformSettings(
        {
          signer: Wallet.createRandom().address,
          vrfCoordinator: coordinator,
          vrfKeyHash: `0x${"ab".repeat(32)}`,
          vrfSubscriptionId: (await newSubscription()).toString(),
          merchants: [Wallet.createRandom().address, Wallet.createRandom().address],
          priceTokens: [await token.getAddress()],
          drawsPerDay: 500,
        },
        { chainId: 31337, local: true },
      );

    const viaIgnitionSettings = await settingsWith();
    const result = await hre.ignition.deploy(platformModule(platformPlan(deployer.address, viaIgnitionSettings)), { strategy: "create2" });
    const viaIgnition = await platformState(
      deployer,
      await result.exchange.getAddress(),
      await result.raffleFactory.getAddress(),
      viaIgnitionSettings,
    );

    const directSettings = { ...(await settingsWith()), signer: viaIgnitionSettings.signer, merchants: viaIgnitionSettings.merchants };
    const direct = await deployPlatform(deployer, directSettings);
    const viaEthers = await platformState(deployer, direct.exchange, direct.raffleFactory, directSettings);

    expect(viaIgnition.vrf[2]).not.to.equal(viaEthers.vrf[2]);
    viaIgnition.vrf[2] = viaEthers.vrf[2] = "(each its own subscription)";
    expect(viaIgnition).to.deep.equal(viaEthers);
    expect(viaEthers).to.deep.include({
      signerRole: true,
      subscriptionOwnedByFactory: true,
      drawsPerDay: 500n,
      priceTokens: [true],
      merchants: [true, true],
    });
  });
});
