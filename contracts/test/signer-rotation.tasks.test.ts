import { expect } from "chai";
import hre, { ethers } from "hardhat";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Wallet } from "ethers";

import {
  LOCAL_DRAWS_PER_DAY,
  LOCAL_VRF_SETTINGS,
  SIGNER_ROLE,
  deployPlatform,
  readDeployment,
  writeDeployment,
  type PlatformDeployment,
} from "@raffle/chain";

import { compileOnce } from "../tasks/action";

/** Runs `npx hardhat signer <task>` in process, on the in-process chain (31337). */
const signer = (task: string, args: Record<string, unknown> = {}) => hre.run({ scope: "signer", task }, args);

async function refusal(task: Promise<unknown>): Promise<string> {
  try {
    await task;
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("the task did not refuse");
}

/** Issue 31, item 5: grant the next key, switch (nothing on chain), revoke the old one only after the vouchers' lifetime. */
describe("signer rotation tasks: grant-next, switch, revoke-old", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "raffle-signer-rotation-"));
  const previousDir = process.env.DEPLOYMENTS_DIR;
  let snapshot: string;
  let record: PlatformDeployment;
  let outsider: string;
  const next = Wallet.createRandom().address;

  before(async function () {
    // The tasks compile once per process before their first action: done here, where a slow machine may take minutes.
    this.timeout(600_000);
    await compileOnce(hre);
    snapshot = await ethers.provider.send("evm_snapshot", []);
    process.env.DEPLOYMENTS_DIR = dir;
    const [admin, current, merchant, , stranger] = await ethers.getSigners();
    outsider = stranger.address;
    record = await deployPlatform(admin, {
      signer: current.address,
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

  const exchange = async () => await ethers.getContractAt("Exchange", record.exchange);

  it("keeps both keys signing between the grant and the revoke, and refuses the revoke before the longest voucher lifetime", async () => {
    const old = record.signer;
    expect(await refusal(signer("revoke-old", { old, next }))).to.match(new RegExp(`${next} does not hold SIGNER_ROLE: run \`signer grant-next`));
    expect(await refusal(signer("switch", { next }))).to.match(/does not hold SIGNER_ROLE/);
    expect(await refusal(signer("grant-next", { next, from: outsider }))).to.match(/lacks DEFAULT_ADMIN_ROLE on Exchange/);

    await signer("grant-next", { next });
    expect(await (await exchange()).hasRole(SIGNER_ROLE, next)).to.equal(true);
    expect(await (await exchange()).hasRole(SIGNER_ROLE, old)).to.equal(true);
    await signer("grant-next", { next }); // a second grant does nothing
    await signer("switch", { next });

    // Right after the grant, vouchers of the old key may still be valid for SIGNATURE_TTL_SECONDS + a chain check.
    expect(await refusal(signer("revoke-old", { old, next }))).to.match(/too early: vouchers the old key signed .* valid for \d+ s more/);
    expect(await refusal(signer("revoke-old", { old, next, voucherLifetime: "ten" }))).to.match(/--voucher-lifetime: "ten" is not a whole number/);
    expect(await refusal(signer("revoke-old", { old: next, next }))).to.match(/--old and --next are the same key/);
    expect(await (await exchange()).hasRole(SIGNER_ROLE, old)).to.equal(true);

    await ethers.provider.send("evm_increaseTime", [600 + 15]);
    await ethers.provider.send("evm_mine", []);
    expect(await refusal(signer("revoke-old", { old, next, from: outsider }))).to.match(/lacks DEFAULT_ADMIN_ROLE on Exchange/);
    await signer("revoke-old", { old, next });
    expect(await (await exchange()).hasRole(SIGNER_ROLE, old)).to.equal(false);
    expect(await (await exchange()).hasRole(SIGNER_ROLE, next)).to.equal(true);
    expect(readDeployment(31337).signer).to.equal(next);
    expect(await refusal(signer("revoke-old", { old, next }))).to.match(/does not hold SIGNER_ROLE: nothing to revoke/);
  });

  it("takes the API's voucher lifetime as a parameter", async () => {
    const other = Wallet.createRandom().address;
    await signer("grant-next", { next: other });
    expect(await refusal(signer("revoke-old", { old: next, next: other, voucherLifetime: "100", checkInterval: "5" }))).to.match(/too early/);
    await ethers.provider.send("evm_increaseTime", [105]);
    await ethers.provider.send("evm_mine", []);
    await signer("revoke-old", { old: next, next: other, voucherLifetime: "100", checkInterval: "5" });
    expect(await (await exchange()).hasRole(SIGNER_ROLE, next)).to.equal(false);
  });
});
