import * as path from "node:path";
import { JsonRpcProvider, JsonRpcSigner, Transaction, getAddress, id, keccak256, parseEther, type Signer } from "ethers";

import { VRFCoordinatorV2_5Mock__factory } from "../typechain";

/**
 * What a public chain already has, put on a local development node (Hardhat's or anvil) whatever its chain id, so the
 * production deploy path (`npm run deploy:platform`, Ignition's create2 strategy through CreateX, a VRF v2.5
 * subscription) can be rehearsed: CreateX at its canonical address, a VRF v2.5 coordinator (Chainlink's mock), a funded
 * subscription owned by the deployer, and gas money. Used by `npm run deploy:rehearse` and by the deploy tests.
 */

/** CreateX v0.1.0, where Hardhat Ignition's create2 strategy calls it; the runtime code hash Ignition checks. */
export const CREATEX_ADDRESS = "0xba5Ed099633D3B313e4D5F7bdc1305d3c28ba5Ed";
const CREATEX_CODE_HASH = "0xbd8a7ea8cfca7b4e5f5041d7d4b17bc317c5ce42cfbc42066a00cf26b43eb53f";

/**
 * The key hash (gas lane) to deploy with: the mock answers any, and the deploy refuses the local placeholder on a
 * chain id that is not a dev chain's, as it would on the real one.
 */
export const REHEARSAL_KEY_HASH = id("raffle rehearsal key hash");

/** Host names of this machine only: a rehearsal never writes code or balances anywhere else. */
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

export class RehearsalRefused extends Error {
  override name = "RehearsalRefused";
}

/**
 * The node at `rpcUrl` if it is a local development node, else RehearsalRefused naming why: the URL must be http(s) on a
 * loopback address, and the node must say it is Hardhat's or anvil (the only nodes whose state a rehearsal may set).
 */
export async function connectLocalNode(rpcUrl: string): Promise<JsonRpcProvider> {
  let url: URL;
  try {
    url = new URL(rpcUrl);
  } catch {
    throw new RehearsalRefused(`refusing to rehearse: --rpc-url "${rpcUrl}" is not a URL (e.g. http://127.0.0.1:8545)`);
  }
  const loopback = LOOPBACK_HOSTS.has(url.hostname) || /^127(\.\d{1,3}){3}$/.test(url.hostname);
  if (!/^https?:$/.test(url.protocol) || !loopback) {
    throw new RehearsalRefused(
      `refusing to rehearse on ${url.protocol}//${url.host}: not a local node (only http://127.0.0.1, localhost or [::1] are rehearsed on)`,
    );
  }
  const provider = new JsonRpcProvider(rpcUrl, undefined, { staticNetwork: true });
  let client: string;
  try {
    client = String(await provider.send("web3_clientVersion", []));
  } catch (error) {
    provider.destroy();
    throw new RehearsalRefused(`no node answers at ${url.host}: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
  }
  if (!/hardhat|anvil/i.test(client)) {
    provider.destroy();
    throw new RehearsalRefused(`refusing to rehearse on ${url.host}: the node is "${client}", not a Hardhat or anvil development node`);
  }
  return provider;
}

/**
 * Puts CreateX's runtime code at its address, from the keyless deployment transaction that ships in
 * @nomicfoundation/ignition-core (the one every public chain got CreateX from). Nothing to do when it is there.
 */
export async function installCreateX(provider: JsonRpcProvider): Promise<void> {
  if (keccak256(await provider.getCode(CREATEX_ADDRESS)) === CREATEX_CODE_HASH) return;
  const core = path.dirname(require.resolve("@nomicfoundation/ignition-core"));
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { presignedTx } = require(path.join(core, "internal/execution/strategy/createx-artifact.js")) as { presignedTx: string };
  const deployment = Transaction.from(presignedTx);
  // A call with no recipient runs the creation code and answers with the runtime code it would deploy. CreateX keeps
  // its own address in an immutable: simulate it from its keyless deployer's first nonce, which creates it there.
  const runtime = (await provider.send("eth_call", [{ from: deployment.from, data: deployment.data }, "latest"])) as string;
  if (keccak256(runtime) !== CREATEX_CODE_HASH) throw new Error("CreateX runtime code does not match the canonical hash");
  // hardhat_* methods: anvil answers them too (as aliases of its anvil_* ones).
  await provider.send("hardhat_setCode", [CREATEX_ADDRESS, runtime]);
}

/** The faucet: native currency for an account. */
export async function fund(provider: JsonRpcProvider, account: string, ether = "100"): Promise<void> {
  await provider.send("hardhat_setBalance", [account, `0x${parseEther(ether).toString(16)}`]);
}

/** Chainlink's VRF v2.5 coordinator, played by its mock, deployed by someone else than the platform. */
export async function deployCoordinator(stranger: Signer): Promise<string> {
  const mock = await new VRFCoordinatorV2_5Mock__factory(stranger).deploy(parseEther("0.1"), 1_000_000_000n, parseEther("0.004"));
  return mock.getAddress();
}

/** What a deployer does at vrf.chain.link: create a subscription with its own wallet and fund it with LINK. */
export async function createFundedSubscription(coordinator: string, owner: Signer, link = "100"): Promise<bigint> {
  const mock = VRFCoordinatorV2_5Mock__factory.connect(coordinator, owner);
  const receipt = (await (await mock.createSubscription()).wait())!;
  const subId = mock.interface.parseLog(receipt.logs[0])!.args.subId as bigint;
  await (await mock.fundSubscription(subId, parseEther(link))).wait();
  return subId;
}

export interface RehearsalChain {
  chainId: number;
  createX: string;
  /** The settings `npm run deploy:platform` reads (VRF_COORDINATOR, VRF_KEY_HASH, VRF_SUBSCRIPTION_ID). */
  vrfCoordinator: string;
  vrfKeyHash: string;
  vrfSubscriptionId: string;
  /** The deployer, funded with gas money and owning the subscription (the platform's deploy adds its consumer). */
  deployer: string;
}

/**
 * Readies a local node for a rehearsal of the production deploy by `deployer`: CreateX, a VRF v2.5 coordinator mock
 * deployed by the node's last unlocked account, a subscription created and funded as `deployer` (impersonated: its key
 * never leaves the deployer's keystore), and `ether` of gas money for it.
 */
export async function prepareRehearsal(rpcUrl: string, deployer: string, ether = "100"): Promise<RehearsalChain> {
  const owner = getAddress(deployer);
  const provider = await connectLocalNode(rpcUrl);
  try {
    const { chainId } = await provider.getNetwork();
    await installCreateX(provider);
    await fund(provider, owner, ether);
    const accounts = (await provider.send("eth_accounts", [])) as string[];
    if (accounts.length === 0) throw new Error("the node has no unlocked account to deploy the VRF coordinator with");
    const vrfCoordinator = await deployCoordinator(await provider.getSigner(accounts[accounts.length - 1]));
    await provider.send("hardhat_impersonateAccount", [owner]);
    let subscription: bigint;
    try {
      // Not provider.getSigner(owner): it accepts only the node's own accounts, and the deployer's is impersonated.
      subscription = await createFundedSubscription(vrfCoordinator, new JsonRpcSigner(provider, owner));
    } finally {
      await provider.send("hardhat_stopImpersonatingAccount", [owner]);
    }
    // Again: the subscription's transactions spent some; the deployer starts the rehearsal with exactly `ether`.
    await fund(provider, owner, ether);
    return {
      chainId: Number(chainId),
      createX: CREATEX_ADDRESS,
      vrfCoordinator,
      vrfKeyHash: REHEARSAL_KEY_HASH,
      vrfSubscriptionId: subscription.toString(),
      deployer: owner,
    };
  } finally {
    provider.destroy();
  }
}
