import type { DataSource } from "typeorm";
import { openDatabase } from "@raffle/db";
import { createTestDatabase, type TestDatabase } from "@raffle/db/testing";

import { expireVouchers } from "../src/voucher-expiry";

/**
 * Every chain's indexer expires vouchers after its steps, so with several chains in one process these updates run at
 * the same time on the same rows. They must expire exactly the NEW vouchers past their end, and never wait for each
 * other (or for any transaction holding a voucher row).
 */
describe("voucher expiry", () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase("voucher_expiry");
    dataSource = await openDatabase({ url: database.url, poolSize: 4 });
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  async function claim(type: "VOUCHER" | "RAFFLE_PRIZE", status: string, endsInSeconds: number, nonce: string | null): Promise<number> {
    const [{ id: merchantId }] = await dataSource.query(
      `INSERT INTO merchant (wallet, title) VALUES ('0x00000000000000000000000000000000000000aa', 'M')
       ON CONFLICT (wallet) DO UPDATE SET wallet = EXCLUDED.wallet RETURNING id`,
    );
    const [{ id }] = await dataSource.query(
      `INSERT INTO claim (account, merchant_id, claim_type, claim_status, end_timestamp, nonce)
       VALUES ('0x00000000000000000000000000000000000000bb', $1, $2, $3, now() + make_interval(secs => $4), $5) RETURNING id`,
      [merchantId, type, status, endsInSeconds, nonce],
    );
    return id;
  }

  async function statuses(): Promise<Record<number, string>> {
    const rows: Array<{ id: number; claim_status: string }> = await dataSource.query(`SELECT id, claim_status FROM claim`);
    return Object.fromEntries(rows.map((row) => [row.id, row.claim_status]));
  }

  it("expires only NEW vouchers past their end, and skips (never waits for) a row another transaction holds", async () => {
    const past = await claim("VOUCHER", "NEW", -60, "0x01");
    const held = await claim("VOUCHER", "NEW", -60, "0x02");
    const future = await claim("VOUCHER", "NEW", 600, "0x03");
    const canceled = await claim("VOUCHER", "CANCELED", -60, "0x04");
    const prize = await claim("RAFFLE_PRIZE", "NEW", -60, null);

    // Another chain's indexer (or the API cancelling it) holds one expired voucher in an open transaction.
    const holder = dataSource.createQueryRunner();
    await holder.connect();
    await holder.startTransaction();
    try {
      await holder.query(`SELECT id FROM claim WHERE id = $1 FOR UPDATE`, [held]);
      const outcome = await Promise.race([
        Promise.all([expireVouchers(dataSource), expireVouchers(dataSource)]).then(() => "done"),
        new Promise((resolve) => setTimeout(() => resolve("waited"), 3_000)),
      ]);
      expect(outcome).toBe("done");
      expect(await statuses()).toEqual({ [past]: "EXPIRED", [held]: "NEW", [future]: "NEW", [canceled]: "CANCELED", [prize]: "NEW" });
    } finally {
      await holder.rollbackTransaction();
      await holder.release();
    }

    // Released: the next run takes it.
    await expireVouchers(dataSource);
    expect((await statuses())[held]).toBe("EXPIRED");
  });
});
