import { createTestDatabase, type TestDatabase } from "./testing/test-database";
import { openDatabase } from "./data-source";
import { ContractEntity, MerchantEntity, RoundEntity, PriceEntity, TicketEntity } from "./entities";
import { ContractModule, ContractType } from "./enums";
import { isPostgresServer } from "./server-kind";

describe("database schema", () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase("schema");
  });

  afterAll(async () => {
    await database.drop();
  });

  it("migrations build exactly the schema the entities describe", async () => {
    const dataSource = await openDatabase({ url: database.url });
    try {
      const pending = await dataSource.driver.createSchemaBuilder().log();
      expect(pending.upQueries.map((query) => query.query)).toEqual([]);
      expect(await dataSource.showMigrations()).toBe(false);
      expect(await isPostgresServer(dataSource.manager)).toBe(true);
    } finally {
      await dataSource.destroy();
    }
  });

  it("keeps amounts beyond 2^53 exact as numeric strings, and a ticket to its round's ticket contract", async () => {
    const dataSource = await openDatabase({ url: database.url });
    try {
      const merchant = await dataSource.getRepository(MerchantEntity).save({ wallet: "0x00000000000000000000000000000000000000aa" });
      const raffle = await dataSource.getRepository(ContractEntity).save({
        address: "0x00000000000000000000000000000000000000bb",
        chainId: 31337,
        merchantId: merchant.id,
        contractModule: ContractModule.RAFFLE,
        parameters: { roundId: 1, commission: "1000", timeLagBeforeRelease: "86400", schedule: "* * * * *" },
      });
      const ticket = await dataSource.getRepository(ContractEntity).save({
        address: "0x00000000000000000000000000000000000000cc",
        chainId: 31337,
        merchantId: merchant.id,
        contractModule: ContractModule.RAFFLE,
        contractType: ContractType.ERC721,
      });
      const price = await dataSource.getRepository(PriceEntity).save({});
      const amount = "115792089237316195423570985008687907853269984665640564039457584007913129639935";
      const saved = await dataSource.getRepository(RoundEntity).save({
        roundId: amount,
        contractId: raffle.id,
        ticketContractId: ticket.id,
        priceId: price.id,
        maxTickets: 10,
        startTimestamp: new Date(),
        firstTicketId: "1",
        indexedBlock: 9_007_199_254_740_000,
      });
      const loaded = await dataSource.getRepository(RoundEntity).findOneByOrFail({ id: saved.id });
      expect(loaded.roundId).toBe(amount);
      expect(loaded.endTimestamp).toBeNull();
      const reloadedRaffle = await dataSource.getRepository(ContractEntity).findOneByOrFail({ id: raffle.id });
      expect(reloadedRaffle.parameters).toEqual({ roundId: 1, commission: "1000", timeLagBeforeRelease: "86400", schedule: "* * * * *" });
      expect(reloadedRaffle.isPaused).toBe(false);

      // A ticket belongs to its round's ticket contract: one foreign key holds both, and deleting the contract
      // still deletes the ticket (through its round).
      const ticketRow = (contractId: number) => ({
        contractId,
        roundId: saved.id,
        tokenId: "1",
        serial: 1,
        account: "0x00000000000000000000000000000000000000dd",
        buyer: "0x00000000000000000000000000000000000000dd",
        externalId: "1",
        txHash: `0x${"ee".repeat(32)}`,
        indexedBlock: 1,
      });
      await expect(dataSource.getRepository(TicketEntity).insert(ticketRow(raffle.id))).rejects.toThrow(/FK_ticket_round_contract/);
      await dataSource.getRepository(TicketEntity).insert(ticketRow(ticket.id));
      await dataSource.getRepository(ContractEntity).delete({ id: ticket.id });
      expect(await dataSource.getRepository(TicketEntity).count()).toBe(0);
    } finally {
      await dataSource.destroy();
    }
  });

  it("keys a raw event by its block and log, and indexes only the draw events by contract and name", async () => {
    const dataSource = await openDatabase({ url: database.url });
    try {
      const raw = (txByte: string, name: string) =>
        dataSource.query(
          `INSERT INTO indexer_event (chain_id, block_number, block_hash, block_timestamp, tx_hash, log_index, address, name, args, status)
           VALUES (31337, 1, $1, now(), $2, 0, $3, $4, '{}', 'APPLIED')`,
          [`0x${"aa".repeat(32)}`, `0x${txByte.repeat(32)}`, "0x00000000000000000000000000000000000000bb", name],
        );
      await raw("01", "TicketsPurchased");
      await raw("02", "WinnersDrawn");
      // The same log twice is refused by the primary key, which ON CONFLICT in the indexer relies on.
      await expect(raw("01", "TicketsPurchased")).rejects.toThrow(/PK_f9b4f4e3b8f310da4fba61b3a59/);
      // Planned as on a big table (sequential scans off): the draw lookups on the partial index, the lookups by block
      // (a reorg's rows above its ancestor, a batch's "anything from here on") on the primary key.
      const plans = await dataSource.transaction(async (manager) => {
        await manager.query(`SET LOCAL enable_seqscan = off`);
        const explain = async (sql: string, values: unknown[]) =>
          ((await manager.query(`EXPLAIN ${sql}`, values)) as Array<{ "QUERY PLAN": string }>).map((row) => row["QUERY PLAN"]).join("\n");
        return {
          draws: await explain(
            `SELECT tx_hash FROM indexer_event WHERE chain_id = 31337 AND address = $1
                AND name IN ('WinnersDrawn', 'RandomnessReceived') AND args ->> 'roundId' = ANY($2::text[])`,
            ["0x00000000000000000000000000000000000000bb", ["1"]],
          ),
          byBlock: await explain(`SELECT EXISTS (SELECT 1 FROM indexer_event WHERE chain_id = $1 AND block_number >= $2)`, [31337, 1]),
          reorg: await explain(`DELETE FROM indexer_event WHERE chain_id = $1 AND block_number > $2`, [31337, 1]),
        };
      });
      expect(plans.draws).toContain("IDX_indexer_event_draws");
      expect(plans.byBlock).toContain("PK_f9b4f4e3b8f310da4fba61b3a59");
      expect(plans.reorg).toContain("PK_f9b4f4e3b8f310da4fba61b3a59");
      const [{ entries }] = await dataSource.query(`SELECT count(*)::int AS entries FROM indexer_event`);
      expect(entries).toBe(2);
    } finally {
      await dataSource.destroy();
    }
  });

  it("reverts the raw events' two keys and builds them again, rows kept", async () => {
    const own = await createTestDatabase("schema-revert");
    const dataSource = await openDatabase({ url: own.url });
    try {
      await dataSource.query(
        `INSERT INTO indexer_event (chain_id, block_number, block_hash, block_timestamp, tx_hash, log_index, address, name, args, status)
         VALUES (31337, 1, $1, now(), $1, 0, '0x00000000000000000000000000000000000000bb', 'TicketsPurchased', '{}', 'APPLIED')`,
        [`0x${"aa".repeat(32)}`],
      );
      // The migrations this test reverts must still be the last two before the later ones, reverted first.
      expect(dataSource.migrations.slice(-8).map((migration) => migration.name)).toEqual([
        "RawEventsNaturalKey1765300000000",
        "RawEventsBlockKey1765400000000",
        "SiweNoncePurpose1765500000000",
        "WebhookAttempts1765600000000",
        "ApiKeyRejectedUse1765620000000",
        "ApiKeyLastCaller1765700000000",
        "GaslessRequests1765800000000",
        "RoundItems1765900000000",
      ]);
      for (let undone = 0; undone < 8; undone += 1) await dataSource.undoLastMigration();
      const [{ ids }] = await dataSource.query(`SELECT count(id)::int AS ids FROM indexer_event`);
      expect(ids).toBe(1);
      await dataSource.runMigrations();
      expect((await dataSource.driver.createSchemaBuilder().log()).upQueries).toEqual([]);
      const [{ rows }] = await dataSource.query(`SELECT count(*)::int AS rows FROM indexer_event`);
      expect(rows).toBe(1);
    } finally {
      await dataSource.destroy();
      await own.drop();
    }
  });
});
