import { Inject, Injectable } from "@nestjs/common";
import { In, type DataSource } from "typeorm";
import { buildPurchaseArgs, type PurchaseArgs } from "@raffle/chain";
import { ContractEntity, PriceEntity, RoundEntity, RoundStatus, RoundWinnerEntity } from "@raffle/db";

import type { ApiConfig } from "../../config/api-config";
import { RoundDto, toRoundDto } from "../../common/dto/round.dto";
import { problems } from "../../common/problem";
import { priceForQuantity } from "../ticket-sign/round-pricing";
import { TtlCache } from "../../services/ttl-cache";
import { API_CONFIG, DATA_SOURCE } from "../../services/tokens";
import { RaffleContractsService } from "../raffle-contracts/raffle-contracts.service";

/** A raffle's latest round, as stored, as served, and as the purchase arguments every voucher of it shares. */
export interface LatestRound {
  entity: RoundEntity;
  dto: RoundDto;
  /** spec 4.5 arguments built once per load; a voucher only fills in its nonce, expiry and referrer. */
  purchase: PurchaseArgs;
}

const NO_NONCE = `0x${"00".repeat(32)}`;

/** Statuses a round has winners in. */
const DRAWN_STATUSES = new Set([RoundStatus.DRAWN, RoundStatus.CLAIMED, RoundStatus.RELEASED]);

/** What a Round resource shows of its contracts and price. */
const ROUND_RELATIONS = { contract: true, ticketContract: true, price: { components: { contract: true, template: { tokens: true } } } };

@Injectable()
export class RoundsService {
  /** Latest round per raffle for READ_CACHE_MS: hot reads and signatures cost no query, ticketCount stays fresh. */
  private readonly latestRounds: TtlCache<number, LatestRound | null>;
  /**
   * Prices with their components, templates and tokens: rows the indexer only ever inserts, so each is read once
   * rather than on every refresh of a round (a reorg that replaces a price gives it a new id). Their contracts are
   * not kept here: contract rows change (pauses), and are read fresh with the round.
   */
  private readonly prices = new TtlCache<number, PriceEntity | null>(60 * 60 * 1000, 1_000);

  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(API_CONFIG) config: ApiConfig,
    private readonly contracts: RaffleContractsService,
  ) {
    this.latestRounds = new TtlCache(config.readCacheMs);
  }

  /**
   * The current round of one of the caller's raffles, with everything a purchase needs: the active one, or between
   * endRound and the next startRound the one that ended, with its endTimestamp (spec 2.3). None before the first round.
   */
  async current(merchantId: number, contractId: number): Promise<RoundDto> {
    const raffle = await this.contracts.findOwnRaffle(merchantId, contractId);
    if (!raffle) throw problems.contractNotFound(contractId);
    const latest = await this.latest(contractId);
    if (!latest) throw problems.roundNotFound(contractId);
    return latest.dto;
  }

  /** The latest round of a raffle, active or not, with contracts, price, templates and tokens. */
  latest(contractId: number): Promise<LatestRound | null> {
    return this.latestRounds.get(contractId, async () => {
      // Light queries per refresh (the round row, then its contracts; its price is read once) instead of one
      // many-joined query: the refresh runs every READ_CACHE_MS in every API process.
      const entity = await this.dataSource.getRepository(RoundEntity).findOne({ where: { contractId }, order: { roundId: "DESC" } });
      if (!entity) return null;
      const price = await this.price(entity.priceId);
      const contractIds = [entity.contractId, entity.ticketContractId, ...(price?.components ?? []).map((c) => c.contractId)];
      const contractRows = await this.dataSource.getRepository(ContractEntity).findBy({ id: In([...new Set(contractIds)]) });
      const contracts = new Map(contractRows.map((contract) => [contract.id, contract]));
      entity.contract = contracts.get(entity.contractId);
      entity.ticketContract = contracts.get(entity.ticketContractId);
      if (price) {
        // Copies with this refresh's contracts: the cached price itself never holds a contract row.
        const components = (price.components ?? []).map((component) =>
          Object.assign(Object.create(Object.getPrototypeOf(component)), component, {
            contract: contracts.get(component.contractId),
          }),
        );
        entity.price = Object.assign(Object.create(Object.getPrototypeOf(price)), price, { components });
      }
      const winners = DRAWN_STATUSES.has(entity.roundStatus) ? await this.winners([entity.id]) : [];
      const dto = toRoundDto(entity, winners);
      return { entity, dto, purchase: buildPurchaseArgs(dto, { nonce: NO_NONCE, expiresAt: 0, signature: "0x" }) };
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

  /** Tickets `buyer` bought in a round, as indexed (ticket rows of a purchase keep their buyer through transfers). */
  async ticketsBought(roundRowId: number, buyer: string): Promise<number> {
    const [{ count }] = await this.dataSource.query(`SELECT count(*)::int AS count FROM ticket WHERE round_id = $1 AND buyer = $2`, [
      roundRowId,
      buyer,
    ]);
    return count;
  }

  /** A raffle's rounds, newest first. */
  async list(merchantId: number, contractId: number, skip: number, take: number): Promise<{ rows: RoundDto[]; count: number }> {
    const raffle = await this.contracts.findOwnRaffle(merchantId, contractId);
    if (!raffle) throw problems.contractNotFound(contractId);
    const { rows, count } = await this.page(contractId, skip, take);
    return { rows: rows.map((row) => row.dto), count };
  }

  /**
   * One page of a raffle's rounds, newest first, as stored and as served, whoever may read them: the caller checks
   * access (the merchant's list its ownership, the player app public sale).
   */
  async page(contractId: number, skip: number, take: number): Promise<{ rows: Array<{ entity: RoundEntity; dto: RoundDto }>; count: number }> {
    const [rounds, count] = await this.dataSource.getRepository(RoundEntity).findAndCount({
      where: { contractId },
      order: { roundId: "DESC" },
      skip,
      take,
      relations: ROUND_RELATIONS,
    });
    const winners = await this.winners(rounds.filter((round) => DRAWN_STATUSES.has(round.roundStatus)).map((round) => round.id));
    return {
      rows: rounds.map((round) => ({
        entity: round,
        dto: toRoundDto(
          round,
          winners.filter((winner) => winner.roundId === round.id),
        ),
      })),
      count,
    };
  }

  /** One round of the caller's raffles, by its id. */
  async get(merchantId: number, id: number): Promise<RoundDto> {
    const round = await this.dataSource.getRepository(RoundEntity).findOne({ where: { id }, relations: ROUND_RELATIONS });
    // Another merchant's round is as unknown as a missing one; a raffle of a chain not served is chainNotServed.
    if (!round || !(await this.contracts.findOwnRaffle(merchantId, round.contractId))) throw problems.roundIdNotFound(id);
    return toRoundDto(round, await this.winners([round.id]));
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
