import { Client } from "pg";
import { LOCAL_CHAIN_ID, SECOND_LOCAL_CHAIN_ID } from "@raffle/chain";
import { TEST_SERVER_URL, createTestDatabase } from "@raffle/db/testing";

import { startTestStack, type TestStack } from "../src";

async function databaseExists(name: string): Promise<boolean> {
  const client = new Client({ connectionString: TEST_SERVER_URL });
  await client.connect();
  try {
    return (await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name])).rowCount === 1;
  } finally {
    await client.end();
  }
}

const answers = (url: string) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}' })
    .then(() => true)
    .catch(() => false);

describe("startTestStack", () => {
  let stack: TestStack;

  afterAll(() => stack?.close());

  it("serves two chains with the platform to the compiled API, which lists each chain's raffles to a merchant's key", async () => {
    stack = await startTestStack({ label: "test_stack", chainIds: [LOCAL_CHAIN_ID, SECOND_LOCAL_CHAIN_ID] });
    expect(stack.chains.map((chain) => chain.chainId)).toEqual([LOCAL_CHAIN_ID, SECOND_LOCAL_CHAIN_ID]);
    for (const chain of stack.chains) expect(Number((await chain.node.provider.getNetwork()).chainId)).toBe(chain.chainId);
    expect(stack.apiChainEnv().CHAIN_IDS).toBe(`${LOCAL_CHAIN_ID},${SECOND_LOCAL_CHAIN_ID}`);

    const api = await stack.startApi({ INDEXER_POLL_INTERVAL_MS: "100" });
    const key = await stack.apiKey(await stack.world.merchant.getAddress());
    expect(key).toMatch(/^rk_/);
    for (const chainId of [LOCAL_CHAIN_ID, SECOND_LOCAL_CHAIN_ID]) {
      const response = await fetch(`${api.url}/raffle/contracts?chainId=${chainId}`, { headers: { authorization: `Bearer ${key}` } });
      expect(response.status).toBe(200);
    }
    expect((await fetch(`${api.url}/raffle/contracts?chainId=${LOCAL_CHAIN_ID}`)).status).toBe(401);
  });

  it("stops everything it started at close: the API, every node, and drops the database", async () => {
    const api = await stack.startApi();
    const { name } = stack.database;
    expect(await databaseExists(name)).toBe(true);
    await stack.close();
    expect(api.child.exited()).toBe(true);
    for (const chain of stack.chains) expect(await answers(chain.node.rpcUrl)).toBe(false);
    expect(await databaseExists(name)).toBe(false);
  });

  it("refuses an API that cannot start, quoting what it printed", async () => {
    const other = await startTestStack({ label: "test_stack_bad" });
    try {
      await expect(other.startApi({ DATABASE_URL: "mysql://nobody@127.0.0.1/raffle" })).rejects.toThrow(
        /exited before it was healthy[\s\S]*DATABASE_URL/,
      );
    } finally {
      await other.close();
    }
  });

  it("runs on a database the caller made, hands it to the API, and closes it through the caller's own drop", async () => {
    const made = await createTestDatabase("test_stack_given");
    let dropped = 0;
    const given = await startTestStack({ label: "unused", database: { ...made, drop: () => ((dropped += 1), made.drop()) } });
    try {
      expect(given.database).toMatchObject({ url: made.url, name: made.name });
      const api = await given.startApi();
      expect((await fetch(`${api.url}/health`)).status).toBe(200);
    } finally {
      await given.close();
    }
    expect(dropped).toBe(1);
    expect(await databaseExists(made.name)).toBe(false);
  });

  it("names TEST_NODE when it is neither hardhat nor anvil, before starting anything", async () => {
    await expect(startTestStack({ label: "test_stack_node", node: "ganache" as never })).rejects.toThrow(
      "TEST_NODE must be hardhat or anvil, not ganache",
    );
  });
});
