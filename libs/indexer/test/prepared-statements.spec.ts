import { openDatabase } from "@raffle/db";
import { createTestDatabase, type TestDatabase } from "@raffle/db/testing";
import type { DataSource, EntityManager } from "typeorm";

import { silentLogger } from "../src/logger";
import { runNamed } from "../src/prepared";
import { RawLogStore } from "../src/raw-log-store";
import type { Registry } from "../src/registry";
import { recordUndoFor } from "../src/undo-log";

/**
 * The statements a step runs every time go as named statements (prepared.ts), parsed and planned once per
 * connection; their answers are those of the same SQL run unnamed. One pooled connection, so every transaction here
 * runs on the same PostgreSQL session.
 */
const CHAIN = 992;

describe("named statements of the indexer", () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase("prepared");
    dataSource = await openDatabase({ url: database.url, poolSize: 1 });
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  const store = () => new RawLogStore(CHAIN, {} as Registry, silentLogger);
  const prepared = async (manager: EntityManager): Promise<string[]> =>
    (await manager.query(`SELECT name FROM pg_prepared_statements ORDER BY name`)).map((row: { name: string }) => row.name);

  it("prepares a step's statements once on the transaction's connection, and answers as unnamed SQL does", async () => {
    const hash = `0x${"ab".repeat(32)}`;
    await dataSource.transaction(async (manager) => {
      await recordUndoFor(manager, CHAIN, 5);
      await recordUndoFor(manager, CHAIN, 6);
      expect(await manager.query(`SELECT current_setting('indexer.block') AS block`)).toEqual([{ block: "6" }]);
      await store().writeCursor(manager, 6, hash);
      expect(await store().readCursor(manager)).toEqual({ blockNumber: 6, blockHash: hash });
      expect(await prepared(manager)).toEqual(["indexer-read-cursor", "indexer-undo-record", "indexer-write-cursor"]);
    });
    // The next transaction takes the same session: the names are reused, not prepared again (that would fail).
    await dataSource.transaction(async (manager) => {
      await store().writeCursor(manager, 7, hash);
      await recordUndoFor(manager, CHAIN, 7);
      expect(await prepared(manager)).toEqual(["indexer-read-cursor", "indexer-undo-record", "indexer-write-cursor"]);
    });
    // Outside a transaction's query runner the same statement runs unnamed, with the same answer.
    expect(await store().readCursor(dataSource.manager)).toEqual({ blockNumber: 7, blockHash: hash });
  });

  it("leaves the session usable after a named statement fails inside a transaction", async () => {
    const failing = { name: "indexer-test-failing", text: `SELECT 1 / $1::int AS quotient` };
    await expect(dataSource.transaction((manager) => runNamed(manager, failing, [0]))).rejects.toThrow(/division by zero/);
    expect(await dataSource.transaction((manager) => runNamed(manager, failing, [4]))).toEqual([{ quotient: 0 }]);
    expect(await dataSource.transaction((manager) => runNamed(manager, failing, [1]))).toEqual([{ quotient: 1 }]);
  });
});
