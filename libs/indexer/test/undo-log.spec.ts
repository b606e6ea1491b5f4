import { openDatabase } from "@raffle/db";
import { createTestDatabase, type TestDatabase } from "@raffle/db/testing";
import type { DataSource, EntityManager } from "typeorm";

import { recordUndoFor, stopRecordingUndo, undoAfter } from "../src/undo-log";

/**
 * The undo log's entries as the triggers write them and as undoAfter reads them, on a migrated database: an INSERT
 * statement leaves one entry with the ids of every row it created (UndoInsertsPerStatement1764900000000), and undoing
 * newest first still restores exactly the rows of the blocks kept, whatever later statements did to the inserted rows.
 * `price` is the projected table with no column but its id and no foreign key to fill.
 */
const CHAIN = 991;

describe("undo log", () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase("undo_log");
    dataSource = await openDatabase({ url: database.url, poolSize: 1 });
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  beforeEach(async () => {
    await dataSource.query(`DELETE FROM indexer_undo`);
    await dataSource.query(`DELETE FROM price`);
  });

  async function insertPrices(manager: EntityManager, count: number): Promise<number[]> {
    const rows: Array<{ id: number }> = await manager.query(
      `INSERT INTO price (id) SELECT nextval(pg_get_serial_sequence('price', 'id')) FROM generate_series(1, $1) RETURNING id`,
      [count],
    );
    return rows.map((row) => row.id).sort((a, b) => a - b);
  }

  const prices = async (): Promise<number[]> => (await dataSource.query(`SELECT id FROM price ORDER BY id`)).map((row: { id: number }) => row.id);

  it("writes one entry per INSERT statement with every id it created, and none for a statement that created nothing", async () => {
    const ids = await dataSource.transaction(async (manager) => {
      await recordUndoFor(manager, CHAIN, 10);
      const created = await insertPrices(manager, 3);
      await manager.query(`INSERT INTO price (id) VALUES ($1) ON CONFLICT (id) DO NOTHING`, [created[0]]);
      await stopRecordingUndo(manager);
      return created;
    });
    const entries: Array<{ block_number: string; table_name: string; op: string; row_id: number | null; row_ids: number[] }> = await dataSource.query(
      `SELECT block_number, table_name, op, row_id, row_ids FROM indexer_undo WHERE chain_id = $1 ORDER BY id`,
      [CHAIN],
    );
    expect(entries.map((entry) => ({ ...entry, row_ids: [...entry.row_ids].sort((a, b) => a - b) }))).toEqual([
      { block_number: "10", table_name: "price", op: "I", row_id: null, row_ids: ids },
    ]);
  });

  it("undoes a block's inserts after the later blocks' deletions of the same rows, and keeps the blocks below the ancestor", async () => {
    const [kept] = await dataSource.transaction(async (manager) => {
      await recordUndoFor(manager, CHAIN, 9);
      return insertPrices(manager, 1);
    });
    const created = await dataSource.transaction(async (manager) => {
      await recordUndoFor(manager, CHAIN, 10);
      const rows = await insertPrices(manager, 3);
      await recordUndoFor(manager, CHAIN, 11);
      // Block 11 deletes a row block 10 created, and one block 9 created.
      await manager.query(`DELETE FROM price WHERE id = ANY($1::int[])`, [[rows[1], kept]]);
      return rows;
    });
    expect(await prices()).toEqual([created[0], created[2]]);

    // Back to block 10: the deleted rows come back, block 10's stay.
    await dataSource.transaction((manager) => undoAfter(manager, CHAIN, 10));
    expect(await prices()).toEqual([kept, ...created].sort((a, b) => a - b));

    // Back to block 9: block 10's rows go, block 9's stays; no entry is left above the ancestor.
    await dataSource.transaction((manager) => undoAfter(manager, CHAIN, 9));
    expect(await prices()).toEqual([kept]);
    const [{ count }] = await dataSource.query(`SELECT count(*)::int AS count FROM indexer_undo WHERE chain_id = $1 AND block_number > 9`, [CHAIN]);
    expect(count).toBe(0);
  });

  it("records an update's changed columns only and a deletion's whole row, and undoes a block's inserts, updates and deletions", async () => {
    // A table of its own with the migration's trigger function, so every column type the function diffs is there.
    await dataSource.query(`DROP TABLE IF EXISTS undo_probe`);
    await dataSource.query(`CREATE TABLE undo_probe (id serial PRIMARY KEY, title text, amount numeric(78, 0), shares jsonb, at timestamptz)`);
    for (const [event, suffix, referencing] of [
      ["INSERT", "insert", "NEW TABLE AS changed_rows"],
      ["UPDATE", "update", "OLD TABLE AS old_rows NEW TABLE AS changed_rows"],
      ["DELETE", "delete", "OLD TABLE AS old_rows"],
    ]) {
      await dataSource.query(
        `CREATE TRIGGER undo_probe_${suffix} AFTER ${event} ON undo_probe REFERENCING ${referencing} FOR EACH STATEMENT EXECUTE FUNCTION indexer_record_undo_rows()`,
      );
    }
    const before = [
      { id: 1, title: "a", amount: "1000000000000000000000", shares: [60, 40], at: new Date("2026-01-01T00:00:00Z") },
      { id: 2, title: "b", amount: "2", shares: null, at: null },
      { id: 3, title: "c", amount: "3", shares: { x: 1 }, at: new Date("2026-01-02T00:00:00Z") },
    ];
    await dataSource.query(
      `INSERT INTO undo_probe (id, title, amount, shares, at) SELECT * FROM unnest($1::int[], $2::text[], $3::numeric[], $4::jsonb[], $5::timestamptz[])`,
      [
        before.map((r) => r.id),
        before.map((r) => r.title),
        before.map((r) => r.amount),
        before.map((r) => JSON.stringify(r.shares)),
        before.map((r) => r.at),
      ],
    );
    const rows = async () => dataSource.query(`SELECT id, title, amount, shares, at FROM undo_probe ORDER BY id`);
    const original = await rows();
    await dataSource.transaction(async (manager) => {
      await recordUndoFor(manager, CHAIN, 20);
      await manager.query(`INSERT INTO undo_probe (id, title, amount) VALUES (4, 'd', 4)`);
      await manager.query(
        `UPDATE undo_probe SET title = CASE id WHEN 1 THEN 'A' ELSE title END, amount = CASE id WHEN 2 THEN amount + 1 ELSE amount END, shares = shares WHERE id IN (1, 2)`,
      );
      await manager.query(`UPDATE undo_probe SET title = 'D' WHERE id = 4`);
      await manager.query(`DELETE FROM undo_probe WHERE id = 3`);
    });
    const entries: Array<{ op: string; row_id: number | null; row_ids: number[] | null; old_values: unknown }> = await dataSource.query(
      `SELECT op, row_id, row_ids, old_values FROM indexer_undo WHERE chain_id = $1 AND table_name = 'undo_probe' ORDER BY id`,
      [CHAIN],
    );
    expect(entries).toEqual([
      { op: "I", row_id: null, row_ids: [4], old_values: null },
      expect.objectContaining({ op: "U", row_id: 1, old_values: { title: "a" } }),
      expect.objectContaining({ op: "U", row_id: 2, old_values: { amount: 2 } }),
      { op: "U", row_id: 4, row_ids: null, old_values: { title: "d" } },
      { op: "D", row_id: 3, row_ids: null, old_values: expect.objectContaining({ id: 3, title: "c", amount: 3, shares: { x: 1 } }) },
    ]);
    await dataSource.transaction((manager) => undoAfter(manager, CHAIN, 19));
    expect(await rows()).toEqual(original);
    await dataSource.query(`DROP TABLE undo_probe`);
  });

  it("still undoes an insert entry of one row, as written before the entries of many rows", async () => {
    const [id] = await dataSource.transaction(async (manager) => insertPrices(manager, 1));
    await dataSource.query(`INSERT INTO indexer_undo (chain_id, block_number, table_name, op, row_id) VALUES ($1, 12, 'price', 'I', $2)`, [
      CHAIN,
      id,
    ]);
    await dataSource.transaction((manager) => undoAfter(manager, CHAIN, 11));
    expect(await prices()).toEqual([]);
  });

  it("refuses an entry with both one row and many rows, or neither", async () => {
    await expect(
      dataSource.query(`INSERT INTO indexer_undo (chain_id, block_number, table_name, op, row_id, row_ids) VALUES ($1, 1, 'price', 'I', 1, '{1}')`, [
        CHAIN,
      ]),
    ).rejects.toThrow(/CHK_indexer_undo_rows/);
    await expect(
      dataSource.query(`INSERT INTO indexer_undo (chain_id, block_number, table_name, op) VALUES ($1, 1, 'price', 'I')`, [CHAIN]),
    ).rejects.toThrow(/CHK_indexer_undo_rows/);
  });
});

describe("undo log migration UndoInsertsPerStatement1764900000000, reverted", () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase("undo_log_down");
    dataSource = await openDatabase({ url: database.url, poolSize: 1 });
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  it("refuses while entries of many rows are in the window, then writes one entry per inserted row again", async () => {
    await dataSource.transaction(async (manager) => {
      await recordUndoFor(manager, CHAIN, 5);
      await manager.query(`INSERT INTO price (id) SELECT nextval(pg_get_serial_sequence('price', 'id')) FROM generate_series(1, 2)`);
    });
    // This migration's own down, whatever migrations come after it.
    const migration = dataSource.migrations.find((candidate) => candidate.name === "UndoInsertsPerStatement1764900000000")!;
    const revert = async () => {
      const queryRunner = dataSource.createQueryRunner();
      try {
        await queryRunner.startTransaction();
        await migration.down(queryRunner);
        await queryRunner.commitTransaction();
      } catch (error) {
        await queryRunner.rollbackTransaction();
        throw error;
      } finally {
        await queryRunner.release();
      }
    };
    await expect(revert()).rejects.toThrow(/entries of many rows/);

    await dataSource.query(`DELETE FROM indexer_undo`);
    await revert();
    await dataSource.transaction(async (manager) => {
      await recordUndoFor(manager, CHAIN, 6);
      await manager.query(`INSERT INTO price (id) SELECT nextval(pg_get_serial_sequence('price', 'id')) FROM generate_series(1, 2)`);
    });
    const [{ entries }] = await dataSource.query(`SELECT count(*)::int AS entries FROM indexer_undo WHERE op = 'I' AND row_id IS NOT NULL`);
    expect(entries).toBe(2);
    const columns = await dataSource.query(`SELECT 1 FROM information_schema.columns WHERE table_name = 'indexer_undo' AND column_name = 'row_ids'`);
    expect(columns).toEqual([]);
  });
});
