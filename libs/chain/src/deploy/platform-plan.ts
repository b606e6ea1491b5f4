import { id, parseEther } from "ethers";

import type { DeployPlatformOptions } from "./deploy-platform";

/**
 * What a platform deployment consists of, as data: the contracts and, in order, the calls that wire them. Both ways
 * of deploying read this one list: `deployPlatform` (ethers, fast, for the local stack and tests) and the Hardhat
 * Ignition module (`contracts/ignition/modules/platform.ts`, journaled and resumable, with CREATE2 addresses, for real
 * chains). A change here changes both; neither can drift from the other.
 */

/** The Ignition module id; also the key of its settings in a parameters file. */
export const PLATFORM_MODULE_ID = "RafflePlatform";

/** Contracts the plan deploys. Their names are artifact names and Ignition future ids. */
export type PlanDeployed = "Exchange" | "RaffleTicketDeployer" | "RaffleDeployer" | "RaffleFactory" | "VRFCoordinatorV2_5Mock";
/** `VrfCoordinator` is the coordinator in use: the given one (IVRFSubscriptionV2Plus), or the mock on local chains. */
export type PlanContract = PlanDeployed | "VrfCoordinator";

/** The address of a contract of the plan, known once it is deployed. */
export class PlanAddress {
  constructor(readonly contract: PlanContract) {}
}

/** An argument of an event emitted by an earlier call of the plan (the id of a subscription created on chain). */
export class PlanEventArg {
  constructor(
    readonly step: string,
    readonly emitter: PlanContract,
    readonly event: string,
    readonly arg: string,
  ) {}
}

export type PlanValue = string | number | bigint | boolean | PlanAddress | PlanEventArg | PlanValue[] | { [field: string]: PlanValue };

export type PlanStep =
  | { kind: "deploy"; contract: PlanDeployed; args: PlanValue[] }
  | { kind: "call"; id: string; contract: PlanContract; method: string; args: PlanValue[]; what: string };

export interface PlatformPlan {
  /** An existing coordinator; absent when the plan deploys the mock. */
  coordinator?: string;
  steps: PlanStep[];
}

export const SIGNER_ROLE = id("SIGNER_ROLE");
export const MERCHANT_ROLE = id("MERCHANT_ROLE");
export const FACTORY_ROLE = id("FACTORY_ROLE");
/** Base fee 0.1 LINK, gas price 1 gwei, 0.004 LINK per wei of native: the mock's usual test values. */
export const VRF_MOCK_ARGS = [parseEther("0.1"), 1_000_000_000n, parseEther("0.004")];
export const VRF_MOCK_FUNDING = parseEther("1000000");

/** The steps of deploying the platform administered by `admin` with checked `settings`. */
export function platformPlan(admin: string, settings: DeployPlatformOptions): PlatformPlan {
  const { vrf } = settings;
  const useMock = vrf.coordinator === undefined;
  const coordinator = useMock ? new PlanAddress("VRFCoordinatorV2_5Mock") : vrf.coordinator!;
  const steps: PlanStep[] = [];
  const call = (stepId: string, contract: PlanContract, method: string, args: PlanValue[], what: string) =>
    steps.push({ kind: "call", id: stepId, contract, method, args, what });

  if (useMock) steps.push({ kind: "deploy", contract: "VRFCoordinatorV2_5Mock", args: VRF_MOCK_ARGS });
  // The Exchange and the factory take no chain-specific argument, so CREATE2 gives them one address on every chain.
  steps.push({ kind: "deploy", contract: "Exchange", args: [admin] });
  steps.push({ kind: "deploy", contract: "RaffleTicketDeployer", args: [] });
  steps.push({ kind: "deploy", contract: "RaffleDeployer", args: [] });
  steps.push({
    kind: "deploy",
    contract: "RaffleFactory",
    args: [admin, new PlanAddress("Exchange"), new PlanAddress("RaffleTicketDeployer"), new PlanAddress("RaffleDeployer")],
  });
  call("GrantSignerRole", "Exchange", "grantRole", [SIGNER_ROLE, settings.signer], `SIGNER_ROLE granted to ${settings.signer}`);
  // The Exchange sells only raffles the factory lists there, as it deploys them.
  call(
    "GrantFactoryRole",
    "Exchange",
    "grantRole",
    [FACTORY_ROLE, new PlanAddress("RaffleFactory")],
    "the factory lists its raffles on the Exchange",
  );
  // No raffle exists yet, so the settings apply at once; later changes wait out the factory's VRF_CONFIG_DELAY.
  // The subscription comes after: the factory only accepts one it is a consumer of (it becomes one when it creates
  // or accepts it).
  const config = {
    coordinator,
    keyHash: vrf.keyHash,
    subscriptionId: 0n,
    callbackGasLimit: vrf.callbackGasLimit,
    requestConfirmations: vrf.requestConfirmations,
    randomnessTimeout: vrf.randomnessTimeout,
  };
  call("ProposeVrfConfig", "RaffleFactory", "proposeVrfConfig", [config], "VRF settings set");
  if (vrf.subscriptionId === undefined) {
    call("CreateVrfSubscription", "RaffleFactory", "createVrfSubscription", [], "VRF subscription created for the factory");
    if (useMock) {
      const subId = new PlanEventArg("CreateVrfSubscription", "VRFCoordinatorV2_5Mock", "SubscriptionCreated", "subId");
      call("FundMockSubscription", "VRFCoordinatorV2_5Mock", "fundSubscription", [subId, VRF_MOCK_FUNDING], "mock subscription funded");
    }
  } else {
    const factory = new PlanAddress("RaffleFactory");
    call(
      "RequestSubscriptionTransfer",
      "VrfCoordinator",
      "requestSubscriptionOwnerTransfer",
      [vrf.subscriptionId, factory],
      `VRF subscription ${vrf.subscriptionId} offered to the factory`,
    );
    call("AcceptVrfSubscription", "RaffleFactory", "acceptVrfSubscription", [vrf.subscriptionId], "the factory owns the VRF subscription");
  }
  if (settings.drawsPerDay !== undefined) {
    call(
      "SetDrawsPerDay",
      "RaffleFactory",
      "setDrawsPerDay",
      [settings.drawsPerDay],
      `each merchant may have ${settings.drawsPerDay} VRF draws a day`,
    );
  }
  for (const token of settings.priceTokens ?? []) {
    call(`AllowPriceToken_${token}`, "RaffleFactory", "setPriceToken", [token, true], `rounds may be priced in ${token}`);
  }
  for (const merchant of settings.merchants ?? []) {
    call(`GrantMerchantRole_${merchant}`, "RaffleFactory", "grantRole", [MERCHANT_ROLE, merchant], `merchant ${merchant} may deploy raffles`);
  }
  return { coordinator: vrf.coordinator, steps };
}
