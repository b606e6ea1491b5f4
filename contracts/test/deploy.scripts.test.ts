import { expect } from "chai";
import { spawn, execFile, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { JsonRpcProvider } from "ethers";

import { Raffle__factory, RaffleFactory__factory, type PlatformDeployment } from "@raffle/chain";
import { freePort } from "@raffle/testing";

const run = promisify(execFile);
const CONTRACTS_DIR = path.join(__dirname, "..");
const HARDHAT_BIN = path.join(CONTRACTS_DIR, "..", "node_modules", ".bin", "hardhat");

async function startNode(port: number): Promise<ChildProcess> {
  const node = spawn(HARDHAT_BIN, ["node", "--hostname", "127.0.0.1", "--port", String(port)], {
    cwd: CONTRACTS_DIR,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("hardhat node did not start")), 60_000);
    node.stdout!.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("Started HTTP and WebSocket JSON-RPC server")) {
        clearTimeout(timer);
        resolve();
      }
    });
    node.on("exit", (code) => reject(new Error(`hardhat node exited with ${code}`)));
  });
  return node;
}

describe("deploy scripts against a hardhat node on 127.0.0.1", () => {
  let node: ChildProcess;
  let rpcUrl: string;
  const deploymentsDir = fs.mkdtempSync(path.join(os.tmpdir(), "raffle-deployments-"));

  before(async () => {
    const port = await freePort();
    rpcUrl = `http://127.0.0.1:${port}`;
    node = await startNode(port);
  });

  after(() => {
    if (node?.pid) process.kill(-node.pid, "SIGTERM");
    fs.rmSync(deploymentsDir, { recursive: true, force: true });
  });

  it("deploys the platform, then a merchant raffle with its first round", async () => {
    const env = { ...process.env, RPC_URL: rpcUrl, DEPLOYMENTS_DIR: deploymentsDir };
    const platform = await run(HARDHAT_BIN, ["run", "--no-compile", "deploy/platform.ts"], { cwd: CONTRACTS_DIR, env });
    expect(platform.stdout).to.match(/Exchange deployed at 0x[0-9a-fA-F]{40}/);
    expect(platform.stdout).to.match(/wrote .*31337\.json/);

    const deployment = JSON.parse(fs.readFileSync(path.join(deploymentsDir, "31337.json"), "utf8")) as PlatformDeployment;
    expect(deployment.chainId).to.equal(31337);
    expect(deployment.vrfIsMock).to.equal(true);

    const raffleRun = await run(HARDHAT_BIN, ["run", "--no-compile", "deploy/raffle.ts"], {
      cwd: CONTRACTS_DIR,
      env: { ...env, MAX_TICKET: "7", PRICE_AMOUNT: "12345" },
    });
    expect(raffleRun.stdout).to.match(/first round started/);
    const result = JSON.parse(raffleRun.stdout.trim().split("\n").pop()!) as { raffle: string; ticket: string };

    const provider = new JsonRpcProvider(rpcUrl, undefined, { cacheTimeout: -1, staticNetwork: true });
    try {
      const factory = RaffleFactory__factory.connect(deployment.raffleFactory, provider);
      expect(await factory.exchange()).to.equal(deployment.exchange);
      const info = await Raffle__factory.connect(result.raffle, provider).getCurrentRoundInfo();
      expect(info.roundId).to.equal(1n);
      expect(info.endTimestamp).to.equal(0n);
      expect(info.maxTicket).to.equal(7n);
      expect(info.acceptedAsset.amount).to.equal(12345n);
      expect(info.ticketAsset.token).to.equal(result.ticket);
    } finally {
      provider.destroy();
    }
  });
});
