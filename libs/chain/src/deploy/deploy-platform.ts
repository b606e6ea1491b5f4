import {
  Contract,
  ContractFactory,
  Interface,
  type ContractTransactionResponse,
  type InterfaceAbi,
  type Signer,
  type TransactionReceipt,
} from "ethers";

import {
  Exchange__factory,
  IVRFSubscriptionV2Plus__factory,
  RaffleFactory__factory,
  RaffleTicketDeployer__factory,
  RaffleDeployer__factory,
  VRFCoordinatorV2_5Mock__factory,
} from "../typechain";
import { LOCAL_CHAIN_IDS } from "./dev-accounts";
import { platformRecord, type PlatformDeployment } from "./deployment";
import { PlanAddress, PlanEventArg, platformPlan, type PlanContract, type PlanDeployed, type PlanValue } from "./platform-plan";
import { LOCAL_KEY_HASH, SettingsError, VRF_DEFAULTS, isLocalChain, platformSettingsProblems } from "./platform-settings";

export interface VrfSettings {
  /** Existing coordinator; when absent, Chainlink's VRFCoordinatorV2_5Mock is deployed (local chains only, never elsewhere). */
  coordinator?: string;
  keyHash: string;
  /** Existing subscription that the deployer owns; it is handed to the factory. When absent (local chains only) the factory creates one. */
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
  keyHash: LOCAL_KEY_HASH,
  callbackGasLimit: VRF_DEFAULTS.callbackGasLimit,
  requestConfirmations: VRF_DEFAULTS.localConfirmations,
  randomnessTimeout: VRF_DEFAULTS.randomnessTimeout,
};

/** The local stack rotates rounds every minute: far more draws a day than a production merchant needs. */
export const LOCAL_DRAWS_PER_DAY = 10_000;

/** The platform admin allows ERC20 `token` as a round price on the factory (see RaffleFactory.setPriceToken). */
export async function allowPriceToken(admin: Signer, factory: string, token: string): Promise<void> {
  await (await RaffleFactory__factory.connect(factory, admin).setPriceToken(token, true)).wait();
}

/**
 * Deploys the platform by running its plan (`platformPlan`) with plain transactions: the fast path of the local stack
 * and the tests. Real chains deploy the same plan through Hardhat Ignition (`npm run deploy:platform`). Settings are
 * checked by the same rules first, so this never deploys the VRF mock, or trusts a well-known key, off local chains.
 */
export async function deployPlatform(
  deployer: Signer,
  options: DeployPlatformOptions,
  progress: Progress = () => undefined,
  localChainIds: readonly number[] = LOCAL_CHAIN_IDS,
): Promise<PlatformDeployment> {
  const provider = deployer.provider!;
  const chainId = Number((await provider.getNetwork()).chainId);
  const admin = await deployer.getAddress();
  const target = {
    chainId,
    local: isLocalChain(chainId, localChainIds),
    deployer: { address: admin, keyConfigured: true, keySetting: "DEPLOYER_PRIVATE_KEY" },
  };
  const problems = platformSettingsProblems(options, target);
  if (problems.length > 0) throw new SettingsError(target, problems);

  const startBlock = await provider.getBlockNumber();
  progress(`deploying the platform to chain ${chainId} from ${admin}`);
  const plan = platformPlan(admin, options);
  const addresses = new Map<PlanContract, string>();
  if (plan.coordinator) addresses.set("VrfCoordinator", plan.coordinator);
  const receipts = new Map<string, TransactionReceipt>();
  const resolve = (value: PlanValue): unknown => {
    if (value instanceof PlanAddress) return addresses.get(value.contract)!;
    if (value instanceof PlanEventArg) return eventArg(value, receipts, addresses);
    if (Array.isArray(value)) return value.map(resolve);
    if (typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, resolve(field)]));
    return value;
  };
  for (const step of plan.steps) {
    const args = step.args.map(resolve);
    if (step.kind === "deploy") {
      const contract = await new ContractFactory(ABIS[step.contract], BYTECODES[step.contract], deployer).deploy(...args);
      await contract.waitForDeployment();
      addresses.set(step.contract, await contract.getAddress());
      if (step.contract === "VRFCoordinatorV2_5Mock") addresses.set("VrfCoordinator", await contract.getAddress());
      progress(`${step.contract} deployed at ${await contract.getAddress()}`);
    } else {
      const contract = new Contract(addresses.get(step.contract)!, ABIS[step.contract], deployer);
      const tx = (await contract.getFunction(step.method)(...args)) as ContractTransactionResponse;
      receipts.set(step.id, (await tx.wait())!);
      progress(step.what);
    }
  }
  return platformRecord(provider, {
    chainId,
    exchange: addresses.get("Exchange")!,
    raffleFactory: addresses.get("RaffleFactory")!,
    ticketDeployer: addresses.get("RaffleTicketDeployer")!,
    vrfIsMock: options.vrf.coordinator === undefined,
    signer: options.signer,
    admin,
    deployBlock: startBlock + 1,
  });
}

const ABIS: Record<PlanContract, InterfaceAbi> = {
  Exchange: Exchange__factory.abi,
  RaffleTicketDeployer: RaffleTicketDeployer__factory.abi,
  RaffleDeployer: RaffleDeployer__factory.abi,
  RaffleFactory: RaffleFactory__factory.abi,
  VRFCoordinatorV2_5Mock: VRFCoordinatorV2_5Mock__factory.abi,
  VrfCoordinator: IVRFSubscriptionV2Plus__factory.abi,
};

const BYTECODES: Record<PlanDeployed, string> = {
  Exchange: Exchange__factory.bytecode,
  RaffleTicketDeployer: RaffleTicketDeployer__factory.bytecode,
  RaffleDeployer: RaffleDeployer__factory.bytecode,
  RaffleFactory: RaffleFactory__factory.bytecode,
  VRFCoordinatorV2_5Mock: VRFCoordinatorV2_5Mock__factory.bytecode,
};

function eventArg(ref: PlanEventArg, receipts: Map<string, TransactionReceipt>, addresses: Map<PlanContract, string>): unknown {
  const emitter = addresses.get(ref.emitter)!.toLowerCase();
  const contract = new Interface(ABIS[ref.emitter]);
  for (const log of receipts.get(ref.step)!.logs.filter((entry) => entry.address.toLowerCase() === emitter)) {
    const parsed = contract.parseLog(log);
    if (parsed?.name === ref.event) return parsed.args.getValue(ref.arg);
  }
  throw new Error(`step ${ref.step} emitted no ${ref.event} from ${ref.emitter}`);
}
