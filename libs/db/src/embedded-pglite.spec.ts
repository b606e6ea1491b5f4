import * as fs from "node:fs";
import * as net from "node:net";
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

  it("closes a connection that does not speak the PostgreSQL protocol at once, and goes on serving", async () => {
    const dataSource = await openDatabase({ pgliteDir: dataDir });
    try {
      const { hostname, port } = new URL((dataSource.options as { url: string }).url);
      // What a web page can make a browser send to any loopback port: an HTTP request with a large body.
      const socket = net.connect(Number(port), hostname);
      socket.on("error", () => undefined);
      const closed = new Promise<boolean>((resolve) => {
        socket.once("close", () => resolve(true));
        setTimeout(() => resolve(false), 3_000);
      });
      socket.write(`POST / HTTP/1.1\r\nHost: ${hostname}\r\nContent-Length: 100000000\r\n\r\n`);
      socket.write(Buffer.alloc(64 * 1024, 0x41));
      expect(await closed).toBe(true);
      socket.destroy();
      expect(await dataSource.query(`SELECT 1 AS one`)).toEqual([{ one: 1 }]);
    } finally {
      await dataSource.destroy();
    }
  });
});
