/**
 * `npm run deploy:platform -- --network <name>` (task `platform deploy`): checks every setting, then deploys the
 * platform as a Hardhat Ignition module with CREATE2 (the same addresses on every chain), and writes
 * contracts/deployments/<chainId>.json from Ignition's results. Re-running resumes an interrupted deployment from
 * Ignition's journal (ignition/deployments/chain-<chainId>); nothing is deployed twice.
 */
import type { HardhatRuntimeEnvironment } from "hardhat/types";
import { ZeroAddress, isAddress } from "ethers";
import {
  IVRFSubscriptionV2Plus__factory,
  PLATFORM_MODULE_ID,
  SettingsError,
  platformPlan,
  platformRecord,
  resolvePlatformSettings,
  saveDeployment,
  type DeployPlatformOptions,
  type DeployTarget,
  type PlatformSettingsInput,
} from "@raffle/chain";

import { platformModule } from "../ignition/modules/platform";
import { actor, chainContext, confirmLiveNetwork, interactive, refuseEphemeralNetwork } from "./context";
import { deployedAddresses, firstConfirmedBlock, ignitionDeploymentDir, recoverLostSends, setAsideStaleLocalJournal } from "./ignition-journal";
import { readPlatformParameters } from "./parameters";

export interface DeployPlatformArgs {
  parameters?: string;
  deploymentId?: string;
}

const log = (line: string): void => console.log(`[deploy:platform] ${line}`);

export async function deployPlatformTask(hre: HardhatRuntimeEnvironment, args: DeployPlatformArgs): Promise<void> {
  refuseEphemeralNetwork(hre);
  const context = await chainContext(hre);
  const deploymentId = args.deploymentId || `chain-${context.chainId}`;
  const deploymentDir = ignitionDeploymentDir(hre, deploymentId);
  const deployer = await actor(hre, "DEPLOYER");
  const target: DeployTarget = { chainId: context.chainId, local: context.local, deployer };

  // Every setting, then what the chain says about them, before anything is sent.
  const parameters = readPlatformParameters(hre, args.parameters);
  const problems = [...parameters.problems];
  let settings: DeployPlatformOptions | undefined;
  try {
    settings = resolvePlatformSettings(parameters.input, target);
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    problems.push(...error.problems);
  }
  // What the chain must already have, named with the settings' problems in one refusal, before any prompt.
  problems.push(
    ...(await onChainProblems(hre, {
      chainId: context.chainId,
      settings,
      input: parameters.input,
      deployer: deployer.address,
      journaledFactory: deployedAddresses(deploymentDir)[`${PLATFORM_MODULE_ID}#RaffleFactory`],
    })),
  );
  if (!settings || problems.length > 0) throw new SettingsError(target, problems);
  log(
    `chain ${context.chainId} (${context.network}${context.local ? ", local" : ""}), deployer ${deployer.address}, settings from ${parameters.file ?? "the environment"}`,
  );

  await confirmLiveNetwork(context, "deploying the platform");
  if (context.local) await setAsideStaleLocalJournal(hre, deploymentDir, log);
  await recoverLostSends(hre, deploymentDir, log);
  const result = await hre.ignition.deploy(platformModule(platformPlan(deployer.address, settings)), {
    strategy: "create2",
    deploymentId,
    defaultSender: deployer.address,
    displayUi: interactive(),
  });

  const contracts = {
    exchange: await result.exchange.getAddress(),
    raffleFactory: await result.raffleFactory.getAddress(),
    ticketDeployer: await result.ticketDeployer.getAddress(),
  };
  const futures = ["Exchange", "RaffleTicketDeployer", "RaffleDeployer", "RaffleFactory"].map((name) => `${PLATFORM_MODULE_ID}#${name}`);
  const record = await platformRecord(hre.ethers.provider, {
    chainId: context.chainId,
    ...contracts,
    vrfIsMock: settings.vrf.coordinator === undefined,
    signer: settings.signer,
    admin: deployer.address,
    deployBlock: firstConfirmedBlock(deploymentDir, futures) ?? (await hre.ethers.provider.getBlockNumber()),
    ignitionDeploymentId: deploymentId,
  });
  const file = saveDeployment(record);
  for (const [name, address] of Object.entries(contracts)) log(`${name} ${address}`);
  log(`VRF coordinator ${record.vrfCoordinator}${record.vrfIsMock ? " (mock)" : ""}, subscription ${record.vrfSubscriptionId}`);
  log(`wrote ${file}`);
}

/** Where Hardhat Ignition's create2 strategy finds CreateX; Ignition puts it there itself only on chain 31337. */
export const CREATEX_ADDRESS = "0xba5Ed099633D3B313e4D5F7bdc1305d3c28ba5Ed";
const IGNITION_OWN_CREATEX_CHAIN = 31337;

interface OnChainInput {
  chainId: number;
  /** The checked settings, or undefined when some are wrong: then the raw values are checked where they parse. */
  settings: DeployPlatformOptions | undefined;
  input: PlatformSettingsInput;
  deployer: string;
  journaledFactory: string | undefined;
}

/** Every on-chain prerequisite the deployment needs to go through to the end that is missing, all of them. */
async function onChainProblems(hre: HardhatRuntimeEnvironment, checked: OnChainInput): Promise<string[]> {
  const { settings, input, deployer, journaledFactory } = checked;
  const provider = hre.ethers.provider;
  const problems: string[] = [];
  const hasCode = async (address: string) => (await provider.getCode(address)) !== "0x";
  if (checked.chainId !== IGNITION_OWN_CREATEX_CHAIN && !(await hasCode(CREATEX_ADDRESS))) {
    problems.push(
      `CreateX: no contract at its canonical address ${CREATEX_ADDRESS} on chain ${checked.chainId}; the create2 deployment needs it ` +
        "(github.com/pcaversaccio/createx: it is on most public chains; on others anyone can submit its keyless deployment transaction)",
    );
  }
  if (deployer !== ZeroAddress && (await provider.getBalance(deployer)) === 0n) problems.push(`the deployer ${deployer} has no funds for gas`);
  for (const token of settings?.priceTokens ?? []) {
    if (!(await hasCode(token))) problems.push(`priceTokens (PRICE_TOKENS): no contract at ${token}`);
  }
  const rawCoordinator = typeof input.vrfCoordinator === "string" && isAddress(input.vrfCoordinator) ? input.vrfCoordinator : undefined;
  const rawSubscription = /^[0-9]+$/.test(String(input.vrfSubscriptionId ?? "")) ? BigInt(String(input.vrfSubscriptionId)) : undefined;
  const coordinator = settings ? settings.vrf.coordinator : rawCoordinator;
  const subscriptionId = settings ? settings.vrf.subscriptionId : rawSubscription;
  if (coordinator === undefined) return problems;
  if (!(await hasCode(coordinator))) {
    problems.push(`vrfCoordinator (VRF_COORDINATOR): no contract at ${coordinator} on this chain`);
    return problems;
  }
  if (subscriptionId === undefined) return problems;
  try {
    const { owner: subOwner } = await IVRFSubscriptionV2Plus__factory.connect(coordinator, provider).getSubscription(subscriptionId);
    const owners = [deployer, journaledFactory].filter(Boolean).map((owner) => owner!.toLowerCase());
    if (!owners.includes(subOwner.toLowerCase())) {
      problems.push(
        `vrfSubscriptionId (VRF_SUBSCRIPTION_ID): subscription ${subscriptionId} is owned by ${subOwner}, not by the deployer ${deployer}`,
      );
    }
  } catch {
    problems.push(`vrfSubscriptionId (VRF_SUBSCRIPTION_ID): coordinator ${coordinator} has no subscription ${subscriptionId}`);
  }
  return problems;
}
