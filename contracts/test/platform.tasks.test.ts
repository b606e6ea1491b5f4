import { expect } from "chai";
import hre, { ethers } from "hardhat";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Wallet, parseEther } from "ethers";

import {
  IVRFSubscriptionV2Plus__factory,
  LOCAL_DRAWS_PER_DAY,
  LOCAL_VRF_SETTINGS,
  MERCHANT_ROLE,
  SIGNER_ROLE,
  TestToken__factory,
  deployMerchantRaffle,
  deployPlatform,
  readDeployment,
  writeDeployment,
  type PlatformDeployment,
} from "@raffle/chain";

/** Runs `npx hardhat platform <task>` in process, on the in-process chain (31337). */
const platform = (task: string, args: Record<string, unknown> = {}) => hre.run({ scope: "platform", task }, args);

async function refusal(task: Promise<unknown>): Promise<string> {
  try {
    await task;
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("the task did not refuse");
}

describe("platform administration tasks: each succeeds for the admin and refuses a wrong network or a missing role", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "raffle-tasks-"));
  const previousDir = process.env.DEPLOYMENTS_DIR;
  let snapshot: string;
  let record: PlatformDeployment;
  let outsider: string;
  const newSigner = Wallet.createRandom().address;

  before(async () => {
    snapshot = await ethers.provider.send("evm_snapshot", []);
    process.env.DEPLOYMENTS_DIR = dir;
    const [admin, signer, merchant, , stranger] = await ethers.getSigners();
    outsider = stranger.address;
    record = await deployPlatform(admin, {
      signer: signer.address,
      vrf: LOCAL_VRF_SETTINGS,
      merchants: [merchant.address],
      drawsPerDay: LOCAL_DRAWS_PER_DAY,
    });
    writeDeployment(record);
  });

  after(async () => {
    await ethers.provider.send("evm_revert", [snapshot]);
    if (previousDir === undefined) delete process.env.DEPLOYMENTS_DIR;
    else process.env.DEPLOYMENTS_DIR = previousDir;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const factory = async () => await ethers.getContractAt("RaffleFactory", record.raffleFactory);
  const exchange = async () => await ethers.getContractAt("Exchange", record.exchange);

  it("grant-merchant and revoke-merchant", async () => {
    const merchant = Wallet.createRandom().address;
    expect(await refusal(platform("grant-merchant", { merchant, from: outsider }))).to.match(/lacks DEFAULT_ADMIN_ROLE on RaffleFactory/);
    await platform("grant-merchant", { merchant });
    expect(await (await factory()).hasRole(MERCHANT_ROLE, merchant)).to.equal(true);
    expect(await refusal(platform("revoke-merchant", { merchant, from: outsider }))).to.match(/lacks DEFAULT_ADMIN_ROLE/);
    await platform("revoke-merchant", { merchant });
    expect(await (await factory()).hasRole(MERCHANT_ROLE, merchant)).to.equal(false);
    expect(await refusal(platform("revoke-merchant", { merchant }))).to.match(/does not hold MERCHANT_ROLE: nothing to revoke/);
  });

  it("rotate-signer moves SIGNER_ROLE in one transaction and updates the record", async () => {
    expect(await refusal(platform("rotate-signer", { newSigner, from: outsider }))).to.match(/lacks DEFAULT_ADMIN_ROLE on Exchange/);
    await platform("rotate-signer", { newSigner });
    expect(await (await exchange()).hasRole(SIGNER_ROLE, newSigner)).to.equal(true);
    expect(await (await exchange()).hasRole(SIGNER_ROLE, record.signer)).to.equal(false);
    expect(readDeployment(31337).signer).to.equal(newSigner);
    expect(await refusal(platform("rotate-signer", { newSigner: outsider, oldSigner: record.signer }))).to.match(/does not hold SIGNER_ROLE/);
  });

  it("pause and unpause need PAUSER_ROLE", async () => {
    expect(await refusal(platform("pause", { from: outsider }))).to.match(/lacks PAUSER_ROLE on Exchange/);
    await platform("pause");
    expect(await (await exchange()).paused()).to.equal(true);
    expect(await refusal(platform("unpause", { from: outsider }))).to.match(/lacks PAUSER_ROLE/);
    await platform("unpause");
    expect(await (await exchange()).paused()).to.equal(false);
  });

  it("allow-price-token and set-draws-per-day", async () => {
    const [admin] = await ethers.getSigners();
    const token = await (await new TestToken__factory(admin).deploy("Gold", "GOLD", admin.address)).getAddress();
    expect(await refusal(platform("allow-price-token", { token, from: outsider }))).to.match(/lacks DEFAULT_ADMIN_ROLE/);
    expect(await refusal(platform("allow-price-token", { token: outsider }))).to.match(/would revert: .*NotAContract/);
    await platform("allow-price-token", { token });
    expect(await (await factory()).isPriceToken(token)).to.equal(true);
    await platform("allow-price-token", { token, disallow: true });
    expect(await (await factory()).isPriceToken(token)).to.equal(false);
    expect(await refusal(platform("set-draws-per-day", { draws: "0" }))).to.match(/--draws: "0" is not a whole number of at least 1/);
    expect(await refusal(platform("set-draws-per-day", { draws: "500", from: outsider }))).to.match(/lacks DEFAULT_ADMIN_ROLE/);
    expect(await refusal(platform("set-draws-per-day", { draws: "5" }))).to.match(/DrawBudgetBelowFloor\(5, 24\)/);
    await platform("set-draws-per-day", { draws: "20000" });
    expect(await (await factory()).drawsPerDay()).to.equal(20_000n);
  });

  it("propose-vrf-config waits out the notice once a raffle exists; apply-vrf-config applies it after", async () => {
    const [, , merchant] = await ethers.getSigners();
    await deployMerchantRaffle(merchant, {
      factory: record.raffleFactory,
      commission: 1000n,
      timeLagBeforeRelease: 86_400n,
      ticketName: "T",
      ticketSymbol: "T",
    });
    expect(await refusal(platform("propose-vrf-config", { randomnessTimeout: "60" }))).to.match(/vrfRandomnessTimeout .* from 3600 to 604800/);
    expect(await refusal(platform("propose-vrf-config", { randomnessTimeout: "7200", from: outsider }))).to.match(/lacks DEFAULT_ADMIN_ROLE/);
    expect(await refusal(platform("apply-vrf-config"))).to.match(/no VRF settings are announced/);
    await platform("propose-vrf-config", { randomnessTimeout: "7200" });
    expect(await refusal(platform("apply-vrf-config", { from: outsider }))).to.match(/would revert: .*VrfConfigNotYetEffective/);
    await ethers.provider.send("evm_increaseTime", [2 * 24 * 3600]);
    await ethers.provider.send("evm_mine", []);
    await platform("apply-vrf-config", { from: outsider });
    expect((await (await factory()).vrfConfig()).randomnessTimeout).to.equal(7200n);
  });

  it("fund-vrf-subscription and transfer-vrf-subscription", async () => {
    const { coordinator, subscriptionId } = await (await factory()).vrfConfig();
    const subscriptions = IVRFSubscriptionV2Plus__factory.connect(coordinator, ethers.provider);
    const before = (await subscriptions.getSubscription(subscriptionId)).nativeBalance;
    await platform("fund-vrf-subscription", { amount: "0.5", from: outsider });
    expect((await subscriptions.getSubscription(subscriptionId)).nativeBalance - before).to.equal(parseEther("0.5"));
    expect(await refusal(platform("transfer-vrf-subscription", { to: outsider, from: outsider }))).to.match(/lacks DEFAULT_ADMIN_ROLE/);
    await platform("transfer-vrf-subscription", { to: outsider });
    expect(await refusal(platform("transfer-vrf-subscription", { to: "0x0000000000000000000000000000000000000000" }))).to.match(
      /would revert: .*ZeroAddress/,
    );
  });

  it("every task refuses a chain without a recorded deployment, and a record whose contracts are not on this chain", async () => {
    const tasks: Array<[string, Record<string, unknown>]> = [
      ["grant-merchant", { merchant: outsider }],
      ["revoke-merchant", { merchant: outsider }],
      ["rotate-signer", { newSigner: outsider }],
      ["pause", {}],
      ["unpause", {}],
      ["allow-price-token", { token: outsider }],
      ["set-draws-per-day", { draws: "1" }],
      ["propose-vrf-config", {}],
      ["apply-vrf-config", {}],
      ["transfer-vrf-subscription", { to: outsider }],
      ["fund-vrf-subscription", { amount: "1" }],
    ];
    process.env.DEPLOYMENTS_DIR = fs.mkdtempSync(path.join(dir, "empty-"));
    for (const [task, args] of tasks) {
      expect(await refusal(platform(task, args)), task).to.match(/no platform deployment recorded for chain 31337 \(network hardhat\)/);
    }
    writeDeployment({ ...record, exchange: Wallet.createRandom().address });
    expect(await refusal(platform("pause"))).to.match(/the record says Exchange is at 0x[0-9a-fA-F]{40}, but network hardhat has no contract there/);
    process.env.DEPLOYMENTS_DIR = dir;
  });
});

describe("keystore new", () => {
  it("writes an encrypted keystore of a new key, prints only its address, and never overwrites a file", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "raffle-keystore-"));
    try {
      const out = path.join(dir, "signer.json");
      const passwordFile = path.join(dir, "password");
      fs.writeFileSync(passwordFile, "correct horse battery\n");
      const printed: string[] = [];
      const log = console.log;
      console.log = (line: string) => printed.push(line);
      try {
        await hre.run({ scope: "keystore", task: "new" }, { out, passwordFile });
      } finally {
        console.log = log;
      }
      const wallet = await Wallet.fromEncryptedJson(fs.readFileSync(out, "utf8"), "correct horse battery");
      expect(printed).to.deep.equal([wallet.address]);
      expect(fs.statSync(out).mode & 0o777).to.equal(0o600);
      expect(await refusal(hre.run({ scope: "keystore", task: "new" }, { out, passwordFile }))).to.match(/exists: choose another file/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
