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
});
