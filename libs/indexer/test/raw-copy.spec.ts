import { openDatabase } from "@raffle/db";
import { createTestDatabase, type TestDatabase } from "@raffle/db/testing";
import type { DataSource } from "typeorm";

import { copyRawRows, type RawRow } from "../src/raw-copy";

/** The raw rows' COPY (raw-copy.ts) writes what the INSERT path writes, whatever the text holds. */
describe("raw rows by COPY", () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase("raw_copy");
    dataSource = await openDatabase({ url: database.url, poolSize: 2 });
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  const row = (logIndex: number, args: unknown, topics: string[]): RawRow => ({
    blockNumber: 7,
    blockHash: `0x${"ab".repeat(32)}`,
    timestamp: new Date("2026-01-02T03:04:05.000Z"),
    txHash: `0x${"cd".repeat(32)}`,
    logIndex,
    address: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
    name: args === null ? null : "Named",
    args: args === null ? null : JSON.stringify(args),
    topics,
    data: "0x",
    status: args === null ? "UNKNOWN" : "APPLIED",
  });

  it("keeps backslashes, tabs, line ends, quotes, braces and non-ASCII text as they were", async () => {
    const tricky = { title: 'a\\b\tc\nd\re "q" {x,y} \\N ünï 😀', nested: { list: ["1", "\\"] } };
    const rows = [row(0, tricky, ["0x01", "0x02"]), row(1, null, []), row(2, {}, ['odd,topic "x"', "{y}"])];
    const copied = await dataSource.transaction((manager) => copyRawRows(manager, 31337, rows));
    expect(copied).toBe(true);
    const stored: Array<{ log_index: number; name: string | null; args: unknown; topics: string[]; status: string; block_timestamp: Date }> =
      await dataSource.query(
        `SELECT log_index, name, args, topics, status, block_timestamp FROM indexer_event WHERE chain_id = 31337 ORDER BY log_index`,
      );
    expect(stored.map(({ log_index, name, args, topics, status }) => ({ log_index, name, args, topics, status }))).toEqual([
      { log_index: 0, name: "Named", args: tricky, topics: ["0x01", "0x02"], status: "APPLIED" },
      { log_index: 1, name: null, args: null, topics: [], status: "UNKNOWN" },
      { log_index: 2, name: "Named", args: {}, topics: ['odd,topic "x"', "{y}"], status: "APPLIED" },
    ]);
    expect(stored[0].block_timestamp.toISOString()).toBe("2026-01-02T03:04:05.000Z");
  });

  it("answers false and writes nothing when a row is there already, leaving the transaction usable", async () => {
    const result = await dataSource.transaction(async (manager) => {
      const copied = await copyRawRows(manager, 31337, [row(3, {}, []), row(0, {}, [])]);
      const [{ count }] = await manager.query(`SELECT count(*)::int AS count FROM indexer_event WHERE chain_id = 31337`);
      return { copied, count };
    });
    expect(result).toEqual({ copied: false, count: 3 });
  });

  it("writes a row kept as args only with no topics and no data, and refuses a row with neither args nor raw form", async () => {
    const argsOnly = { ...row(10, { tokenId: "1" }, []), topics: null, data: null };
    expect(await dataSource.transaction((manager) => copyRawRows(manager, 31337, [argsOnly]))).toBe(true);
    const [stored] = await dataSource.query(`SELECT args, topics, data FROM indexer_event WHERE chain_id = 31337 AND log_index = 10`);
    expect(stored).toEqual({ args: { tokenId: "1" }, topics: null, data: null });
    const nothing = { ...row(11, null, []), topics: null, data: null };
    await expect(dataSource.transaction((manager) => copyRawRows(manager, 31337, [nothing]))).rejects.toThrow(/CHK_indexer_event_args_or_raw/);
  });
});
