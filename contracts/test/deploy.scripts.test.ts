import { expect } from "chai";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";

import { Raffle__factory, RaffleFactory__factory, type PlatformDeployment } from "@raffle/chain";
import { startHardhatNode, type HardhatNode } from "@raffle/chain/testing";

const run = promisify(execFile);
const CONTRACTS_DIR = path.join(__dirname, "..");
const HARDHAT_BIN = path.join(CONTRACTS_DIR, "..", "node_modules", ".bin", "hardhat");

/** The local dev flow of the README: `npm run deploy:platform|deploy:raffle -- --network localhost` on chain 31337. */
describe("deploy scripts on a local hardhat node (chain 31337, dev defaults)", () => {
  let node: HardhatNode;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "raffle-deploy-local-"));
  // Journals, records and Hardhat variables of this test stay in its own folders, never in the repository's.
  const env = {
    ...process.env,
    IGNITION_DIR: path.join(scratch, "ignition"),
    DEPLOYMENTS_DIR: path.join(scratch, "deployments"),
    XDG_CONFIG_HOME: path.join(scratch, "config"),
  };
  const hardhat = (args: string[], extra: NodeJS.ProcessEnv = {}) =>
    run(HARDHAT_BIN, [...args, "--network", "localhost"], { cwd: CONTRACTS_DIR, env: { ...env, RPC_URL: node.rpcUrl, ...extra } });

  before(async () => {
    node = await startHardhatNode();
  });

  after(async () => {
    await node?.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it("deploys the platform with the VRF mock, resumes as a no-op, then a merchant raffle with its first round", async () => {
    const platform = await hardhat(["platform", "deploy"]);
    expect(platform.stdout).to.match(/\[deploy:platform\] exchange 0x[0-9a-fA-F]{40}/);
    expect(platform.stdout).to.match(/wrote .*31337\.json/);
    const file = path.join(env.DEPLOYMENTS_DIR, "31337.json");
    const deployment = JSON.parse(fs.readFileSync(file, "utf8")) as PlatformDeployment;
    expect(deployment).to.include({ chainId: 31337, vrfIsMock: true, ignitionDeploymentId: "chain-31337" });

    // A second run finds everything in Ignition's journal: nothing is sent, the record names the same contracts.
    const blockBefore = await node.provider.getBlockNumber();
    await hardhat(["platform", "deploy"]);
    expect(await node.provider.getBlockNumber()).to.equal(blockBefore);
    expect(JSON.parse(fs.readFileSync(file, "utf8"))).to.include({ exchange: deployment.exchange, raffleFactory: deployment.raffleFactory });

    const raffleRun = await hardhat(["raffle", "deploy", "--max-ticket", "7", "--price-amount", "12345", "--ticket-symbol", "LOCAL"]);
    expect(raffleRun.stdout).to.match(/first round started/);
    const result = JSON.parse(raffleRun.stdout.trim().split("\n").pop()!) as { raffle: string; ticket: string };
    const factory = RaffleFactory__factory.connect(deployment.raffleFactory, node.provider);
    expect(await factory.exchange()).to.equal(deployment.exchange);
    const info = await Raffle__factory.connect(result.raffle, node.provider).getCurrentRoundInfo();
    expect(info.roundId).to.equal(1n);
    expect(info.maxTicket).to.equal(7n);
    expect(info.acceptedAsset.amount).to.equal(12345n);
    expect(info.ticketAsset.token).to.equal(result.ticket);
    // Three Hardhat CLI runs, each loading the config and Ignition: over 120 s on a loaded 2-core machine.
  }).timeout(300_000);

  it("never overwrites the record of another deployment", async () => {
    const file = path.join(env.DEPLOYMENTS_DIR, "31337.json");
    const original = fs.readFileSync(file, "utf8");
    const other = { ...JSON.parse(original), exchange: "0x000000000000000000000000000000000000dEaD" };
    fs.writeFileSync(file, JSON.stringify(other));
    const failed = await hardhat(["platform", "deploy"]).then(
      () => "",
      (error: { stderr: string; stdout: string }) => error.stderr + error.stdout,
    );
    expect(failed).to.match(
      /refusing to overwrite .*31337\.json: it records another deployment \(exchange 0x000000000000000000000000000000000000dEaD there/,
    );
    expect(JSON.parse(fs.readFileSync(file, "utf8")).exchange).to.equal(other.exchange);
  });

  it("loads its config and tasks before any compile (a fresh clone has no generated bindings)", async () => {
    // Any require of the generated bindings fails, as on a fresh clone: `--help` must still list the tasks.
    const hook = path.join(scratch, "no-typechain.js");
    fs.writeFileSync(
      hook,
      `const Module = require("module"); const resolve = Module._resolveFilename;
       Module._resolveFilename = function (request, ...rest) {
         if (request.includes("typechain") && !request.includes("@typechain/")) throw new Error("no bindings: " + request);
         return resolve.call(this, request, ...rest);
       };`,
    );
    const help = await run(HARDHAT_BIN, ["--help"], { cwd: CONTRACTS_DIR, env: { ...env, NODE_OPTIONS: `--require ${hook}` } });
    expect(help.stdout).to.match(/platform\s+Deploy and administer the raffle platform/);
    expect(help.stdout).to.match(/raffle\s+A merchant's raffles/);
  });
});
