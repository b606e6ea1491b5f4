import { parseEther, type Signer } from "ethers";

import {
  Exchange__factory,
  IVRFSubscriptionV2Plus__factory,
  RaffleFactory__factory,
  RaffleTicketDeployer__factory,
  VRFCoordinatorV2_5Mock__factory,
} from "../typechain";
import type { PlatformDeployment } from "./deployment";

export interface VrfSettings {
  /** Existing coordinator; when absent, Chainlink's VRFCoordinatorV2_5Mock is deployed (local chains only). */
  coordinator?: string;
  keyHash: string;
  /** Existing subscription that the deployer owns; it is handed to the factory. Ignored for the mock. */
  subscriptionId?: bigint;
  callbackGasLimit: number;
  requestConfirmations: number;
  randomnessTimeout: number;
}

export interface DeployPlatformOptions {
  /** Address given SIGNER_ROLE on the Exchange (the API's voucher key). */
  signer: string;
  vrf: VrfSettings;
  /** Wallets allowed to deploy raffles through the factory. */
  merchants?: string[];
  /** ERC20 tokens rounds may be priced in (each must move exact amounts: no fee, rebase or callback). */
  priceTokens?: string[];
  /** VRF draws each merchant may have per UTC day; the factory's default (288) when absent. */
  drawsPerDay?: number;
}

export type Progress = (message: string) => void;

export const LOCAL_VRF_SETTINGS: VrfSettings = {
  keyHash: `0x${"11".repeat(32)}`,
  callbackGasLimit: 500_000,
  requestConfirmations: 1,
  randomnessTimeout: 24 * 60 * 60,
};

/** The local stack rotates rounds every minute: far more draws a day than a production merchant needs. */
export const LOCAL_DRAWS_PER_DAY = 10_000;

/** The platform admin allows ERC20 `token` as a round price on the factory (see RaffleFactory.setPriceToken). */
export async function allowPriceToken(admin: Signer, factory: string, token: string): Promise<void> {
  await (await RaffleFactory__factory.connect(factory, admin).setPriceToken(token, true)).wait();
}

/** Deploys Exchange, ticket deployer, factory and (on local chains) the VRF mock, and wires the subscription. */
export async function deployPlatform(
  deployer: Signer,
  options: DeployPlatformOptions,
  progress: Progress = () => undefined,
): Promise<PlatformDeployment> {
  const provider = deployer.provider!;
  const { chainId } = await provider.getNetwork();
  const admin = await deployer.getAddress();
  const startBlock = await provider.getBlockNumber();
  progress(`deploying the platform to chain ${chainId} from ${admin}`);

  let coordinator = options.vrf.coordinator;
  const vrfIsMock = coordinator === undefined;
  if (coordinator === undefined) {
    // Base fee 0.1 LINK, gas price 1 gwei, 0.004 LINK per wei of native: the mock's usual test values.
    const mock = await new VRFCoordinatorV2_5Mock__factory(deployer).deploy(parseEther("0.1"), 1_000_000_000n, parseEther("0.004"));
    await mock.waitForDeployment();
    coordinator = await mock.getAddress();
    progress(`VRFCoordinatorV2_5Mock deployed at ${coordinator}`);
  }

  const exchange = await new Exchange__factory(deployer).deploy(admin);
  await exchange.waitForDeployment();
  await (await exchange.grantRole(await exchange.SIGNER_ROLE(), options.signer)).wait();
  progress(`Exchange deployed at ${await exchange.getAddress()} (signer ${options.signer})`);

  const ticketDeployer = await new RaffleTicketDeployer__factory(deployer).deploy();
  await ticketDeployer.waitForDeployment();
  progress(`RaffleTicketDeployer deployed at ${await ticketDeployer.getAddress()}`);

  const vrfConfig = {
    coordinator,
    keyHash: options.vrf.keyHash,
    subscriptionId: options.vrf.subscriptionId ?? 0n,
    callbackGasLimit: options.vrf.callbackGasLimit,
    requestConfirmations: options.vrf.requestConfirmations,
    randomnessTimeout: options.vrf.randomnessTimeout,
  };
  const factory = await new RaffleFactory__factory(deployer).deploy(admin, await exchange.getAddress(), await ticketDeployer.getAddress());
  await factory.waitForDeployment();
  const factoryAddress = await factory.getAddress();
  // No raffle exists yet, so the settings apply at once; later changes wait out the factory's VRF_CONFIG_DELAY.
  await (await factory.proposeVrfConfig(vrfConfig)).wait();
  progress(`RaffleFactory deployed at ${factoryAddress}`);

  if (vrfIsMock) {
    await (await factory.createVrfSubscription()).wait();
    const { subscriptionId } = await factory.vrfConfig();
    const mock = VRFCoordinatorV2_5Mock__factory.connect(coordinator, deployer);
    await (await mock.fundSubscription(subscriptionId, parseEther("1000000"))).wait();
    progress(`VRF subscription ${subscriptionId} created for the factory and funded`);
  } else if (options.vrf.subscriptionId !== undefined) {
    const subscriptions = IVRFSubscriptionV2Plus__factory.connect(coordinator, deployer);
    await (await subscriptions.requestSubscriptionOwnerTransfer(options.vrf.subscriptionId, factoryAddress)).wait();
    await (await factory.acceptVrfSubscription(options.vrf.subscriptionId)).wait();
    progress(`VRF subscription ${options.vrf.subscriptionId} handed to the factory`);
  }

  if (options.drawsPerDay !== undefined) {
    await (await factory.setDrawsPerDay(options.drawsPerDay)).wait();
    progress(`each merchant may have ${options.drawsPerDay} VRF draws a day`);
  }
  for (const token of options.priceTokens ?? []) {
    await (await factory.setPriceToken(token, true)).wait();
    progress(`rounds may be priced in ${token}`);
  }

  const merchantRole = await factory.MERCHANT_ROLE();
  for (const merchant of options.merchants ?? []) {
    await (await factory.grantRole(merchantRole, merchant)).wait();
    progress(`merchant ${merchant} may deploy raffles`);
  }

  const { subscriptionId, keyHash } = await factory.vrfConfig();
  return {
    chainId: Number(chainId),
    exchange: await exchange.getAddress(),
    raffleFactory: factoryAddress,
    ticketDeployer: await ticketDeployer.getAddress(),
    vrfCoordinator: coordinator,
    vrfKeyHash: keyHash,
    vrfSubscriptionId: subscriptionId.toString(),
    vrfIsMock,
    signer: options.signer,
    admin,
    deployBlock: startBlock + 1,
    deployedAt: new Date().toISOString(),
  };
}
