import request from "supertest";
import { ZeroAddress, type Signer } from "ethers";
import { Exchange__factory, buildPurchaseArgs } from "@raffle/chain";
import { buyTicket } from "@raffle/chain/testing";
import { eventually, freePort } from "@raffle/testing";

import { createApp } from "../../api/src/app/create-app";
import type { ApiConfig } from "../../api/src/config/api-config";
import { expectProblem } from "./support/problem";
import { startTwoChainApi, type TestChain as Chain, type TwoChainApi } from "./support/two-chain-api";

/**
 * One API process and one PostgreSQL database serving two chains (issue #19): lists per chain and across chains,
 * vouchers signed under each raffle's own chain, a voucher of one chain refused by the other's Exchange, and one
 * chain's outage leaving the other's endpoints working while /ready says which chain lags.
 */
describe("one API serving two chains", () => {
  const chains: Chain[] = [];
  let served: TwoChainApi;
  let config: ApiConfig;
  let http: ReturnType<typeof request>;
  let key: string;
  const auth = () => ({ Authorization: `Bearer ${key}` });

  beforeAll(async () => {
    served = await startTwoChainApi("multi_chain", { RATE_LIMIT_SIGN_PER_ACCOUNT: "1000" }, { chainCheckIntervalMs: 1000 });
    chains.push(...served.chains);
    ({ config, http, key } = served);
  }, 120_000);

  afterAll(async () => {
    await served?.close();
  });

  const ticketCount = async (chain: Chain): Promise<number> =>
    (await http.get("/rounds/current").query({ contractId: chain.contractId }).set(auth()).expect(200)).body.ticketCount;

  /** Signs through the API and buys on the raffle's own chain (or sends the voucher to `exchangeChain` instead). */
  async function buyThroughTheApi(chain: Chain, buyer: Signer, exchangeChain: Chain = chain): Promise<void> {
    const round = (await http.get("/rounds/current").query({ contractId: chain.contractId }).set(auth()).expect(200)).body;
    const signed = (
      await http
        .post("/raffle/ticket/sign")
        .set(auth())
        .send({ account: await buyer.getAddress(), referrer: ZeroAddress, contractId: chain.contractId })
        .expect(200)
    ).body;
    const args = buildPurchaseArgs(round, signed);
    const exchange = Exchange__factory.connect(exchangeChain.world.deployment.exchange, buyer);
    await (await exchange.purchaseRaffle(args.params, args.item, args.price, args.signature, { value: args.value })).wait();
  }

  it("lists the caller's raffles of every chain without chainId, of one chain with it, and refuses a chain it does not serve", async () => {
    const all = (await http.get("/raffle/contracts").set(auth()).expect(200)).body;
    // Ordered by id, which follows whichever chain's indexer registered its raffle first.
    const listed = all.rows.map((row: { chainId: number; address: string }) => [row.chainId, row.address]);
    expect(listed.sort()).toEqual(chains.map((chain) => [chain.chainId, chain.raffle.raffle]).sort());
    for (const chain of chains) {
      const one = (await http.get("/raffle/contracts").query({ chainId: chain.chainId }).set(auth()).expect(200)).body;
      expect(one.rows.map((row: { id: number }) => row.id)).toEqual([chain.contractId]);
    }
    expectProblem(await http.get("/raffle/contracts").query({ chainId: 137 }).set(auth()), 422, "chainNotServed");
  });

  it("signs each raffle under its own chain's domain: the purchase goes through on that chain and each ticketCount is right", async () => {
    for (const chain of chains) {
      const before = await ticketCount(chain);
      await buyThroughTheApi(chain, chain.world.players[0]);
      await eventually(async () => expect(await ticketCount(chain)).toBe(before + 1));
    }
  });

  it("gives a voucher of chain A that chain B's Exchange refuses (the signer recovered under B's domain is nobody)", async () => {
    const [a, b] = chains;
    // The platform's addresses are the same on both chains: only the chain id of the domain tells them apart.
    expect(b.world.deployment.exchange).toBe(a.world.deployment.exchange);
    const error = await buyThroughTheApi(a, b.world.players[1], b).then(
      () => null,
      (caught: { data?: string }) => caught,
    );
    expect(error).not.toBeNull();
    const decoded = Exchange__factory.createInterface().parseError(error!.data!);
    expect(decoded?.name).toBe("InvalidSigner");
  });

  it("keeps signing and reading the other chain while one chain's node is down, says which chain lags, and catches up after", async () => {
    const [a, b] = chains;
    const beforeB = await ticketCount(b);
    b.proxy.pretendDown(true);
    try {
      // Bought on chain B's node directly: the API cannot see it until the node is reachable again.
      await buyTicket(b.world, b.raffle, b.world.players[2]);
      const ready = await eventually(async () => {
        const { body } = await http.get("/ready").expect(200);
        expect(body.status).toBe("degraded");
        return body;
      });
      const byChain = new Map(ready.chains.map((chain: { chainId: number }) => [chain.chainId, chain]));
      expect(byChain.get(a.chainId)).toMatchObject({ status: "ready", problems: [] });
      expect(byChain.get(b.chainId)).toMatchObject({ status: "notReady", head: null });
      expect(JSON.stringify(byChain.get(b.chainId))).toContain(`the chain node at CHAIN_${b.chainId}_RPC_URL`);
      expectProblem(await http.get("/ready").query({ chainId: b.chainId }), 503, "notReady");
      await http.get("/ready").query({ chainId: a.chainId }).expect(200);

      const beforeA = await ticketCount(a);
      await buyThroughTheApi(a, a.world.players[3]);
      await eventually(async () => expect(await ticketCount(a)).toBe(beforeA + 1));
      expect(await ticketCount(b)).toBe(beforeB);
    } finally {
      b.proxy.pretendDown(false);
    }
    await eventually(async () => expect(await ticketCount(b)).toBe(beforeB + 1), 30_000);
    await eventually(async () => expect((await http.get("/ready").expect(200)).body.status).toBe("ready"), 30_000);
  });

  it("a replica serving one chain neither lists, reads nor cancels another chain's claims on the shared database", async () => {
    const [a, b] = chains;
    const account = await a.world.players[2].getAddress();
    const voucher = async (chain: Chain) =>
      (
        await http
          .post("/claims")
          .set(auth())
          .send({ account, chainId: chain.chainId, items: [{ tokenType: "ERC20", token: chain.world.token, tokenId: "0", amount: "1" }] })
          .expect(201)
      ).body as { id: number; chainId: number };
    const [onA, onB] = [await voucher(a), await voucher(b)];
    expect([onA.chainId, onB.chainId]).toEqual([a.chainId, b.chainId]);
    const both = (await http.get("/claims").query({ account }).set(auth()).expect(200)).body;
    expect(both.rows.map((row: { id: number; chainId: number }) => [row.id, row.chainId]).sort()).toEqual(
      [
        [onA.id, a.chainId],
        [onB.id, b.chainId],
      ].sort(),
    );

    const onlyA = await createApp({ ...config, indexer: { ...config.indexer, enabled: false }, chains: [config.chains[0]] });
    try {
      await onlyA.init();
      await onlyA.getHttpAdapter().getInstance().ready();
      const replica = request(onlyA.getHttpServer());
      const listed = (await replica.get("/claims").query({ account }).set(auth()).expect(200)).body;
      expect(listed).toMatchObject({ count: 1, rows: [{ id: onA.id, chainId: a.chainId }] });
      await replica.get(`/claims/${onA.id}`).set(auth()).expect(200);
      const read = expectProblem(await replica.get(`/claims/${onB.id}`).set(auth()), 422, "chainNotServed");
      expect(read.detail).toBe(`Chain ${b.chainId} is not served by this API; it serves chain ${a.chainId}.`);
      expectProblem(await replica.delete(`/claims/${onB.id}`).set(auth()), 422, "chainNotServed");
    } finally {
      await onlyA.close();
    }
    // Still NEW: the replica canceled nothing.
    expect((await http.get(`/claims/${onB.id}`).set(auth()).expect(200)).body.claimStatus).toBe("NEW");
  });

  it("answers chainUnavailable for a chain whose node never answered, while another replica's chain signs on", async () => {
    const [a, b] = chains;
    // A second replica on the same database whose chain B points at nothing: B's raffles are in the database (the
    // first replica indexed them), but this replica cannot confirm its key's role there, so it signs nothing for B.
    const replica = await createApp({
      ...config,
      indexer: { ...config.indexer, enabled: false },
      chains: [config.chains[0], { ...config.chains[1], rpcUrl: `http://127.0.0.1:${await freePort()}` }],
    });
    try {
      await replica.init();
      await replica.getHttpAdapter().getInstance().ready();
      const replicaHttp = request(replica.getHttpServer());
      const sign = (chain: Chain) =>
        replicaHttp
          .post("/raffle/ticket/sign")
          .set(auth())
          .send({ account: ZeroAddress.replace(/0$/, "1"), contractId: chain.contractId });
      expect((await sign(a)).status).toBe(200);
      expectProblem(await sign(b), 503, "chainUnavailable");
    } finally {
      await replica.close();
    }
  });
});
