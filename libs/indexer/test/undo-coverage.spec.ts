import { openDatabase } from "@raffle/db";
import { createTestDatabase, type TestDatabase } from "@raffle/db/testing";
import type { DataSource } from "typeorm";

import { EVENT_HANDLERS, KEPT_ON_REORG, projectedTables } from "../src/event-handlers";

/**
 * The undo log covers exactly what the handlers write: every table a handler of the event table writes has the
 * `indexer_undo_<table>_insert`, `_update` and `_delete` triggers in a migrated database (or is named in KEPT_ON_REORG, with its reason), and no
 * trigger sits on a table no handler writes. A new handler writing a new table fails here until a migration adds the
 * trigger.
 */
describe("undo trigger coverage", () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase("undo_coverage");
    dataSource = await openDatabase({ url: database.url, poolSize: 1 });
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  /**
   * Tables carrying the undo triggers that call indexer_record_undo_rows(): one per statement for each of INSERT,
   * UPDATE and DELETE, after the change, with the transition tables the function reads (changed_rows, old_rows).
   */
  async function triggeredTables(): Promise<string[]> {
    const rows: Array<{ table: string; trigger: string; type: number; old_table: string | null; new_table: string | null }> = await dataSource.query(
      `SELECT c.relname AS table, t.tgname AS trigger, t.tgtype::int AS type, t.tgoldtable AS old_table, t.tgnewtable AS new_table
           FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_proc p ON p.oid = t.tgfoid
          WHERE NOT t.tgisinternal AND p.proname = 'indexer_record_undo_rows'
          ORDER BY c.relname, t.tgname`,
    );
    // pg_trigger.tgtype bits: 1 row-level, 2 before, 4 insert, 8 delete, 16 update.
    const expected = [
      { suffix: "delete", type: 8, old_table: "old_rows", new_table: null },
      { suffix: "insert", type: 4, old_table: null, new_table: "changed_rows" },
      { suffix: "update", type: 16, old_table: "old_rows", new_table: "changed_rows" },
    ];
    const tables = [...new Set(rows.map((row) => row.table))];
    for (const table of tables) {
      const triggers = rows
        .filter((row) => row.table === table)
        .map(({ trigger, type, old_table, new_table }) => ({ trigger, type, old_table, new_table }));
      expect(triggers).toEqual(
        expected.map(({ suffix, type, old_table, new_table }) => ({ trigger: `indexer_undo_${table}_${suffix}`, type, old_table, new_table })),
      );
    }
    return tables;
  }

  it("has an undo trigger on every table a handler writes, and on no other table", async () => {
    const undone = projectedTables().filter((table) => !(table in KEPT_ON_REORG));
    expect(await triggeredTables()).toEqual(undone);
  });

  it("leaves the tables a reorg keeps without a trigger, and names only tables handlers write", async () => {
    const triggered = await triggeredTables();
    for (const table of Object.keys(KEPT_ON_REORG)) {
      expect(projectedTables()).toContain(table);
      expect(triggered).not.toContain(table);
    }
  });

  it("names only tables that exist", async () => {
    const rows: Array<{ table_name: string }> = await dataSource.query(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_name = ANY($1::text[])`,
      [projectedTables()],
    );
    expect(rows.map((row) => row.table_name).sort()).toEqual(projectedTables());
    // Sanity: the table is not empty and every entry says what it writes.
    expect(EVENT_HANDLERS.every((handler) => handler.writes.length > 0)).toBe(true);
  });
});
