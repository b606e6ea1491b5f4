import type { NestFastifyApplication } from "@nestjs/platform-fastify";
import * as fs from "node:fs";
import type { AddressInfo } from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { JsonRpcProvider, Wallet, parseEther, parseUnits } from "ethers";
import { TestToken__factory } from "@raffle/chain";
import { deployTestRaffle, type HardhatNode, type TestWorld } from "@raffle/chain/testing";
import type { TestDatabase } from "@raffle/db/testing";
import { startTestStack, type TestStack } from "@raffle/test-stack";
import { ApiKeyService, createApp, loadApiConfig } from "@raffle/api";
import { RaffleApi, buyTicket } from "@raffle/sdk";
import { eventually } from "@raffle/testing";

import { buyWithPackedSdk, installPackedSdk, packSdk, typecheckConsumer, type ModuleKind } from "./support/packed-sdk";

/**
 * `npm pack` of libs/sdk, installed from its tarball into an empty Node-ESM TypeScript project and an empty CommonJS
 * one outside the workspace, each type-checked: started at once, so it runs while the chain and the API boot.
 */
function packedSdkProjects(root: string): Promise<Record<ModuleKind, string>> {
  const install = async (tarball: string, kind: ModuleKind) => {
    const folder = fs.mkdtempSync(path.join(root, `${kind}-`));
    await installPackedSdk(tarball, folder, kind);
    await typecheckConsumer(folder);
    return folder;
  };
  return packSdk(root).then(async (tarball) => {
    const [esm, cjs] = await Promise.all([install(tarball, "module"), install(tarball, "commonjs")]);
    return { module: esm, commonjs: cjs };
  });
}

/**
 * The SDK's buyTicket() on a chain that mines at once (Hardhat's automine), with ethers' default provider, whose
 * 250 ms call cache once handed the purchase the approve's own nonce (NONCE_EXPIRED) on a fresh account's first
 * ERC20-priced purchase. The stack e2e does the same through the packed SDK; this one holds it on an idle node,
 * where the approve's receipt always comes back within the cache's 250 ms.
 */
describe("the SDK: buyTicket() of an ERC20-priced ticket from fresh accounts, and its npm package", () => {
  let stack: TestStack;
  let node: HardhatNode;
  let world: TestWorld;
  let database: TestDatabase;
  let app: NestFastifyApplication;
  let api: RaffleApi;
  let contractId: number;
  let nativeContractId: number;
  let apiUrl: string;
  let apiKey: string;
  const packedRoot = fs.mkdtempSync(path.join(os.tmpdir(), "raffle-sdk-package-"));
  let packed: Promise<Record<ModuleKind, string>>;

  beforeAll(async () => {
    packed = packedSdkProjects(packedRoot);
    packed.catch(() => undefined); // awaited by its test; this only keeps an early failure from being reported as unhandled
    process.env.LOG_LEVEL ??= "silent";
    stack = await startTestStack({ label: "sdk_buy_ticket" });
    ({ node, world, database } = stack);
    const raffle = await deployTestRaffle(world, "ERC20");
    const nativeRaffle = await deployTestRaffle(world, "NATIVE");
    const config = loadApiConfig(
      { PORT: "0", DATABASE_URL: database.url, RPC_URL: node.rpcUrl, INDEXER_POLL_INTERVAL_MS: "50", API_ROLES: "serve,index" },
      world.deployment,
    );
    app = await createApp(config);
    await app.listen(0, "127.0.0.1");
    const { port } = app.getHttpServer().address() as AddressInfo;
    const { key } = await app.get(ApiKeyService).create(await world.merchant.getAddress());
    apiUrl = `http://127.0.0.1:${port}`;
    apiKey = key;
    api = new RaffleApi({ baseUrl: apiUrl, apiKey });
    contractId = await eventually(async () => {
      const listed = (await api.listAllRaffleContracts(world.deployment.chainId)).find((contract) => contract.address === raffle.raffle);
      expect(listed).toBeDefined();
      return listed!.id;
    }, 30_000);
    nativeContractId = await eventually(async () => {
      const listed = (await api.listAllRaffleContracts(world.deployment.chainId)).find((contract) => contract.address === nativeRaffle.raffle);
      expect(listed).toBeDefined();
      return listed!.id;
    }, 30_000);
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await stack?.close();
    fs.rmSync(packedRoot, { recursive: true, force: true });
  });

  it("approves, then buys with the next nonce, three accounts out of three", async () => {
    const token = TestToken__factory.connect(world.token, world.admin);
    for (let run = 0; run < 3; run += 1) {
      const fresh = Wallet.createRandom();
      await (await world.admin.sendTransaction({ to: fresh.address, value: parseEther("1") })).wait();
      await (await token.mint(fresh.address, parseUnits("100", 18))).wait();
      // ethers' default provider, as a game backend would make it: its 250 ms cache is on.
      const provider = new JsonRpcProvider(node.rpcUrl);
      try {
        const signer = fresh.connect(provider);
        const bought = await buyTicket({ api, signer, contractId, exchange: world.deployment.exchange });
        const receipt = await node.provider.getTransactionReceipt(bought.txHash);
        expect(receipt).toMatchObject({ status: 1, from: fresh.address });
        // The approve took nonce 0 and the purchase nonce 1.
        expect(await node.provider.getTransactionCount(fresh.address)).toBe(2);
        expect((await node.provider.getTransaction(bought.txHash))!.nonce).toBe(1);
      } finally {
        provider.destroy();
      }
    }
  });

  it("installs from its npm pack tarball into an ESM and a CommonJS TypeScript project, which type-check and buy a ticket each", async () => {
    const projects = await packed;
    for (const kind of ["module", "commonjs"] as const) {
      const player = Wallet.createRandom();
      await (await world.admin.sendTransaction({ to: player.address, value: parseEther("1") })).wait();
      const bought = await buyWithPackedSdk(projects[kind], {
        API_URL: apiUrl,
        API_KEY: apiKey,
        RPC_URL: node.rpcUrl,
        PLAYER_PRIVATE_KEY: player.privateKey,
        CONTRACT_ID: String(nativeContractId),
        EXCHANGE: world.deployment.exchange,
      });
      // The ESM project loads the package's ES module build, the CommonJS one its CommonJS build; each one ethers.
      const entry = kind === "module" ? "dist/index.mjs" : "dist/index.js";
      expect(bought.sdk).toBe(fs.realpathSync(path.join(projects[kind], "node_modules/@raffle/sdk", entry)));
      expect(bought.ethersCopies).toBe(1);
      const receipt = await node.provider.getTransactionReceipt(bought.txHash);
      expect(receipt).toMatchObject({ status: 1, from: player.address });
      expect(bought.ticketId).toMatch(/^\d+$/);
    }
  }, 420_000);
});
