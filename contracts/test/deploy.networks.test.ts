import { expect } from "chai";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { AbiCoder, Wallet, encryptKeystoreJson } from "ethers";

import { Raffle__factory, RaffleTicket__factory, type PlatformDeployment } from "@raffle/chain";
import { startHardhatNode, type HardhatNode } from "@raffle/chain/testing";
import { createFundedSubscription, deployCoordinator, fund, installCreateX, startExplorer } from "../../tools/test/deploy-support/chain-stand-ins";

const run = promisify(execFile);
const CONTRACTS_DIR = path.join(__dirname, "..");
const HARDHAT_BIN = path.join(CONTRACTS_DIR, "..", "node_modules", ".bin", "hardhat");
/** Base Sepolia's chain id: a chain the code names nowhere. */
const CHAIN_ID = 84532;

interface Outcome {
  code: number;
  output: string;
}

/**
 * A chain that is not in the code, by configuration alone: BASESEPOLIA_RPC_URL (a Hardhat variable here) and
 * BASESEPOLIA_CHAIN_ID (plain environment) give `--network basesepolia`, on a hardhat node with that chain id. The
 * deployer and the merchant sign from encrypted keystores; the raffle and its ticket are verified on an explorer.
 */
describe("deploying to a chain from configuration alone (network basesepolia, chain 84532)", () => {
  let node: HardhatNode;
  let explorer: Awaited<ReturnType<typeof startExplorer>>;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "raffle-deploy-networks-"));
  const deployer = Wallet.createRandom();
  const merchant = Wallet.createRandom();
  const signer = Wallet.createRandom().address;
  const parametersFile = path.join(scratch, "ignition", "parameters", "basesepolia.json");
  let env: NodeJS.ProcessEnv;

  const hardhat = (args: string[], extra: NodeJS.ProcessEnv = {}): Promise<Outcome> =>
    run(HARDHAT_BIN, [...args, "--network", "basesepolia"], { cwd: CONTRACTS_DIR, env: { ...env, ...extra } }).then(
      ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
      (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, output: error.stdout + error.stderr }),
    );
  const writeParameters = (values: Record<string, string>) =>
    fs.writeFileSync(
      parametersFile,
      JSON.stringify({ RafflePlatform: { signer, vrfKeyHash: `0x${"ab".repeat(32)}`, vrfCallbackGasLimit: 500000, ...values } }),
    );
  // A light scrypt cost (N = 2^12, not ethers' 2^17): the keystore's own parameters say how to decrypt it, and each of
  // the seven Hardhat processes below decrypts one or two, 1.6 s of CPU each at the default cost.
  const keystore = async (name: string, wallet: { address: string; privateKey: string }) => {
    const file = path.join(scratch, `${name}.json`);
    fs.writeFileSync(`${file}.password`, `password of ${name}\n`);
    fs.writeFileSync(file, await encryptKeystoreJson(wallet, `password of ${name}`, { scrypt: { N: 1 << 12 } }));
    return { file, passwordFile: `${file}.password` };
  };

  before(async () => {
    [node, explorer] = await Promise.all([startHardhatNode({ chainId: CHAIN_ID }), startExplorer()]);
    fs.mkdirSync(path.dirname(parametersFile), { recursive: true });
    const [deployerKeystore, merchantKeystore] = [await keystore("deployer", deployer), await keystore("merchant", merchant)];
    env = {
      ...process.env,
      XDG_CONFIG_HOME: path.join(scratch, "config"),
      IGNITION_DIR: path.join(scratch, "ignition"),
      DEPLOYMENTS_DIR: path.join(scratch, "deployments"),
      HARDHAT_VAR_BASESEPOLIA_RPC_URL: node.rpcUrl,
      BASESEPOLIA_CHAIN_ID: String(CHAIN_ID),
      BASESEPOLIA_EXPLORER_API_URL: explorer.url,
      HARDHAT_VAR_ETHERSCAN_API_KEY: "explorer-key-of-this-test",
      DEPLOYER_KEYSTORE_FILE: deployerKeystore.file,
      DEPLOYER_KEYSTORE_PASSWORD_FILE: deployerKeystore.passwordFile,
      MERCHANT_KEYSTORE_FILE: merchantKeystore.file,
      MERCHANT_KEYSTORE_PASSWORD_FILE: merchantKeystore.passwordFile,
    };
    delete env.HARDHAT_IGNITION_CONFIRM_DEPLOYMENT;
  });

  after(async () => {
    await Promise.all([node?.stop(), explorer?.stop()]);
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it("names every missing on-chain prerequisite at once, before the confirmation prompt, and sends nothing", async () => {
    const absentCoordinator = Wallet.createRandom().address;
    writeParameters({ vrfCoordinator: absentCoordinator, vrfSubscriptionId: "1" });
    const outcome = await hardhat(["platform", "deploy"]);
    expect(outcome.code).to.not.equal(0);
    expect(outcome.output).to.match(/refusing to deploy to chain 84532/);
    expect(outcome.output).to.match(/CreateX: no contract at its canonical address 0xba5Ed099633D3B313e4D5F7bdc1305d3c28ba5Ed on chain 84532/);
    expect(outcome.output).to.include(`the deployer ${deployer.address} has no funds for gas`);
    expect(outcome.output).to.include(`vrfCoordinator (VRF_COORDINATOR): no contract at ${absentCoordinator}`);
    // Refused before Ignition's prompt (which, with no terminal, would have been the first error).
    expect(outcome.output).to.not.match(/needs a confirmation|Confirm deploy/);
    expect(outcome.output.match(/refusing to deploy/g)).to.have.length(1);
    expect(await node.provider.getBlockNumber()).to.equal(0);

    await installCreateX(node.provider);
    await fund(node.provider, deployer.address);
    const coordinator = await deployCoordinator(await node.provider.getSigner(9));
    writeParameters({ vrfCoordinator: coordinator, vrfSubscriptionId: "999" });
    const blocks = await node.provider.getBlockNumber();
    const second = await hardhat(["platform", "deploy"]);
    expect(second.code).to.not.equal(0);
    expect(second.output).to.include(`vrfSubscriptionId (VRF_SUBSCRIPTION_ID): coordinator ${coordinator} has no subscription 999`);
    expect(second.output).to.not.match(/CreateX|no funds|needs a confirmation/);
    expect(await node.provider.getBlockNumber()).to.equal(blocks);
  });

  it("deploys the platform with the deployer's keystore, then a merchant raffle, and verifies the raffle and its ticket", async function () {
    // Seven Hardhat processes in a row: about 80 s alone on 2 cores, over the 120 s default beside the other suites.
    this.timeout(300_000);
    const coordinator = JSON.parse(fs.readFileSync(parametersFile, "utf8")).RafflePlatform.vrfCoordinator as string;
    const subscription = await createFundedSubscription(coordinator, deployer.connect(node.provider));
    writeParameters({ vrfCoordinator: coordinator, vrfSubscriptionId: subscription.toString() });
    const deployed = await hardhat(["platform", "deploy"], { HARDHAT_IGNITION_CONFIRM_DEPLOYMENT: "1" });
    expect(deployed.code, deployed.output).to.equal(0);
    expect(deployed.output).to.match(/wrote .*84532\.json/);
    // Non-TTY output: each of Ignition's batches once, not redrawn as a new copy at every status change.
    expect(deployed.output.match(/Batch #1/g) ?? []).to.have.length.at.most(1);
    const record = JSON.parse(fs.readFileSync(path.join(env.DEPLOYMENTS_DIR!, `${CHAIN_ID}.json`), "utf8")) as PlatformDeployment;
    expect(record).to.include({ chainId: CHAIN_ID, admin: deployer.address, signer, vrfIsMock: false });

    await fund(node.provider, merchant.address);
    expect((await hardhat(["platform", "grant-merchant", "--merchant", merchant.address])).code).to.equal(0);
    const raffleRun = await hardhat(["raffle", "deploy", "--ticket-name", "Base Raffle", "--ticket-symbol", "BASE"], {
      HARDHAT_IGNITION_CONFIRM_DEPLOYMENT: "1",
    });
    expect(raffleRun.code, raffleRun.output).to.equal(0);
    const { raffle, ticket } = JSON.parse(raffleRun.output.trim().split("\n").pop()!) as { raffle: string; ticket: string };
    expect(await Raffle__factory.connect(raffle, node.provider).hasRole(`0x${"00".repeat(32)}`, merchant.address)).to.equal(true);

    const verified = await hardhat(["raffle", "verify"]);
    expect(verified.code, verified.output).to.equal(0);
    const coder = AbiCoder.defaultAbiCoder();
    const raffleArgs = coder.encode(
      ["tuple(address,address,address,address,uint256,uint256,string,string)"],
      [[merchant.address, record.raffleFactory, record.exchange, record.ticketDeployer, 1000n, 86400n, "Base Raffle", "BASE"]],
    );
    const ticketArgs = coder.encode(["string", "string", "address"], ["Base Raffle", "BASE", raffle]);
    expect(
      explorer.submissions.map(({ contractName, address, apiKey, constructorArguments }) => [contractName, address, apiKey, constructorArguments]),
    ).to.deep.equal([
      ["src/Raffle.sol:Raffle", raffle, "explorer-key-of-this-test", raffleArgs.slice(2)],
      ["src/RaffleTicket.sol:RaffleTicket", ticket, "explorer-key-of-this-test", ticketArgs.slice(2)],
    ]);
    expect(await RaffleTicket__factory.connect(ticket, node.provider).raffle()).to.equal(raffle);

    // Ignition's own command on the raffle's deployment does the same (Ignition alone answers IGN1001 there).
    const byIgnition = await hardhat(["ignition", "verify", `chain-${CHAIN_ID}-raffle-BASE`]);
    expect(byIgnition.code, byIgnition.output).to.equal(0);
    expect(explorer.submissions.slice(2).map(({ contractName, address }) => [contractName, address])).to.deep.equal([
      ["src/Raffle.sol:Raffle", raffle],
      ["src/RaffleTicket.sol:RaffleTicket", ticket],
    ]);
  });
});
