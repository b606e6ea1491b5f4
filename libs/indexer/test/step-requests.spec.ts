import { buyTicket, deployTestRaffle, rpcProvider, setUpWorld, startTestNode, type HardhatNode, type TestWorld } from "@raffle/chain/testing";

import { indexedDatabase, type IndexedDatabase } from "./support/indexer-harness";
import { rpcProxy, type RpcProxy } from "./support/rpc-proxy";

/**
 * Every step asks the node the chain id, the head and the cursor's hash before anything else: in one request
 * (ChainSource.tip), not three through ethers' provider, whose batch stall held each call ~10 ms (docs/performance.md,
 * "Indexer backfill", round 4).
 */
describe("an indexer step's questions to the node", () => {
  let node: HardhatNode;
  let world: TestWorld;
  let proxy: RpcProxy;
  let db: IndexedDatabase;

  beforeAll(async () => {
    node = await startTestNode();
    world = await setUpWorld(node.provider);
    const raffle = await deployTestRaffle(world, "ERC20");
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
