import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { Transaction, keccak256, parseEther, type JsonRpcProvider, type Signer } from "ethers";
import { VRFCoordinatorV2_5Mock__factory } from "@raffle/chain";

/**
 * Stand-ins for what a public testnet already has, on a local `hardhat node` that uses the testnet's chain id:
 * CreateX at its canonical address, a Chainlink VRF coordinator, a faucet, and an Etherscan-compatible API.
 */

/** CreateX v0.1.0, where Hardhat Ignition's create2 strategy calls it; the runtime code hash Ignition checks. */
export const CREATEX_ADDRESS = "0xba5Ed099633D3B313e4D5F7bdc1305d3c28ba5Ed";
const CREATEX_CODE_HASH = "0xbd8a7ea8cfca7b4e5f5041d7d4b17bc317c5ce42cfbc42066a00cf26b43eb53f";

/**
 * Puts CreateX's runtime code at its address, from the keyless deployment transaction that ships in
 * @nomicfoundation/ignition-core (the one every public chain got CreateX from).
 */
export async function installCreateX(provider: JsonRpcProvider): Promise<void> {
  const core = path.dirname(require.resolve("@nomicfoundation/ignition-core"));
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { presignedTx } = require(path.join(core, "internal/execution/strategy/createx-artifact.js")) as { presignedTx: string };
  const deployment = Transaction.from(presignedTx);
  // A call with no recipient runs the creation code and answers with the runtime code it would deploy. CreateX keeps
  // its own address in an immutable: simulate it from its keyless deployer's first nonce, which creates it there.
  const runtime = (await provider.send("eth_call", [{ from: deployment.from, data: deployment.data }, "latest"])) as string;
  if (keccak256(runtime) !== CREATEX_CODE_HASH) throw new Error("CreateX runtime code does not match the canonical hash");
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
export async function createFundedSubscription(coordinator: string, owner: Signer): Promise<bigint> {
  const mock = VRFCoordinatorV2_5Mock__factory.connect(coordinator, owner);
  const receipt = (await (await mock.createSubscription()).wait())!;
  const subId = mock.interface.parseLog(receipt.logs[0])!.args.subId as bigint;
  await (await mock.fundSubscription(subId, parseEther("100"))).wait();
  return subId;
}

export interface Submission {
  address: string;
  contractName: string;
  apiKey: string;
  /** ABI-encoded constructor arguments, hex without 0x (the API's own spelling: `constructorArguements`). */
  constructorArguments: string;
}

/** An Etherscan-compatible verification API that accepts every submission and records it. */
export async function startExplorer(): Promise<{ url: string; submissions: Submission[]; stop(): Promise<void> }> {
  const submissions: Submission[] = [];
  const server = http.createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      const query = new URL(request.url!, "http://explorer").searchParams;
      const form = new URLSearchParams(body);
      const action = form.get("action") ?? query.get("action");
      let answer: object = { status: "0", message: "NOTOK", result: "unknown action" };
      if (action === "getsourcecode") answer = { status: "0", message: "NOTOK", result: "Contract source code not verified" };
      if (action === "verifysourcecode") {
        submissions.push({
          address: form.get("contractaddress")!,
          contractName: form.get("contractname")!,
          apiKey: form.get("apikey")!,
          constructorArguments: form.get("constructorArguements") ?? "",
        });
        answer = { status: "1", message: "OK", result: `guid-${submissions.length}` };
      }
      if (action === "checkverifystatus") answer = { status: "1", message: "OK", result: "Pass - Verified" };
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`,
    submissions,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
