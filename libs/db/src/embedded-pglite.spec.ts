import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Client } from "pg";

import { openDatabase } from "./data-source";
import { MerchantEntity } from "./entities";
import { isPostgresServer } from "./server-kind";

describe("embedded PGlite served over the PostgreSQL protocol", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "raffle-pglite-"));

  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it("migrates, keeps its data across restarts, and isolates a running transaction", async () => {
    const first = await openDatabase({ pgliteDir: dataDir });
    await first.getRepository(MerchantEntity).save({ wallet: "0x00000000000000000000000000000000000000a1" });
    await first.destroy();

    const dataSource = await openDatabase({ pgliteDir: dataDir });
    try {
      expect(await dataSource.getRepository(MerchantEntity).count()).toBe(1);
      // Named statements and COPY are for PostgreSQL servers only (server-kind.ts): this is not one.
      expect(await isPostgresServer(dataSource.manager)).toBe(false);
      const pending = await dataSource.driver.createSchemaBuilder().log();
      expect(pending.upQueries).toEqual([]);

      // A transaction that inserts then fails must not leak its row to, or be committed by, another connection.
      const url = (dataSource.options as { url: string }).url;
      const other = new Client({ connectionString: url });
      await other.connect();
      try {
        const failing = dataSource.transaction(async (manager) => {
          await manager.getRepository(MerchantEntity).save({ wallet: "0x00000000000000000000000000000000000000b2" });
          await new Promise((resolve) => setTimeout(resolve, 100));
          throw new Error("abort");
        });
        const seen = await other.query(`SELECT count(*)::int AS count FROM merchant`);
        await expect(failing).rejects.toThrow("abort");
        expect(seen.rows[0].count).toBe(1);
        expect((await other.query(`SELECT count(*)::int AS count FROM merchant`)).rows[0].count).toBe(1);
      } finally {
        await other.end();
      }
    } finally {
      await dataSource.destroy();
    }
  });
});
