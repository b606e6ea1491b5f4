import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { openDatabase } from "@raffle/db";
import { createTestDatabase, type TestDatabase } from "@raffle/db/testing";
import { Client, type Pool } from "pg";
import type { DataSource } from "typeorm";
import type { PostgresDriver } from "typeorm/driver/postgres/PostgresDriver";

import { VoucherLog, type IssuedVoucher } from "./voucher-log";

/** Group commit on a real PostgreSQL: how rows are grouped into INSERTs, and that each is committed when it resolves. */
describe("VoucherLog", () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let next = 0;

  beforeAll(async () => {
    database = await createTestDatabase("voucher_log");
    dataSource = await openDatabase({ url: database.url, poolSize: 4 });
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  const row = (): IssuedVoucher => ({
    nonce: `0x${(next += 1).toString(16).padStart(64, "0")}`,
    account: "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc",
    referrer: "0x0000000000000000000000000000000000000000",
    merchantId: 1,
    apiKeyId: 1,
    contractId: 1,
    roundId: 1,
    expiresAt: 1_900_000_000,
  });

  /**
   * Counts the INSERTs the log sends (on whichever connection of the pool) and keeps their statement names; also
   * follows the connections: which ran INSERTs, and the times each went back to the pool between its first and last.
   */
  function countInserts(source = dataSource): {
    count: () => number;
    names: () => unknown[];
    connections: () => number;
    releasesBetweenInserts: () => number;
    restore: () => void;
  } {
    const pool = (source.driver as PostgresDriver).master as Pool;
    const originalQuery = Client.prototype.query;
    const events: Array<{ kind: "insert" | "release"; client: unknown; name?: unknown }> = [];
    const onRelease = (_error: unknown, client: unknown) => events.push({ kind: "release", client });
    pool.on("release", onRelease);
    Client.prototype.query = function (this: Client, ...args: unknown[]) {
      const config = args[0] as { text?: string; name?: string } | string;
      if (typeof config === "object" && config.text?.includes("INSERT INTO ticket_voucher"))
        events.push({ kind: "insert", client: this, name: config.name });
      return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof Client.prototype.query;
    const inserts = () => events.filter((event) => event.kind === "insert");
    return {
      count: () => inserts().length,
      names: () => inserts().map((event) => event.name),
      connections: () => new Set(inserts().map((event) => event.client)).size,
      releasesBetweenInserts: () => {
        const first = events.findIndex((event) => event.kind === "insert");
        const last = events.map((event) => event.kind).lastIndexOf("insert");
        return events.slice(first, last).filter((event) => event.kind === "release").length;
      },
      restore: () => {
        Client.prototype.query = originalQuery;
        pool.off("release", onRelease);
      },
    };
  }

  const stored = async (nonces: string[]) =>
    Number((await dataSource.query(`SELECT count(*)::int AS n FROM ticket_voucher WHERE nonce = ANY($1)`, [nonces]))[0].n);

  it("writes the rows recorded together in one INSERT, and the rows that arrive while it is in flight in the next", async () => {
    const log = new VoucherLog(dataSource, { voucherFlushMs: 0 });
    const inserts = countInserts();
    try {
      const together = Array.from({ length: 4 }, row);
      const first = Promise.all(together.map((entry) => log.record(entry)));
      // The first INSERT is sent after the log's one-time version query; the rows below arrive once it is sent.
      for (let turns = 0; turns < 10_000 && inserts.count() === 0; turns += 1) await new Promise((resolve) => setImmediate(resolve));
      expect(inserts.count()).toBe(1);
      const meanwhile = Array.from({ length: 2 }, row);
      await Promise.all([first, ...meanwhile.map((entry) => log.record(entry))]);
      expect(inserts.count()).toBe(2);
      // A named statement on a PostgreSQL server: parsed and planned once per connection.
      expect(inserts.names()).toEqual(["insert-ticket-vouchers", "insert-ticket-vouchers"]);
      expect(await stored([...together, ...meanwhile].map((entry) => entry.nonce))).toBe(6);
      // Both INSERTs ran in one loop, on one connection kept between them and handed back once the queue was empty.
      expect(inserts.connections()).toBe(1);
      expect(inserts.releasesBetweenInserts()).toBe(0);
      const pool = (dataSource.driver as PostgresDriver).master as Pool;
      expect(pool.idleCount).toBe(pool.totalCount);
    } finally {
      inserts.restore();
    }
  });

  it("with voucherFlushMs, spaces INSERTs out so that rows arriving within it share one", async () => {
    // A window far longer than one INSERT takes, even with suites side by side on two cores.
    const flushMs = 1_000;
    const log = new VoucherLog(dataSource, { voucherFlushMs: flushMs });
    const inserts = countInserts();
    try {
      const first = row();
      const started = Date.now();
      await log.record(first);
      expect(Date.now() - started).toBeLessThan(flushMs);
      const later = Array.from({ length: 5 }, row);
      const pending = later.map((entry) => log.record(entry));
      await new Promise((resolve) => setTimeout(resolve, 20));
      pending.push(log.record(row()));
      await Promise.all(pending);
      expect(Date.now() - started).toBeGreaterThanOrEqual(flushMs);
      expect(inserts.count()).toBe(2);
      expect(await stored([first, ...later].map((entry) => entry.nonce))).toBe(6);
    } finally {
      inserts.restore();
    }
  });

  it("rejects every row of a failed INSERT, and records nothing of it", async () => {
    const log = new VoucherLog(dataSource, { voucherFlushMs: 0 });
    const duplicate = row();
    await log.record(duplicate);
    const fresh = row();
    // Recorded together, both rows go in one INSERT, which fails on the duplicate's unique nonce: neither is recorded.
    const outcomes = await Promise.allSettled([log.record({ ...duplicate }), log.record(fresh)]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["rejected", "rejected"]);
    expect(await stored([fresh.nonce])).toBe(0);
    // The log goes on: the next row is written.
    const later = row();
    await log.record(later);
    expect(await stored([later.nonce])).toBe(1);
  });

  it("on the embedded PGlite (one session behind every connection), INSERTs on two connections at once both land", async () => {
    const embedded = await openDatabase({ pgliteDir: fs.mkdtempSync(path.join(os.tmpdir(), "voucher-log-")), poolSize: 4 });
    try {
      // Two logs flush at the same time, so the pool runs their INSERTs on two connections of the one session.
      const logs = [new VoucherLog(embedded, { voucherFlushMs: 0 }), new VoucherLog(embedded, { voucherFlushMs: 0 })];
      const rows = Array.from({ length: 4 }, row);
      const inserts = countInserts(embedded);
      await Promise.all(rows.map((entry, index) => logs[index % 2].record(entry)));
      inserts.restore();
      expect(inserts.names().length).toBeGreaterThanOrEqual(2);
      expect(inserts.names().every((name) => name === undefined)).toBe(true);
      const [{ n }] = await embedded.query(`SELECT count(*)::int AS n FROM ticket_voucher WHERE nonce = ANY($1)`, [rows.map((entry) => entry.nonce)]);
      expect(n).toBe(4);
    } finally {
      await embedded.destroy();
    }
  });
});
