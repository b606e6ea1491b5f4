import type { ChildProcess } from "node:child_process";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Wallet, type JsonRpcProvider } from "ethers";
import {
  Exchange__factory,
  IVRFSubscriptionV2Plus__factory,
  LOCAL_DEV_KEYS,
  RaffleFactory__factory,
  Raffle__factory,
  SIGNER_ROLE,
  type PlatformDeployment,
} from "@raffle/chain";
import { startHardhatNode, type HardhatNode } from "@raffle/chain/testing";
import { createTestDatabase, type TestDatabase } from "@raffle/db/testing";
import { RaffleApi } from "@raffle/sdk";

import { RpcGate } from "../reliability/rpc-gate";
import { CREATEX_ADDRESS, createFundedSubscription, deployCoordinator, fund, installCreateX, startExplorer } from "./deploy-support/chain-stand-ins";
import { ROOT, readmeWalkthrough, runCommand, startCommand, stopGroup, type Outcome, type WalkthroughCommand } from "./deploy-support/commands";

/** The deployer guide's Sepolia walkthrough (docs/guides/deployer.md), command for command; the first test holds the guide to exactly this list. */
const c = (command: string): WalkthroughCommand => ({ cwd: "contracts", command });
const r = (command: string): WalkthroughCommand => ({ cwd: "root", command });
const W = {
  setRpc: c("npx hardhat vars set SEPOLIA_RPC_URL"),
  setExplorerKey: c("npx hardhat vars set ETHERSCAN_API_KEY"),
  deployerPassword: c(`mkdir -p "$SECRETS" && openssl rand -hex 24 > "$SECRETS/deployer.password"`),
  deployerKeystore: c(`npx hardhat keystore new --out "$SECRETS/deployer.json" --password-file "$SECRETS/deployer.password"`),
  setDeployerKeystore: c(`npx hardhat vars set DEPLOYER_KEYSTORE_FILE "$SECRETS/deployer.json"`),
  setDeployerPassword: c(`npx hardhat vars set DEPLOYER_KEYSTORE_PASSWORD_FILE "$SECRETS/deployer.password"`),
  signerPassword: c(`openssl rand -hex 24 > "$SECRETS/signer.password"`),
  signerKeystore: c(`npx hardhat keystore new --out "$SECRETS/signer.json" --password-file "$SECRETS/signer.password"`),
  deploy: c("npm run deploy:platform -- --network sepolia"),
  verify: c("npx hardhat ignition verify chain-11155111 --network sepolia"),
  merchantPassword: c(`openssl rand -hex 24 > "$SECRETS/merchant.password"`),
  merchantKeystore: c(`npx hardhat keystore new --out "$SECRETS/merchant.json" --password-file "$SECRETS/merchant.password"`),
  grant: c("npx hardhat platform grant-merchant --network sepolia --merchant $MERCHANT_ADDRESS"),
  fundVrf: c("npx hardhat platform fund-vrf-subscription --network sepolia --amount 0.5"),
  deployRaffle: c(
    `MERCHANT_KEYSTORE_FILE="$SECRETS/merchant.json" MERCHANT_KEYSTORE_PASSWORD_FILE="$SECRETS/merchant.password" ` +
      `npm run deploy:raffle -- --network sepolia --ticket-name "Gold Raffle" --ticket-symbol GOLD --max-ticket 100`,
  ),
  webhookKey: r(`openssl rand -hex 32 > "$SECRETS/webhook.key"`),
  api: r(
    `WEBHOOK_ENCRYPTION_KEY_FILE="$SECRETS/webhook.key" SIGNER_KEYSTORE_FILE="$SECRETS/signer.json" SIGNER_KEYSTORE_PASSWORD_FILE="$SECRETS/signer.password" node dist/apps/api/src/main.js`,
  ),
  apiKey: r("npm run api-key -- create --merchant $MERCHANT_ADDRESS"),
  worker: r(
    `RELAYER_ENABLED=false MERCHANT_KEYSTORE_FILE="$SECRETS/merchant.json" MERCHANT_KEYSTORE_PASSWORD_FILE="$SECRETS/merchant.password" node dist/apps/merchant-worker/src/main.js --once`,
  ),
};
const WALKTHROUGH = [
  W.setRpc,
  W.setExplorerKey,
  W.deployerPassword,
  W.deployerKeystore,
  W.setDeployerKeystore,
  W.setDeployerPassword,
  W.signerPassword,
  W.signerKeystore,
  W.deploy,
  W.verify,
];
const WALKTHROUGH_MERCHANT = [W.merchantPassword, W.merchantKeystore, W.grant, W.fundVrf, W.deployRaffle, W.webhookKey, W.api, W.apiKey, W.worker];

const SEPOLIA = 11155111;
const AMOY = 80002;
const lastAddress = (output: string) => [...output.matchAll(/0x[0-9a-fA-F]{40}/g)].pop()![0];
const expectOk = (outcome: Outcome) => {
  if (outcome.code !== 0) throw new Error(`exited with ${outcome.code ?? outcome.signal}:\n${outcome.output.slice(-4000)}`);
  return outcome.output;
};
/** Files git does not know yet: a key, a journal or a record written into the repository would show here. */
const untrackedFiles = () =>
  execFileSync("git", ["status", "--porcelain", "--untracked-files=all"], { cwd: ROOT })
    .toString()
    .split("\n")
    .filter((line) => line.startsWith("??"));

describe("deploying to real chains: the deployer guide's walkthrough on Sepolia's chain id, resume on Amoy's, the same addresses on both", () => {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "raffle-deploy-e2e-"));
  // The deployer's key: made by the walkthrough in an encrypted keystore, decrypted here to fund it and to act as it.
  let deployer: Wallet;
  const untrackedBefore = untrackedFiles();
  let sepolia: HardhatNode;
  let amoy: HardhatNode;
  let explorer: Awaited<ReturnType<typeof startExplorer>>;
  let database: TestDatabase;
  let api: ChildProcess | undefined;
  let gate: RpcGate | undefined;
  let env: NodeJS.ProcessEnv;
  const found: { signer?: string; merchant?: string; sepoliaRecord?: PlatformDeployment; raffle?: string } = {};

  beforeAll(async () => {
    [sepolia, amoy, explorer, database] = await Promise.all([
      // Sepolia's stand-in mines a block every 200 ms as a real chain would: the indexer and the worker wait for depth.
      startHardhatNode({ chainId: SEPOLIA, miningIntervalMs: 200 }),
      startHardhatNode({ chainId: AMOY }),
      startExplorer(),
      createTestDatabase("deploy_e2e"),
    ]);
    await Promise.all([installCreateX(sepolia.provider), installCreateX(amoy.provider)]);
    const ignitionDir = path.join(scratch, "ignition");
    fs.cpSync(path.join(ROOT, "contracts/ignition/parameters"), path.join(ignitionDir, "parameters"), { recursive: true });
    env = {
      ...process.env,
      // Where this run keeps what a deployer keeps at home: Hardhat variables, secrets, journals, records.
      XDG_CONFIG_HOME: path.join(scratch, "config"),
      SECRETS: path.join(scratch, "secrets"),
      IGNITION_DIR: ignitionDir,
      DEPLOYMENTS_DIR: path.join(scratch, "deployments"),
      ETHERSCAN_API_URL: explorer.url,
      HARDHAT_IGNITION_CONFIRM_DEPLOYMENT: "1",
      // The services' environment (deployer guide: "Run the API and the worker").
      CHAIN_ID: String(SEPOLIA),
      RPC_URL: sepolia.rpcUrl,
      DATABASE_URL: database.url,
      HEALTH_PORT: "0",
      LOG_LEVEL: "warn",
    };
  }, 120_000);

  afterAll(async () => {
    await stopGroup(api);
    await gate?.close();
    await Promise.all([sepolia?.stop(), amoy?.stop(), explorer?.stop(), database?.drop()]);
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it("runs exactly the deployer guide's walkthrough commands", () => {
    expect(readmeWalkthrough()).toEqual([...WALKTHROUGH, ...WALKTHROUGH_MERCHANT]);
    const documented = JSON.parse(fs.readFileSync(path.join(ROOT, "contracts/ignition/parameters/sepolia.json"), "utf8")).RafflePlatform;
    // Chainlink's documented Sepolia VRF v2.5 coordinator and 100 gwei key hash (docs.chain.link/vrf/v2-5/supported-networks).
    expect(documented).toMatchObject({
      vrfCoordinator: "0x9DdfaCa8183c41ad55329BdeeD9F6A8d53168B1B",
      vrfKeyHash: "0x787d74caea10b2b357790d5b5247c2f63d1d91572a9846f780606e4d953677ae",
    });
  });

  it("refuses every dev default on a node with Amoy's chain id, naming each setting, and deploys nothing", async () => {
    const outcome = await runCommand(r("npm run deploy:platform -- --network localhost"), {
      ...env,
      RPC_URL: amoy.rpcUrl,
      MERCHANT_ADDRESSES: new Wallet(LOCAL_DEV_KEYS.demoMerchant).address,
    });
    expect(outcome.code).not.toBe(0);
    for (const problem of [
      /refusing to deploy to chain 80002 \(not a local chain: dev defaults are refused\)/,
      /signer \(SIGNER_ADDRESS\): not set; the voucher signer/,
      /vrfCoordinator \(VRF_COORDINATOR\): not set \(the VRF mock is only ever deployed on local chains\)/,
      /vrfKeyHash \(VRF_KEY_HASH\): not set/,
      /vrfSubscriptionId \(VRF_SUBSCRIPTION_ID\): not set/,
      /merchants \(MERCHANT_ADDRESSES\): merchant 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC is Hardhat's public dev account #2/,
      /the deployer key: not configured; set DEPLOYER_PRIVATE_KEY/,
      /Nothing was deployed/,
    ]) {
      expect(outcome.output).toMatch(problem);
    }
    expect(await amoy.provider.getBlockNumber()).toBe(0);
    expect(fs.existsSync(path.join(env.IGNITION_DIR!, "deployments"))).toBe(false);
    expect(fs.existsSync(path.join(env.DEPLOYMENTS_DIR!, `${AMOY}.json`))).toBe(false);
  });

  it("walks through the platform deployment on Sepolia's chain id: keys, signer keystore, VRF subscription, deploy, verify", async () => {
    expectOk(await runCommand(W.setRpc, env, `${sepolia.rpcUrl}\n`));
    expectOk(await runCommand(W.setExplorerKey, env, "explorer-key-of-this-test\n"));
    expectOk(await runCommand(W.deployerPassword, env));
    const deployerAddress = lastAddress(expectOk(await runCommand(W.deployerKeystore, env)));
    expectOk(await runCommand(W.setDeployerKeystore, env));
    expectOk(await runCommand(W.setDeployerPassword, env));
    const secret = (name: string) => fs.readFileSync(path.join(env.SECRETS!, name), "utf8");
    deployer = Wallet.fromEncryptedJsonSync(secret("deployer.json"), secret("deployer.password").trim()) as Wallet;
    expect(deployer.address).toBe(deployerAddress);
    // The faucet, on both chains (the same key deploys to Amoy below).
    await Promise.all([fund(sepolia.provider, deployer.address), fund(amoy.provider, deployer.address)]);
    // Hardhat's plain-text vars file holds paths, never a key.
    const varsFile = fs.readFileSync(path.join(env.XDG_CONFIG_HOME!, "hardhat-nodejs", "vars.json"), "utf8");
    expect(varsFile).toContain("DEPLOYER_KEYSTORE_FILE");
    expect(varsFile).not.toContain(deployer.privateKey.slice(2));
    expect(varsFile).not.toContain(secret("deployer.password").trim());
    expectOk(await runCommand(W.signerPassword, env));
    found.signer = lastAddress(expectOk(await runCommand(W.signerKeystore, env)));

    // At vrf.chain.link the deployer creates and funds a subscription on Chainlink's coordinator (its mock here).
    const coordinator = await deployCoordinator(await sepolia.provider.getSigner(9));
    const subscription = await createFundedSubscription(coordinator, deployer.connect(sepolia.provider));
    editParameters("sepolia", { signer: found.signer, vrfCoordinator: coordinator, vrfSubscriptionId: subscription.toString() });

    const deployed = expectOk(await runCommand(W.deploy, env));
    expect(deployed).toMatch(/wrote .*11155111\.json/);
    expect(deployed).not.toContain(deployer.privateKey.slice(2));
    const record = readRecord(SEPOLIA);
    found.sepoliaRecord = record;
    await expectCompletePlatform(sepolia.provider, record, found.signer, coordinator, subscription);

    expectOk(await runCommand(W.verify, env));
    expect(explorer.submissions.map(({ contractName, address, apiKey }) => [contractName, address, apiKey]).sort()).toEqual(
      [
        ["src/Exchange.sol:Exchange", record.exchange, "explorer-key-of-this-test"],
        ["src/RaffleFactory.sol:RaffleFactory", record.raffleFactory, "explorer-key-of-this-test"],
        [
          "src/RaffleDeployer.sol:RaffleDeployer",
          await RaffleFactory__factory.connect(record.raffleFactory, sepolia.provider).raffleDeployer(),
          "explorer-key-of-this-test",
        ],
        ["src/RaffleTicketDeployer.sol:RaffleTicketDeployer", record.ticketDeployer, "explorer-key-of-this-test"],
      ].sort(),
    );
  });

  it("walks through a merchant: key, MERCHANT_ROLE, VRF funding, a raffle, the API and the worker rotating its round", async () => {
    expectOk(await runCommand(W.merchantPassword, env));
    found.merchant = lastAddress(expectOk(await runCommand(W.merchantKeystore, env)));
    await fund(sepolia.provider, found.merchant, "10");
    const merchantEnv = { ...env, MERCHANT_ADDRESS: found.merchant };

    expectOk(await runCommand(W.grant, merchantEnv));
    expectOk(await runCommand(W.fundVrf, merchantEnv));
    const raffleOutput = expectOk(await runCommand(W.deployRaffle, merchantEnv));
    const { raffle } = JSON.parse(raffleOutput.trim().split("\n").pop()!) as { raffle: string };
    expect(
      await Raffle__factory.connect(raffle, sepolia.provider).hasRole(
        await Raffle__factory.connect(raffle, sepolia.provider).DEFAULT_ADMIN_ROLE(),
        found.merchant,
      ),
    ).toBe(true);

    const port = 20_000 + Math.floor(Math.random() * 20_000);
    // The API at info: its "api listening" line is what tells the test it is up.
    const serviceEnv = { ...merchantEnv, PORT: String(port), API_URL: `http://127.0.0.1:${port}`, LOG_LEVEL: "info" };
    expectOk(await runCommand(W.webhookKey, serviceEnv));
    api = await startCommand(W.api, serviceEnv, /api listening/);
    const apiKey = /rk_[A-Za-z0-9_-]+/.exec(expectOk(await runCommand(W.apiKey, serviceEnv)))![0];
    const client = new RaffleApi({ baseUrl: serviceEnv.API_URL, apiKey });
    await waitFor(async () => (await client.listAllRaffleContracts(SEPOLIA)).some((row) => row.address === raffle), 60_000);

    expectOk(await runCommand(W.worker, { ...serviceEnv, API_KEY: apiKey }));
    expect((await Raffle__factory.connect(raffle, sepolia.provider).getCurrentRoundInfo()).roundId).toBe(2n);
    await stopGroup(api);
  });

  it("resumes a deployment killed after its second contract on Amoy's chain id, and lands on Sepolia's addresses", async () => {
    const coordinator = await deployCoordinator(await amoy.provider.getSigner(9));
    const subscription = await createFundedSubscription(coordinator, deployer.connect(amoy.provider));
    editParameters("amoy", { signer: found.signer!, vrfCoordinator: coordinator, vrfSubscriptionId: subscription.toString() });
    gate = new RpcGate(amoy.rpcUrl);
    const gateUrl = `http://127.0.0.1:${await gate.listen()}`;
    const amoyEnv = { ...env, HARDHAT_VAR_AMOY_RPC_URL: gateUrl };
    const firstNonce = await amoy.provider.getTransactionCount(deployer.address);

    // Killed as the third platform transaction (RaffleDeployer's) leaves, before the node has it: two contracts exist.
    let child: ChildProcess | undefined;
    const deploy = () => runCommand(r("npm run deploy:platform -- --network amoy"), amoyEnv, "", (started) => (child = started));
    gate.hooks = {
      before: (tx) => {
        if (tx.from !== deployer.address || tx.nonce < firstNonce + 2) return true;
        process.kill(-child!.pid!, "SIGKILL");
        return false;
      },
    };
    expect((await deploy()).signal).toBe("SIGKILL");
    expect(await createXDeployments(amoy.provider)).toBe(2);
    expect(fs.existsSync(path.join(env.DEPLOYMENTS_DIR!, `${AMOY}.json`))).toBe(false);

    // Resumed, and killed again just after the node accepted its next transaction, before Ignition recorded it.
    gate.hooks = { after: () => void process.kill(-child!.pid!, "SIGKILL") };
    expect((await deploy()).signal).toBe("SIGKILL");

    gate.hooks = {};
    const resumed = expectOk(await deploy());
    expect(resumed).toMatch(/never reached the chain; it is sent again|was sent before the interruption; Ignition now tracks it/);
    // Each contract created once, and each of the plan's 9 transactions sent once (4 deployments, 5 calls).
    expect(await createXDeployments(amoy.provider)).toBe(4);
    expect(await amoy.provider.getTransactionCount(deployer.address)).toBe(firstNonce + 9);
    const record = readRecord(AMOY);
    await expectCompletePlatform(amoy.provider, record, found.signer!, coordinator, subscription);
    const sepoliaRecord = found.sepoliaRecord!;
    expect([record.exchange, record.raffleFactory, record.ticketDeployer]).toEqual([
      sepoliaRecord.exchange,
      sepoliaRecord.raffleFactory,
      sepoliaRecord.ticketDeployer,
    ]);

    // A merchant without a configured key is refused before anything is sent.
    const blocks = await amoy.provider.getBlockNumber();
    const refused = await runCommand(r("npm run deploy:raffle -- --network amoy --ticket-symbol AMOY"), amoyEnv);
    expect(refused.code).not.toBe(0);
    expect(refused.output).toMatch(/the merchant key: not configured; set MERCHANT_PRIVATE_KEY/);
    expect(await amoy.provider.getBlockNumber()).toBe(blocks);
  });

  it("left nothing in the repository: keys, journals and records went to the deployer's own folders", () => {
    expect(untrackedFiles()).toEqual(untrackedBefore);
    for (const written of ["contracts/deployments/11155111.json", "contracts/deployments/80002.json", "contracts/ignition/deployments"]) {
      expect(fs.existsSync(path.join(ROOT, written))).toBe(false);
    }
  });

  function editParameters(network: string, values: Record<string, string>): void {
    const file = path.join(env.IGNITION_DIR!, "parameters", `${network}.json`);
    const parameters = JSON.parse(fs.readFileSync(file, "utf8"));
    Object.assign(parameters.RafflePlatform, values);
    fs.writeFileSync(file, JSON.stringify(parameters, null, 2));
  }

  function readRecord(chainId: number): PlatformDeployment {
    return JSON.parse(fs.readFileSync(path.join(env.DEPLOYMENTS_DIR!, `${chainId}.json`), "utf8")) as PlatformDeployment;
  }

  async function expectCompletePlatform(
    provider: JsonRpcProvider,
    record: PlatformDeployment,
    signer: string,
    coordinator: string,
    subscription: bigint,
  ) {
    for (const address of [record.exchange, record.raffleFactory, record.ticketDeployer]) expect(await provider.getCode(address)).not.toBe("0x");
    expect(record).toMatchObject({
      vrfCoordinator: coordinator,
      vrfSubscriptionId: subscription.toString(),
      vrfIsMock: false,
      signer,
      admin: deployer.address,
    });
    expect(await Exchange__factory.connect(record.exchange, provider).hasRole(SIGNER_ROLE, signer)).toBe(true);
    expect(await RaffleFactory__factory.connect(record.raffleFactory, provider).exchange()).toBe(record.exchange);
    expect((await IVRFSubscriptionV2Plus__factory.connect(coordinator, provider).getSubscription(subscription)).owner).toBe(record.raffleFactory);
    expect(record.deployBlock).toBeGreaterThan(0);
  }
});

/** Contracts CreateX has deployed on this chain: one ContractCreation event each. */
async function createXDeployments(provider: JsonRpcProvider): Promise<number> {
  return (await provider.getLogs({ address: CREATEX_ADDRESS, fromBlock: 0, toBlock: "latest" })).length;
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`not true within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
