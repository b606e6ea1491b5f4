import { Inject, Injectable } from "@nestjs/common";
import { In, type DataSource } from "typeorm";
import { buildPurchaseArgs, type PurchaseArgs } from "@raffle/chain";
import { ContractEntity, PriceEntity, RoundEntity, RoundItemEntity, RoundStatus, RoundWinnerEntity } from "@raffle/db";

import type { ApiConfig } from "../../config/api-config";
import { RoundDto, toRoundDto } from "../../common/dto/round.dto";
import { problems } from "../../common/problem";
import { priceForQuantity } from "../ticket-sign/round-pricing";
import { jsonBody } from "../../services/json-body";
import { TtlCache } from "../../services/ttl-cache";
import { ReadReplica } from "../../services/read-replica";
import { API_CONFIG, DATA_SOURCE } from "../../services/tokens";
import { RaffleContractsService } from "../raffle-contracts/raffle-contracts.service";

/** A raffle's latest round, as stored, as served, and as the purchase arguments every voucher of it shares. */
export interface LatestRound {
  entity: RoundEntity;
  dto: RoundDto;
  /** spec 4.5 arguments built once per load; a voucher only fills in its nonce, expiry and referrer. */
  purchase: PurchaseArgs;
}

/** One page of a raffle's rounds, as stored and as served, and how many rounds the raffle has. */
export interface RoundPage {
  rows: Array<{ entity: RoundEntity; dto: RoundDto }>;
  count: number;
}

const NO_NONCE = `0x${"00".repeat(32)}`;

/** Pages of round history kept at once (each up to MAX_TAKE rounds, about 3 kB a round as served). */
const CACHED_PAGES = 200;

/** Statuses a round has winners in. */
const DRAWN_STATUSES = new Set([RoundStatus.DRAWN, RoundStatus.CLAIMED, RoundStatus.RELEASED]);

/** What a Round resource shows of its contracts and price. */
const ROUND_RELATIONS = { contract: true, ticketContract: true, price: { components: { contract: true, template: { tokens: true } } } };

@Injectable()
export class RoundsService {
  /** Latest round per raffle for READ_CACHE_MS: hot reads and signatures cost no query, ticketCount stays fresh. */
  private readonly latestRounds: TtlCache<number, LatestRound | null>;
  private readonly pages: TtlCache<string, RoundPage>;
  /**
   * Prices with their components, templates and tokens: rows the indexer only ever inserts, so each is read once
   * rather than on every refresh of a round (a reorg that replaces a price gives it a new id). Their contracts are
   * not kept here: contract rows change (pauses), and are read fresh with the round.
   */
  private readonly prices = new TtlCache<number, PriceEntity | null>(60 * 60 * 1000, 1_000);

  /** The index's rows: the read replica while it is usable, else the primary (ReadReplica). */
  private readonly dataSource: DataSource;

  constructor(
    @Inject(DATA_SOURCE) private readonly primary: DataSource,
    @Inject(API_CONFIG) config: ApiConfig,
    private readonly contracts: RaffleContractsService,
    replica: ReadReplica,
  ) {
    this.dataSource = replica.reads;
    this.latestRounds = new TtlCache(config.readCacheMs);
    this.pages = new TtlCache(config.readCacheMs, CACHED_PAGES);
  }

  /**
   * The current round of one of the caller's raffles, with everything a purchase needs: the active one, or between
   * endRound and the next startRound the one that ended, with its endTimestamp (spec 2.3). None before the first round.
   * The Round resource as JSON, serialised once per cached round.
   */
  async current(merchantId: number, contractId: number): Promise<Buffer> {
    const raffle = await this.contracts.findOwnRaffle(merchantId, contractId);
    if (!raffle) throw problems.contractNotFound(contractId);
    const latest = await this.latest(contractId);
    if (!latest) throw problems.roundNotFound(contractId);
    return jsonBody(latest, () => latest.dto);
  }

  /** The latest round of a raffle, active or not, with contracts, price, templates and tokens. */
  latest(contractId: number): Promise<LatestRound | null> {
    return this.latestRounds.get(contractId, async () => {
      const entity = await this.dataSource.getRepository(RoundEntity).findOne({ where: { contractId }, order: { roundId: "DESC" } });
      if (!entity) return null;
      const [dto] = await this.served([entity]);
      return { entity, dto, purchase: buildPurchaseArgs(dto, { nonce: NO_NONCE, expiresAt: 0, signature: "0x" }) };
    });
  }

  /**
   * Rounds as the Round resource shows them, their relations filled in with light queries (one for every round's
   * contracts, one for the drawn ones' winners, one for item prizes; each price read once) rather than one many-joined query: a refresh
   * runs every READ_CACHE_MS in every API process, and the joined query's rows cost more to build than to fetch.
   */
  private async served(rounds: RoundEntity[]): Promise<RoundDto[]> {
    const prices = new Map<number, PriceEntity | null>();
    for (const priceId of new Set(rounds.map((round) => round.priceId))) prices.set(priceId, await this.price(priceId));
    const contractIds = new Set<number>();
    for (const round of rounds) {
      contractIds.add(round.contractId).add(round.ticketContractId);
      for (const component of prices.get(round.priceId)?.components ?? []) contractIds.add(component.contractId);
    }
    const [contractRows, winners, items] = await Promise.all([
      this.dataSource.getRepository(ContractEntity).findBy({ id: In([...contractIds]) }),
      this.winners(rounds.filter((round) => DRAWN_STATUSES.has(round.roundStatus)).map((round) => round.id)),
      this.items(rounds.map((round) => round.id)),
    ]);
    const contracts = new Map(contractRows.map((contract) => [contract.id, contract]));
    return rounds.map((round) => {
      round.contract = contracts.get(round.contractId);
      round.ticketContract = contracts.get(round.ticketContractId);
      const price = prices.get(round.priceId);
      if (price) {
        // Copies with this refresh's contracts: the cached price itself never holds a contract row.
        const components = (price.components ?? []).map((component) =>
          Object.assign(Object.create(Object.getPrototypeOf(component)), component, {
            contract: contracts.get(component.contractId),
          }),
        );
        round.price = Object.assign(Object.create(Object.getPrototypeOf(price)), price, { components });
      }
      return toRoundDto(
        round,
        winners.filter((winner) => winner.roundId === round.id),
        items.filter((item) => item.roundId === round.id),
      );
    });
  }

  /** The purchase arguments of `quantity` tickets of the latest round: the ticket asset times the quantity, its price. */
  purchaseOf(latest: LatestRound, quantity: number): PurchaseArgs {
    const { item, price, value } = latest.purchase;
    const amount = priceForQuantity(price.amount, latest.entity.bundles, quantity);
    return {
      ...latest.purchase,
      item: { ...item, amount: BigInt(quantity) },
      price: { ...price, amount },
      value: value === 0n ? 0n : amount,
    };
  }

  /**
   * Tickets `buyer` bought in a round, as indexed (ticket rows of a purchase keep their buyer through transfers). From
   * the primary: a player's own purchases never count less than they did a moment ago.
   */
  async ticketsBought(roundRowId: number, buyer: string): Promise<number> {
    const [{ count }] = await this.primary.query(`SELECT count(*)::int AS count FROM ticket WHERE round_id = $1 AND buyer = $2`, [roundRowId, buyer]);
    return count;
  }

  /** A raffle's rounds, newest first: the round list resource as JSON, serialised once per cached page. */
  async list(merchantId: number, contractId: number, skip: number, take: number): Promise<Buffer> {
    const raffle = await this.contracts.findOwnRaffle(merchantId, contractId);
    if (!raffle) throw problems.contractNotFound(contractId);
    const page = await this.page(contractId, skip, take);
    return jsonBody(page, () => ({ rows: page.rows.map((row) => row.dto), count: page.count }));
  }

  /**
   * One page of a raffle's rounds, newest first, as stored and as served, whoever may read them: the caller checks
   * access (the merchant's list its ownership, the player app public sale). Kept for READ_CACHE_MS, as the latest
   * round is: a page is as fresh as GET /rounds/current.
   */
  page(contractId: number, skip: number, take: number): Promise<RoundPage> {
    return this.pages.get(`${contractId}:${skip}:${take}`, async () => {
      const repository = this.dataSource.getRepository(RoundEntity);
      const [rounds, count] = await Promise.all([
        repository.find({ where: { contractId }, order: { roundId: "DESC" }, skip, take }),
        repository.countBy({ contractId }),
      ]);
      const dtos = await this.served(rounds);
      return { rows: rounds.map((entity, index) => ({ entity, dto: dtos[index] })), count };
    });
  }

  /** One round of the caller's raffles, by its id. */
  async get(merchantId: number, id: number): Promise<RoundDto> {
    const round = await this.dataSource.getRepository(RoundEntity).findOne({ where: { id }, relations: ROUND_RELATIONS });
    // Another merchant's round is as unknown as a missing one; a raffle of a chain not served is chainNotServed.
    if (!round || !(await this.contracts.findOwnRaffle(merchantId, round.contractId))) throw problems.roundIdNotFound(id);
    return toRoundDto(round, await this.winners([round.id]), await this.items([round.id]));
  }

  /** The rounds' item prizes (issue #53): rounds without items have no row, so one light query for any page. */
  private items(roundIds: number[]): Promise<RoundItemEntity[]> {
    if (roundIds.length === 0) return Promise.resolve([]);
    return this.dataSource.getRepository(RoundItemEntity).find({ where: { roundId: In(roundIds) }, order: { roundId: "ASC", position: "ASC" } });
  }

  private winners(roundIds: number[]): Promise<RoundWinnerEntity[]> {
    if (roundIds.length === 0) return Promise.resolve([]);
    return this.dataSource.getRepository(RoundWinnerEntity).find({ where: { roundId: In(roundIds) }, order: { roundId: "ASC", position: "ASC" } });
  }

  private async price(priceId: number): Promise<PriceEntity | null> {
    const price = await this.prices.get(priceId, () =>
      this.dataSource.getRepository(PriceEntity).findOne({
        where: { id: priceId },
        relations: { components: { template: { tokens: true } } },
      }),
    );
    // A missing price (a reorg rolling back under us) is looked up again next time, not remembered.
    if (!price) this.prices.delete(priceId);
    return price;
  }
}
