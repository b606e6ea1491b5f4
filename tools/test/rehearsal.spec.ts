import * as fs from "node:fs";
import * as http from "node:http";
import * as os from "node:os";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { Wallet, keccak256, parseEther } from "ethers";
import { VRFCoordinatorV2_5Mock__factory } from "@raffle/chain";
import { CREATEX_ADDRESS, startHardhatNode, type HardhatNode } from "@raffle/chain/testing";

import { main } from "../rehearsal/prepare";
import { run } from "./support/processes";

const ROOT = path.resolve(__dirname, "../..");
const SEPOLIA = 11155111;

/** `npm run deploy:rehearse` (docs/guides/deployer.md, "Rehearse the production deploy"): readies local nodes only. */
describe("npm run deploy:rehearse", () => {
  let node: HardhatNode;
  const deployerKey = Wallet.createRandom();
  const deployer = deployerKey.address;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "raffle-rehearsal-"));

  beforeAll(async () => {
    node = await startHardhatNode({ chainId: SEPOLIA });
  }, 120_000);

  afterAll(async () => {
    await node?.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  const refusal = async (argv: string[]) => {
    const lines: string[] = [];
    const code = await main(argv, (line) => lines.push(line));
    return { code, output: lines.join("\n") };
  };

  it("puts CreateX, a VRF v2.5 coordinator and a funded subscription of the deployer on a node with Sepolia's chain id, and its printed command deploys the platform", async () => {
    const outcome = await run("npm", ["run", "deploy:rehearse", "--", "--rpc-url", node.rpcUrl, "--deployer", deployer], {
      cwd: ROOT,
      env: process.env,
      timeoutMs: 180_000,
    });
    expect({ code: outcome.code, output: outcome.code === 0 ? "" : outcome.output }).toEqual({ code: 0, output: "" });
    expect(outcome.output).toContain(`Rehearsal ready on chain ${SEPOLIA}`);

    // CreateX's canonical runtime code, where Ignition's create2 strategy calls it.
    expect(keccak256(await node.provider.getCode(CREATEX_ADDRESS))).toBe("0xbd8a7ea8cfca7b4e5f5041d7d4b17bc317c5ce42cfbc42066a00cf26b43eb53f");
    // The printed deploy command names the coordinator and the subscription, which the deployer owns, funded.
    const coordinator = /VRF_COORDINATOR=(0x[0-9a-fA-F]{40})/.exec(outcome.output)![1];
    const subscriptionId = /VRF_SUBSCRIPTION_ID=(\d+)/.exec(outcome.output)![1];
    expect(outcome.output).toMatch(
      new RegExp(`REHEARSAL_RPC_URL=${node.rpcUrl} REHEARSAL_CHAIN_ID=${SEPOLIA} .*npm run deploy:platform -- --network rehearsal`),
    );
    const subscription = await VRFCoordinatorV2_5Mock__factory.connect(coordinator, node.provider).getSubscription(subscriptionId);
    expect({ owner: subscription.subOwner, balance: subscription.balance }).toEqual({ owner: deployer, balance: parseEther("100") });
    expect(await node.provider.getBalance(deployer)).toBe(parseEther("100"));

    // The printed command deploys the platform as in production: Ignition's create2 strategy through CreateX.
    const signer = Wallet.createRandom().address;
    const command = outcome.output
      .trim()
      .split("\n")
      .pop()!
      .trim()
      .replace("SIGNER_ADDRESS=<the voucher signer's address>", `SIGNER_ADDRESS=${signer}`);
    fs.cpSync(path.join(ROOT, "contracts/ignition/parameters"), path.join(scratch, "ignition/parameters"), { recursive: true });
    const deployed = await run("sh", ["-c", command], {
      cwd: ROOT,
      env: {
        ...process.env,
        // What a deployer keeps at home, in this test's folder: Hardhat variables, journals, records.
        XDG_CONFIG_HOME: path.join(scratch, "config"),
        IGNITION_DIR: path.join(scratch, "ignition"),
        DEPLOYMENTS_DIR: path.join(scratch, "deployments"),
        DEPLOYER_PRIVATE_KEY: deployerKey.privateKey,
        HARDHAT_IGNITION_CONFIRM_DEPLOYMENT: "1",
      },
      timeoutMs: 300_000,
    });
    expect({ code: deployed.code, output: deployed.code === 0 ? "" : deployed.output }).toEqual({ code: 0, output: "" });
    const record = JSON.parse(fs.readFileSync(path.join(scratch, "deployments", `${SEPOLIA}.json`), "utf8")) as Record<string, unknown>;
    expect(record).toMatchObject({
      chainId: SEPOLIA,
      vrfIsMock: false,
      vrfCoordinator: coordinator,
      vrfSubscriptionId: subscriptionId,
      signer,
      admin: deployer,
    });
    expect(await node.provider.getCode(record.exchange as string)).not.toBe("0x");
  }, 480_000);

  it("is the command the deployer guide documents", () => {
    const guide = fs.readFileSync(path.join(ROOT, "docs/guides/deployer.md"), "utf8");
    expect(guide).toContain("npm run deploy:rehearse -- --rpc-url http://127.0.0.1:8545 --deployer");
    const scripts = (JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
    expect(scripts["deploy:rehearse"]).toBe("npm --workspace tools run rehearse --");
  });

  it("refuses, by name, a node that is not on this machine and a loopback node that is not a development node", async () => {
    const remote = await refusal(["--rpc-url", "https://ethereum-sepolia-rpc.publicnode.com", "--deployer", deployer]);
    expect(remote).toEqual({
      code: 1,
      output: expect.stringContaining("refusing to rehearse on https://ethereum-sepolia-rpc.publicnode.com: not a local node"),
    });
    // A tunnel to a real node on a loopback port: it says it is Geth, so nothing is written to it.
    const calls: string[] = [];
    const geth = http.createServer((request, response) => {
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString()));
      request.on("end", () => {
        const parsed = JSON.parse(body) as { id: number; method: string } | Array<{ id: number; method: string }>;
        const answer = ({ id, method }: { id: number; method: string }) => {
          calls.push(method);
          return { jsonrpc: "2.0", id, result: method === "eth_chainId" ? "0x1" : "Geth/v1.14.0-stable/linux-amd64/go1.22" };
        };
        response.setHeader("content-type", "application/json");
        response.end(JSON.stringify(Array.isArray(parsed) ? parsed.map(answer) : answer(parsed)));
      });
    });
    await new Promise<void>((resolve) => geth.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(geth.address() as AddressInfo).port}`;
      const tunnel = await refusal(["--rpc-url", url, "--deployer", deployer]);
      expect(tunnel.code).toBe(1);
      expect(tunnel.output).toMatch(
        /refusing to rehearse on 127\.0\.0\.1:\d+: the node is "Geth\/v1\.14\.0.*", not a Hardhat or anvil development node/,
      );
      expect(calls.filter((method) => !["web3_clientVersion", "eth_chainId"].includes(method))).toEqual([]);
    } finally {
      await new Promise((resolve) => geth.close(resolve));
    }
    // Arguments missing or malformed: the usage line, nothing done.
    expect((await refusal(["--rpc-url", node.rpcUrl])).code).toBe(2);
    expect((await refusal(["--rpc-url", node.rpcUrl, "--deployer", "0x1234"])).code).toBe(2);
    expect((await refusal(["--rpc-url", "127.0.0.1:8545", "--deployer", deployer])).output).toMatch(/refusing to rehearse/);
  });
});
