import { Wallet, ZeroAddress, ZeroHash, getAddress, isHexString } from "ethers";
import { PlatformError } from "@raffle/config";

import { LOCAL_CHAIN_IDS, LOCAL_DEV_KEYS, wellKnownDevAccountIndex } from "./dev-accounts";
import type { DeployPlatformOptions, VrfSettings } from "./deploy-platform";

/**
 * The one list of a platform deployment's settings: the key in the Ignition parameters file
 * (`contracts/ignition/parameters/<network>.json`, under `RafflePlatform`), the environment variable that overrides
 * it, and what it is. Messages name settings from here, so a refusal always says what to set and where.
 */
export const PLATFORM_SETTINGS = {
  signer: { env: "SIGNER_ADDRESS", what: "the voucher signer (address of the API's signing key; it gets SIGNER_ROLE)" },
  vrfCoordinator: { env: "VRF_COORDINATOR", what: "the network's Chainlink VRF v2.5 coordinator (docs.chain.link/vrf/v2-5/supported-networks)" },
  vrfKeyHash: { env: "VRF_KEY_HASH", what: "the VRF key hash (gas lane) of that coordinator" },
  vrfSubscriptionId: {
    env: "VRF_SUBSCRIPTION_ID",
    what: "a VRF subscription the deployer owns (create it at vrf.chain.link); it is handed to the factory",
  },
  vrfCallbackGasLimit: { env: "VRF_CALLBACK_GAS_LIMIT", what: "gas for the VRF callback (default 500000)" },
  vrfRequestConfirmations: { env: "VRF_REQUEST_CONFIRMATIONS", what: "blocks the VRF waits (default 1 on local chains, 3 elsewhere)" },
  vrfRandomnessTimeout: { env: "VRF_RANDOMNESS_TIMEOUT", what: "seconds without randomness before refunds open (default 86400)" },
  merchants: { env: "MERCHANT_ADDRESSES", what: "merchant wallets given MERCHANT_ROLE (comma-separated in the environment)" },
  priceTokens: { env: "PRICE_TOKENS", what: "ERC20 tokens rounds may be priced in (comma-separated in the environment)" },
  drawsPerDay: { env: "DRAWS_PER_DAY", what: "VRF draws per merchant per UTC day (the factory's default 288 when absent)" },
} as const;

export type PlatformSettingName = keyof typeof PLATFORM_SETTINGS;
export type PlatformSettingsInput = Partial<Record<PlatformSettingName, unknown>>;

/** The chain a deployment goes to, and who deploys. */
export interface DeployTarget {
  chainId: number;
  /** True on chain ids the Hardhat config marks local (31337 by default): only there do dev defaults apply. */
  local: boolean;
  /** The deploying account, when known; `keyConfigured` is false when it is a node's unlocked account. */
  deployer?: { address: string; keyConfigured: boolean; keySetting: string };
}

/** Every problem found, in one error, so a deployer fixes them in one go; it never carries a key. */
export class SettingsError extends PlatformError {
  constructor(
    readonly target: DeployTarget,
    readonly problems: string[],
  ) {
    super(
      "invalidPlatformSettings",
      `refusing to deploy to chain ${target.chainId}${target.local ? "" : " (not a local chain: dev defaults are refused)"}:\n` +
        problems.map((problem) => `  - ${problem}`).join("\n") +
        "\nNothing was deployed.",
      false,
    );
    this.name = "SettingsError";
  }
}

/** Defaults that are fine on any chain; the security-relevant settings have none off local chains. */
export const VRF_DEFAULTS = { callbackGasLimit: 500_000, randomnessTimeout: 24 * 60 * 60, localConfirmations: 1, confirmations: 3 };
/** Placeholder key hash of local chains (the mock accepts any). */
export const LOCAL_KEY_HASH = `0x${"11".repeat(32)}`;
/** The bounds the contracts and Chainlink's coordinators enforce, checked before anything is sent. */
const LIMITS = {
  callbackGasLimit: [1, 2_500_000],
  requestConfirmations: [0, 200],
  randomnessTimeout: [3_600, 7 * 24 * 3_600],
  // The factory's MIN_DRAWS_PER_DAY: no budget may hold back a merchant rotating hourly.
  drawsPerDay: [24, Number.MAX_SAFE_INTEGER],
} as const;

/** A value for a message, unless it could be a key: 32-byte hex strings (with or without 0x) are never printed. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return /[0-9a-fA-F]{64}/.test(text) || text.length > 50 ? "(value not shown)" : text;
}

function label(name: PlatformSettingName): string {
  return `${name} (${PLATFORM_SETTINGS[name].env})`;
}

function devAccountProblem(what: string, address: string): string | undefined {
  const index = wellKnownDevAccountIndex(address);
  if (index === undefined) return undefined;
  return `${what} ${address} is Hardhat's public dev account #${index}, whose key everyone knows: use an account of your own`;
}

/** Resolves and checks settings read from a parameters file and the environment (strings, numbers, arrays). */
export function resolvePlatformSettings(input: PlatformSettingsInput, target: DeployTarget): DeployPlatformOptions {
  const problems: string[] = [];
  const given = (name: PlatformSettingName): unknown => {
    const value = input[name];
    return value === undefined || value === null || value === "" ? undefined : value;
  };
  const address = (name: PlatformSettingName, value: unknown): string | undefined => {
    try {
      return getAddress(String(value).trim());
    } catch {
      problems.push(`${label(name)}: ${shown(value)} is not an address`);
      return undefined;
    }
  };
  const addressList = (name: PlatformSettingName): string[] => {
    const value = given(name);
    if (value === undefined) return [];
    const items = Array.isArray(value) ? value : String(value).split(",");
    return items
      .map((item) => String(item).trim())
      .filter(Boolean)
      .map((item) => address(name, item))
      .filter((item): item is string => item !== undefined);
  };
  const integer = (name: PlatformSettingName, fallback: number, [min, max]: readonly [number, number]): number => {
    const value = given(name);
    if (value === undefined) return fallback;
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < min || parsed > max) {
      problems.push(`${label(name)}: ${shown(value)} must be a whole number from ${min} to ${max}`);
    }
    return parsed;
  };

  const signerValue = given("signer");
  const signer = signerValue === undefined ? undefined : address("signer", signerValue);
  const coordinatorValue = given("vrfCoordinator");
  const coordinator = coordinatorValue === undefined ? undefined : address("vrfCoordinator", coordinatorValue);
  const keyHashValue = given("vrfKeyHash");
  if (keyHashValue !== undefined && !isHexString(keyHashValue, 32)) {
    problems.push(`${label("vrfKeyHash")}: ${shown(keyHashValue)} is not a 32-byte hex string`);
  }
  const subscriptionValue = given("vrfSubscriptionId");
  let subscriptionId: bigint | undefined;
  if (subscriptionValue !== undefined) {
    if (typeof subscriptionValue === "number" && !Number.isSafeInteger(subscriptionValue)) {
      problems.push(`${label("vrfSubscriptionId")}: write the id as a string, JSON numbers lose its digits`);
    } else if (!/^[0-9]+$/.test(String(subscriptionValue)) || BigInt(String(subscriptionValue)) === 0n) {
      problems.push(`${label("vrfSubscriptionId")}: ${shown(subscriptionValue)} is not a subscription id`);
    } else {
      subscriptionId = BigInt(String(subscriptionValue));
    }
  }
  const drawsValue = given("drawsPerDay");
  const settings: DeployPlatformOptions = {
    // Off local chains a missing setting stays empty (zero), and the rules below name it.
    signer: signer ?? (target.local ? new Wallet(LOCAL_DEV_KEYS.voucherSigner).address : ZeroAddress),
    vrf: {
      coordinator,
      keyHash: keyHashValue === undefined ? (target.local ? LOCAL_KEY_HASH : ZeroHash) : String(keyHashValue),
      subscriptionId,
      callbackGasLimit: integer("vrfCallbackGasLimit", VRF_DEFAULTS.callbackGasLimit, LIMITS.callbackGasLimit),
      requestConfirmations: integer(
        "vrfRequestConfirmations",
        target.local ? VRF_DEFAULTS.localConfirmations : VRF_DEFAULTS.confirmations,
        LIMITS.requestConfirmations,
      ),
      randomnessTimeout: integer("vrfRandomnessTimeout", VRF_DEFAULTS.randomnessTimeout, LIMITS.randomnessTimeout),
    },
    merchants: addressList("merchants"),
    priceTokens: addressList("priceTokens"),
    drawsPerDay: drawsValue === undefined ? undefined : integer("drawsPerDay", 0, LIMITS.drawsPerDay),
  };
  problems.push(...platformSettingsProblems(settings, target));
  if (problems.length > 0) throw new SettingsError(target, problems);
  return settings;
}

/**
 * The rules every platform deployment obeys, whether its settings came from a file (above) or from code
 * (`deployPlatform`): off local chains no well-known key, no VRF mock, no placeholder key hash, an existing
 * subscription, and a deployer whose key was configured rather than a node's unlocked account.
 */
export function platformSettingsProblems(settings: DeployPlatformOptions, target: DeployTarget): string[] {
  const problems: string[] = [];
  const vrf: VrfSettings = settings.vrf;
  if (vrf.randomnessTimeout < LIMITS.randomnessTimeout[0] || vrf.randomnessTimeout > LIMITS.randomnessTimeout[1]) {
    problems.push(`${label("vrfRandomnessTimeout")}: must be from 1 hour to 7 days`);
  }
  if (target.local) return problems;
  const notSet = (name: PlatformSettingName, why = "") => problems.push(`${label(name)}: not set${why}; ${PLATFORM_SETTINGS[name].what}`);
  if (settings.signer === ZeroAddress) notSet("signer");
  const signerProblem = devAccountProblem(`${label("signer")}:`, settings.signer);
  if (signerProblem) problems.push(signerProblem);
  if (vrf.coordinator === undefined) notSet("vrfCoordinator", " (the VRF mock is only ever deployed on local chains)");
  if (vrf.keyHash === ZeroHash) notSet("vrfKeyHash");
  if (vrf.keyHash.toLowerCase() === LOCAL_KEY_HASH) problems.push(`${label("vrfKeyHash")}: the local placeholder is not a real key hash`);
  if (vrf.subscriptionId === undefined) notSet("vrfSubscriptionId");
  for (const merchant of settings.merchants ?? []) {
    const problem = devAccountProblem(`${label("merchants")}: merchant`, merchant);
    if (problem) problems.push(problem);
  }
  const deployer = target.deployer;
  if (deployer && !deployer.keyConfigured) {
    problems.push(
      `the deployer key: not configured; set ${deployer.keySetting} (\`npx hardhat vars set ${deployer.keySetting}\`) ` +
        `or ${deployer.keySetting.replace("_PRIVATE_KEY", "_KEYSTORE_FILE")} on a named network such as sepolia or amoy`,
    );
  } else if (deployer) {
    const problem = devAccountProblem("the deployer key: account", deployer.address);
    if (problem) problems.push(problem);
  }
  return problems;
}

/** Whether `chainId` is a local dev chain under the given list (the Hardhat config's `raffle.localChainIds`). */
export function isLocalChain(chainId: number, localChainIds: readonly number[] = LOCAL_CHAIN_IDS): boolean {
  return localChainIds.includes(chainId);
}
