import type { NestFastifyApplication } from "@nestjs/platform-fastify";
import type { AddressInfo } from "node:net";
import { JsonRpcProvider, Wallet, parseEther, parseUnits } from "ethers";
import { TestToken__factory, deployTestRaffle, setUpWorld, startHardhatNode, type HardhatNode, type TestWorld } from "@raffle/chain";
import { createTestDatabase, type TestDatabase } from "@raffle/db";
import { ApiKeyService, createApp, loadApiConfig } from "@raffle/api";
import { RaffleApi, buyTicket } from "@raffle/sdk";
import { eventually } from "@raffle/testing";

/**
 * The SDK's buyTicket() on a chain that mines at once (Hardhat's automine), with ethers' default provider, whose
 * 250 ms call cache once handed the purchase the approve's own nonce (NONCE_EXPIRED) on a fresh account's first
 * ERC20-priced purchase. The stack e2e does the same through the packed SDK; this one holds it on an idle node,
 * where the approve's receipt always comes back within the cache's 250 ms.
 */
describe("buyTicket() of an ERC20-priced ticket from fresh accounts", () => {
  let node: HardhatNode;
  let world: TestWorld;
  let database: TestDatabase;
  let app: NestFastifyApplication;
  let api: RaffleApi;
  let contractId: number;

  beforeAll(async () => {
    process.env.LOG_LEVEL ??= "silent";
    node = await startHardhatNode();
    world = await setUpWorld(node.provider);
    const raffle = await deployTestRaffle(world, "ERC20");
    database = await createTestDatabase("sdk_buy_ticket");
    const config = loadApiConfig(
      { PORT: "0", DATABASE_URL: database.url, RPC_URL: node.rpcUrl, INDEXER_POLL_INTERVAL_MS: "50", WEBHOOK_DELIVERY_ENABLED: "false" },
      world.deployment,
    );
    app = await createApp(config);
    await app.listen(0, "127.0.0.1");
    const { port } = app.getHttpServer().address() as AddressInfo;
    const { key } = await app.get(ApiKeyService).create(await world.merchant.getAddress());
    api = new RaffleApi({ baseUrl: `http://127.0.0.1:${port}`, apiKey: key });
    contractId = await eventually(async () => {
      const listed = (await api.listAllRaffleContracts(world.deployment.chainId)).find((contract) => contract.address === raffle.raffle);
      expect(listed).toBeDefined();
      return listed!.id;
    }, 30_000);
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await database?.drop();
    await node?.stop();
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
});
