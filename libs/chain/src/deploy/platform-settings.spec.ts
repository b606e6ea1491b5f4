import { Wallet } from "ethers";

import { LOCAL_DEV_KEYS, localDevPrivateKey, wellKnownDevAccountIndex } from "./dev-accounts";
import { platformPlan } from "./platform-plan";
import { LOCAL_KEY_HASH, SettingsError, resolvePlatformSettings, type DeployTarget, type PlatformSettingsInput } from "./platform-settings";

const own = (seed: number) => new Wallet(`0x${seed.toString(16).padStart(64, "a")}`);
const deployerKey = own(1).privateKey;
const REAL: PlatformSettingsInput = {
  signer: own(2).address,
  vrfCoordinator: "0x9DdfaCa8183c41ad55329BdeeD9F6A8d53168B1B",
  vrfKeyHash: "0x787d74caea10b2b357790d5b5247c2f63d1d91572a9846f780606e4d953677ae",
  vrfSubscriptionId: "73695224490739830815926182485269773582526809004350983370830623188378858758081",
};
const sepolia: DeployTarget = {
  chainId: 11155111,
  local: false,
  deployer: { address: own(1).address, keyConfigured: true, keySetting: "DEPLOYER_PRIVATE_KEY" },
};
const local: DeployTarget = { chainId: 31337, local: true };

function problems(input: PlatformSettingsInput, target: DeployTarget = sepolia): string[] {
  try {
    resolvePlatformSettings(input, target);
  } catch (error) {
    if (error instanceof SettingsError) return error.problems;
    throw error;
  }
  return [];
}

describe("platform settings: dev defaults only on dev chains", () => {
  it("fills every dev default on a local chain: the dev signer, the VRF mock, a subscription the factory creates", () => {
    const settings = resolvePlatformSettings({}, local);
    expect(settings.signer).toBe(new Wallet(LOCAL_DEV_KEYS.voucherSigner).address);
    expect(settings.vrf).toMatchObject({ coordinator: undefined, subscriptionId: undefined, keyHash: LOCAL_KEY_HASH, requestConfirmations: 1 });
    expect(platformPlan(own(1).address, settings).steps.map((step) => (step.kind === "deploy" ? step.contract : step.id))).toEqual([
      "VRFCoordinatorV2_5Mock",
      "Exchange",
      "RaffleTicketDeployer",
      "RaffleDeployer",
      "RaffleFactory",
      "GrantSignerRole",
      "GrantFactoryRole",
      "ProposeVrfConfig",
      "CreateVrfSubscription",
      "FundMockSubscription",
    ]);
  });

  it("accepts complete settings off local chains and hands the subscription over instead of creating one", () => {
    const settings = resolvePlatformSettings({ ...REAL, merchants: `${own(3).address}, ${own(4).address}`, drawsPerDay: "100" }, sepolia);
    expect(settings.vrf.subscriptionId).toBe(BigInt(REAL.vrfSubscriptionId as string));
    expect(settings.vrf.requestConfirmations).toBe(3);
    expect(settings.merchants).toEqual([own(3).address, own(4).address]);
    const steps = platformPlan(own(1).address, settings).steps;
    expect(steps.some((step) => step.kind === "deploy" && step.contract === "VRFCoordinatorV2_5Mock")).toBe(false);
    expect(steps.map((step) => (step.kind === "call" ? step.id : "")).filter(Boolean)).toEqual([
      "GrantSignerRole",
      "GrantFactoryRole",
      "ProposeVrfConfig",
      "RequestSubscriptionTransfer",
      "AcceptVrfSubscription",
      "SetDrawsPerDay",
      `GrantMerchantRole_${own(3).address}`,
      `GrantMerchantRole_${own(4).address}`,
    ]);
  });

  it.each([
    ["signer", /signer \(SIGNER_ADDRESS\): not set; the voucher signer/],
    ["vrfCoordinator", /vrfCoordinator \(VRF_COORDINATOR\): not set \(the VRF mock is only ever deployed on local chains\)/],
    ["vrfKeyHash", /vrfKeyHash \(VRF_KEY_HASH\): not set/],
    ["vrfSubscriptionId", /vrfSubscriptionId \(VRF_SUBSCRIPTION_ID\): not set/],
  ] as const)("refuses a missing %s off local chains, naming it", (name, message) => {
    const found = problems({ ...REAL, [name]: undefined });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(message);
  });

  it("refuses Hardhat's well-known accounts as signer, merchant and deployer off local chains", () => {
    const devSigner = new Wallet(LOCAL_DEV_KEYS.voucherSigner).address;
    const devMerchant = new Wallet(LOCAL_DEV_KEYS.demoMerchant).address;
    const devDeployer = {
      ...sepolia,
      deployer: { address: new Wallet(localDevPrivateKey(0)).address, keyConfigured: true, keySetting: "DEPLOYER_PRIVATE_KEY" },
    };
    const found = problems({ ...REAL, signer: devSigner, merchants: [devMerchant], vrfKeyHash: LOCAL_KEY_HASH }, devDeployer);
    expect(found).toEqual([
      expect.stringMatching(/^signer \(SIGNER_ADDRESS\): .* is Hardhat's public dev account #1/),
      expect.stringMatching(/vrfKeyHash .*local placeholder/),
      expect.stringMatching(/^merchants \(MERCHANT_ADDRESSES\): merchant .* dev account #2/),
      expect.stringMatching(/^the deployer key: account .* dev account #0/),
    ]);
    expect(problems({ ...REAL, signer: devSigner }, local)).toEqual([]);
  });

  it("refuses a deployer that is a node's unlocked account rather than a configured key", () => {
    const unlocked = { ...sepolia, deployer: { address: own(9).address, keyConfigured: false, keySetting: "DEPLOYER_PRIVATE_KEY" } };
    expect(problems(REAL, unlocked)).toEqual([
      expect.stringMatching(/the deployer key: not configured; set DEPLOYER_PRIVATE_KEY \(`npx hardhat vars set/),
    ]);
  });

  it("lists every problem at once, checks bounds, and never echoes a key", () => {
    const found = problems({
      signer: deployerKey,
      vrfRandomnessTimeout: "60",
      vrfCallbackGasLimit: 3_000_000,
      vrfSubscriptionId: 2 ** 60,
      drawsPerDay: "23",
    });
    expect(found.length).toBeGreaterThanOrEqual(7);
    // The factory's floor (MIN_DRAWS_PER_DAY): refused before anything is deployed.
    expect(found.join("\n")).toMatch(/drawsPerDay .* from 24 to/);
    expect(found.join("\n")).toMatch(/vrfRandomnessTimeout .* from 3600 to 604800/);
    expect(found.join("\n")).toMatch(/vrfCallbackGasLimit .* from 1 to 2500000/);
    expect(found.join("\n")).toMatch(/write the id as a string/);
    const error = (() => {
      try {
        resolvePlatformSettings({ signer: deployerKey }, sepolia);
      } catch (caught) {
        return caught as Error;
      }
    })()!;
    expect(error.message).toMatch(/Nothing was deployed/);
    expect(error.message).toMatch(/signer \(SIGNER_ADDRESS\): \(value not shown\) is not an address/);
    expect(error.message).not.toContain(deployerKey.slice(2));
  });

  it("knows the first 20 dev accounts and nothing else", () => {
    expect(wellKnownDevAccountIndex(new Wallet(localDevPrivateKey(19)).address)).toBe(19);
    expect(wellKnownDevAccountIndex(new Wallet(localDevPrivateKey(20)).address)).toBeUndefined();
    expect(wellKnownDevAccountIndex(own(1).address)).toBeUndefined();
  });
});
