import {
  buyTicket,
  deployTestRaffle,
  rpcProvider,
  setUpWorld,
  startTestNode,
  type HardhatNode,
  type TestRaffle,
  type TestWorld,
} from "@raffle/chain/testing";

import { ChainSource } from "../src/chain-source";
import { TokenMetadataReader } from "../src/token-metadata";
import { indexedDatabase, type IndexedDatabase } from "./support/indexer-harness";
import { rpcProxy, type RpcProxy } from "./support/rpc-proxy";

/**
 * Every step asks the node the chain id, the head and the cursor's hash before anything else: in one request
 * (ChainSource.tip), not three through ethers' provider, whose batch stall held each call ~10 ms (docs/performance.md,
 * "Indexer backfill").
 */
describe("an indexer step's questions to the node", () => {
  let node: HardhatNode;
  let world: TestWorld;
  let proxy: RpcProxy;
  let db: IndexedDatabase;
  let raffle: TestRaffle;

  beforeAll(async () => {
    node = await startTestNode();
    world = await setUpWorld(node.provider);
    raffle = await deployTestRaffle(world, "ERC20");
    await buyTicket(world, raffle, world.players[0], 2n);
    proxy = await rpcProxy(node.rpcUrl);
    db = await indexedDatabase("step_requests", rpcProvider(proxy.url), world.deployment);
  });

  afterAll(async () => {
    await db?.close();
    await proxy?.close();
    await node?.stop();
  });

  it("asks the chain id, the head and the cursor's hash in one request per step", async () => {
    await db.indexer.syncToHead();
    const before = proxy.requests.length;
    expect(await db.indexer.step()).toEqual({ kind: "idle" });
    expect(proxy.requests.slice(before)).toEqual([["eth_chainId", "eth_blockNumber", "eth_getBlockByNumber"]]);
  });

  it("reads each new token's name, symbol and decimals in one request, and stores them", async () => {
    // The first test's syncToHead registered the raffle's ticket (ERC721: no decimals) and its ERC20 price token.
    expect(proxy.requests.filter((methods) => methods.includes("eth_call"))).toEqual([
      ["eth_call", "eth_call"],
      ["eth_call", "eth_call", "eth_call"],
    ]);
    const rows = await db.dataSource.query(`SELECT address, name, symbol, decimals FROM contract WHERE address = ANY($1) ORDER BY decimals`, [
      [raffle.ticket, raffle.price.token],
    ]);
    expect(rows).toEqual([
      { address: raffle.ticket, name: expect.stringMatching(/.+/), symbol: expect.stringMatching(/.+/), decimals: 0 },
      { address: raffle.price.token, name: expect.stringMatching(/.+/), symbol: expect.stringMatching(/.+/), decimals: 18 },
    ]);
  });

  it("gives a contract that lacks the functions empty defaults, and fails when it cannot reach the node", async () => {
    const chain = new ChainSource(rpcProvider(proxy.url), { chainId: world.deployment.chainId, rpcSetting: "RPC_URL" });
    expect(await new TokenMetadataReader(chain).read(raffle.raffle, true)).toEqual({ name: "", symbol: "", decimals: 18 });
    // Never an empty name stored for a token because the node was down: the batch fails and is retried.
    const unreachable = new ChainSource(rpcProvider("http://127.0.0.1:9"), { chainId: world.deployment.chainId, rpcSetting: "RPC_URL" });
    await expect(new TokenMetadataReader(unreachable).read(raffle.price.token, true)).rejects.toThrow(/the node at RPC_URL failed eth_call/);
  });

  it("still finds a reorg under the cursor by that hash", async () => {
    const snapshot: string = await node.provider.send("evm_snapshot", []);
    const parent = Number((await node.provider.getBlock("latest"))!.timestamp);
    await node.provider.send("evm_mine", [parent + 3]);
    await db.indexer.syncToHead();
    await node.provider.send("evm_revert", [snapshot]);
    // Another block at the same height (another timestamp): the cursor's block is no longer on the chain.
    await node.provider.send("evm_mine", [parent + 7]);
    expect((await db.indexer.step()).kind).toBe("reorg");
  });
});
