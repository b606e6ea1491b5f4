import { ZeroAddress } from "ethers";
import type { EntityManager } from "typeorm";
import { tokenTypeName } from "@raffle/chain";
import { ContractFeature, TicketStatus, richText } from "@raffle/db";

import { ContractKind, type EventArgs } from "./decode";
import { argString, type IndexedEvent } from "./indexed-event";
import type { Registry, RegisteredContract } from "./registry";
import type { TokenMetadataReader } from "./token-metadata";

const BASIS_POINTS = 10_000n;

/** Rows of an `UPDATE ... RETURNING`: TypeORM answers UPDATE and DELETE with `[rows, affectedCount]`. */
async function updateReturning<T>(manager: EntityManager, sql: string, parameters: unknown[]): Promise<T[]> {
  const result = await manager.query(sql, parameters);
  return (Array.isArray(result[0]) && typeof result[1] === "number" ? result[0] : result) as T[];
}
/**
 * What each winner position pays before commission (the contract's `_prizeAmount`): pot x share / 10,000 rounded
 * down for every position but the first, which takes the rest, so the amounts add up to the pot exactly.
 */
export function prizeAmounts(pot: bigint, shares: number[]): bigint[] {
  const amounts = shares.map((share) => (pot * BigInt(share)) / BASIS_POINTS);
  if (amounts.length > 0) amounts[0] = pot - amounts.slice(1).reduce((sum, amount) => sum + amount, 0n);
  return amounts;
}

const RAFFLE_FEATURES = [ContractFeature.RANDOM, ContractFeature.ALLOWANCE, ContractFeature.PAUSABLE];

export interface ProjectorContext {
  chainId: number;
  platformMerchantId: number;
  /** Cron schedule given to newly registered raffles until their merchant sets one. */
  defaultSchedule: string;
  registry: Registry;
  tokens: TokenMetadataReader;
}

interface AssetArgs {
  tokenType: string;
  token: string;
  tokenId: string;
  amount: string;
}

/**
 * Turns events into rows. A reorg is rolled back from the undo log that the database records of every row change
 * made here (see undo-log.ts), so a new handler needs nothing else to be undone. Rows take their timestamps from
 * blocks, so a replay or a restart writes exactly what a clean run writes.
 */
export class Projector {
  private readonly tokenCache = new Map<string, { contractId: number; templateId: number }>();

  constructor(private readonly ctx: ProjectorContext) {}

  /**
   * Forgets the row ids it caches. A rollback (here, or by another process while this one did not lead) may have
   * deleted the rows they name: a price token first used in a removed block loses its contract row, and a cached id
   * would then break every later round priced in that token.
   */
  forgetCachedRows(): void {
    this.tokenCache.clear();
  }

  /** Applies one event; returns the contracts it registered, whose logs from this block on must be read too. */
  async apply(manager: EntityManager, event: IndexedEvent): Promise<RegisteredContract[]> {
    const contract = this.ctx.registry.get(event.address);
    if (!contract) return [];
    switch (contract.kind) {
      case ContractKind.FACTORY:
        return event.name === "RaffleDeployed" ? this.raffleDeployed(manager, event) : [];
      case ContractKind.RAFFLE:
        await this.applyRaffleEvent(manager, contract, event);
        return [];
      case ContractKind.TICKET:
        if (event.name === "Transfer") await this.ticketTransferred(manager, contract, event);
        return [];
      case ContractKind.EXCHANGE:
        if (event.name === "Paused" || event.name === "Unpaused") await this.pauseChanged(manager, contract, event);
        if (event.name === "Claimed") await this.voucherRedeemed(manager, event);
        return [];
    }
  }

  private async applyRaffleEvent(manager: EntityManager, raffle: RegisteredContract, event: IndexedEvent): Promise<void> {
    switch (event.name) {
      case "RoundStarted":
        return this.roundStarted(manager, raffle, event);
      case "RoundRulesApplied":
        return this.roundRulesApplied(manager, raffle, event);
      case "TicketsPurchased":
        return this.applyPurchases(manager, [event]);
      case "RoundEnded":
        return this.roundEnded(manager, raffle, event);
      case "MinimumNotReached":
        return this.setRefundReason(manager, raffle, event, "MINIMUM_NOT_REACHED");
      case "DrawRefused":
        return this.setRefundReason(manager, raffle, event, "DRAW_REFUSED");
      case "RoundRefundable":
        return this.roundRefundable(manager, raffle, event);
      case "RandomnessReceived":
        return this.randomnessReceived(manager, raffle, event);
      case "WinnersDrawn":
        return this.winnersDrawn(manager, raffle, event);
      case "PrizeClaimed":
        return this.prizeClaimed(manager, raffle, event);
      case "PrizeReleased":
        return this.prizesReleased(manager, raffle, event);
      case "TicketRefunded":
        return this.ticketRefunded(manager, raffle, event);
      case "Paused":
      case "Unpaused":
        return this.pauseChanged(manager, raffle, event);
      default:
        return; // configuration and role events (RoundRulesSet among them) are kept in the raw log only
    }
  }

  // ------------------------------------------------------------------ registration

  private async raffleDeployed(manager: EntityManager, event: IndexedEvent): Promise<RegisteredContract[]> {
    const { args, blockTimestamp: at, blockNumber } = event;
    const merchantWallet = argString(args, "merchant");
    const [{ id: merchantId }] = await manager.query(
      `INSERT INTO merchant (wallet, created_at, updated_at) VALUES ($1, $2, $2)
       ON CONFLICT (wallet) DO UPDATE SET wallet = EXCLUDED.wallet RETURNING id`,
      [merchantWallet, at],
    );
    const ticketAddress = argString(args, "ticket");
    const meta = await this.ctx.tokens.read(ticketAddress, false);
    const parameters = {
      timeLagBeforeRelease: argString(args, "timeLagBeforeRelease"),
      commission: argString(args, "commission"),
      schedule: this.ctx.defaultSchedule,
      roundId: 0,
    };
    const raffleId = await this.insertContract(manager, {
      address: argString(args, "raffle"),
      merchantId,
      title: `${meta.name || "Raffle"} raffle`,
      name: "Raffle",
      symbol: "",
      decimals: 0,
      contractType: null,
      features: RAFFLE_FEATURES,
      module: "RAFFLE",
      parameters,
      fromBlock: blockNumber,
      at,
      raffleContractId: null,
    });
    const ticketId = await this.insertContract(manager, {
      address: ticketAddress,
      merchantId,
      title: meta.name,
      name: meta.name,
      symbol: meta.symbol,
      decimals: 0,
      contractType: "ERC721",
      features: [],
      module: "RAFFLE",
      parameters: {},
      fromBlock: blockNumber,
      at,
      raffleContractId: raffleId,
    });
    const registered: RegisteredContract[] = [
      { id: raffleId, address: argString(args, "raffle"), kind: ContractKind.RAFFLE, merchantId, fromBlock: blockNumber },
      { id: ticketId, address: ticketAddress, kind: ContractKind.TICKET, merchantId, fromBlock: blockNumber },
    ];
    for (const contract of registered) this.ctx.registry.add(contract);
    return registered;
  }

  private async insertContract(
    manager: EntityManager,
    row: {
      address: string;
      merchantId: number;
      title: string;
      name: string;
      symbol: string;
      decimals: number;
      contractType: string | null;
      features: string[];
      module: string;
      parameters: object;
      fromBlock: number;
      at: Date;
      raffleContractId: number | null;
    },
  ): Promise<number> {
    const [{ id }] = await manager.query(
      `INSERT INTO contract (address, chain_id, title, description, merchant_id, name, symbol, decimals, from_block,
                             parameters, contract_type, contract_features, contract_module, raffle_contract_id,
                             indexed_block, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $9, $15, $15)
       ON CONFLICT (chain_id, address) DO UPDATE SET address = EXCLUDED.address RETURNING id`,
      [
        row.address,
        this.ctx.chainId,
        row.title,
        richText(row.title),
        row.merchantId,
        row.name,
        row.symbol,
        row.decimals,
        row.fromBlock,
        JSON.stringify(row.parameters),
        row.contractType,
        `{${row.features.join(",")}}`,
        row.module,
        row.raffleContractId,
        row.at,
      ],
    );
    return id;
  }

  // ------------------------------------------------------------------ rounds

  private async roundStarted(manager: EntityManager, raffle: RegisteredContract, event: IndexedEvent): Promise<void> {
    const { args, blockTimestamp: at } = event;
    const roundId = argString(args, "roundId");
    const ticket = args.ticket as unknown as AssetArgs;
    const price = args.price as unknown as AssetArgs;
    const ticketContract = this.ctx.registry.get(ticket.token);
    if (!ticketContract) throw new Error(`round ${roundId} of ${raffle.address} names unknown ticket ${ticket.token}`);

    const priceId = await this.insertPrice(manager, price, at);
    const maxTickets = argString(args, "maxTicket");
    const roundNumber = Number(roundId);
    await manager.query(
      `INSERT INTO round (number, round_id, contract_id, ticket_contract_id, price_id, max_tickets, start_timestamp,
                          ticket_count, round_status, first_ticket_id, indexed_block, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 0, 'ACTIVE', $8, $9, $7, $7)`,
      [
        Number.isSafeInteger(roundNumber) && roundNumber <= 2_147_483_647 ? roundNumber : null,
        roundId,
        raffle.id,
        ticketContract.id,
        priceId,
        maxTickets,
        at,
        argString(args, "firstTicketId"),
        event.blockNumber,
      ],
    );
    await this.refreshCurrentRoundId(manager, raffle.id, at);
  }

  /** `parameters.roundId` of a raffle: its latest round, 0 before the first. */
  private async refreshCurrentRoundId(manager: EntityManager, raffleId: number, at: Date | null): Promise<void> {
    await manager.query(
      `UPDATE contract SET parameters = jsonb_set(parameters, '{roundId}',
              to_jsonb(COALESCE((SELECT max(round_id) FROM round WHERE contract_id = $1), 0)::bigint)),
              updated_at = COALESCE($2, updated_at)
        WHERE id = $1`,
      [raffleId, at],
    );
  }

  private async insertPrice(manager: EntityManager, asset: AssetArgs, at: Date): Promise<number> {
    const tokenType = tokenTypeName(BigInt(asset.tokenType));
    const token = await this.ensureTokenContract(manager, tokenType, asset.token, at);
    const [{ id: priceId }] = await manager.query(`INSERT INTO price DEFAULT VALUES RETURNING id`);
    await manager.query(
      `INSERT INTO price_component (token_type, contract_id, template_id, token_id, amount, price_id)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [tokenType, token.contractId, token.templateId, asset.tokenId, asset.amount, priceId],
    );
    return priceId;
  }

  /** A price token as a contract row with one template and its token "0"; created on first use, never removed. */
  private async ensureTokenContract(
    manager: EntityManager,
    tokenType: string,
    address: string,
    at: Date,
  ): Promise<{ contractId: number; templateId: number }> {
    const cached = this.tokenCache.get(address);
    if (cached) return cached;
    const native = address === ZeroAddress;
    const meta = native ? { name: "Native coin", symbol: "ETH", decimals: 18 } : await this.ctx.tokens.read(address, tokenType === "ERC20");
    const contractId = await this.insertContract(manager, {
      address,
      merchantId: this.ctx.platformMerchantId,
      title: meta.name,
      name: meta.name,
      symbol: meta.symbol,
      decimals: meta.decimals,
      contractType: tokenType,
      features: [],
      module: "HIERARCHY",
      parameters: {},
      fromBlock: 0,
      at,
      raffleContractId: null,
    });
    let [template] = await manager.query(`SELECT id FROM template WHERE contract_id = $1 ORDER BY id LIMIT 1`, [contractId]);
    if (!template) {
      [template] = await manager.query(
        `INSERT INTO template (title, description, contract_id, created_at, updated_at) VALUES ($1, $2, $3, $4, $4) RETURNING id`,
        [meta.name, richText(meta.name), contractId, at],
      );
      await manager.query(
        `INSERT INTO token (token_id, template_id, metadata, created_at, updated_at) VALUES ('0', $1, '{}', $2, $2)
         ON CONFLICT (template_id, token_id) DO NOTHING`,
        [template.id, at],
      );
    }
    const entry = { contractId, templateId: template.id as number };
    this.tokenCache.set(address, entry);
    return entry;
  }

  /**
   * TicketsPurchased events of raffles, in chain order, written in two statements whatever their number: one ticket
   * row per ticket bought (ids firstTicketId..firstTicketId+quantity-1), then each round's ticket count, pot and last
   * change. This is the indexer's hot path. A ticket's tier is the number of the round's bundles whose quantity is at
   * most the purchase's (bundles rise in quantity), exactly the contract's `_bundlePrice`; it paid amount / quantity.
   */
  async applyPurchases(manager: EntityManager, events: IndexedEvent[]): Promise<void> {
    if (events.length === 0) return;
    const column = (pick: (event: IndexedEvent) => unknown) => events.map(pick);
    const inserted: Array<{ round_id: number; updated_at: Date; paid_amount: string }> = await manager.query(
      `INSERT INTO ticket (contract_id, round_id, token_id, serial, account, buyer, external_id, tx_hash, tier, paid_amount,
                           indexed_block, created_at, updated_at)
       SELECT r.ticket_contract_id, r.id, v.first_ticket_id + k, (v.first_ticket_id + k - r.first_ticket_id + 1)::int,
              v.account, v.account, v.external_id, v.tx_hash,
              (SELECT count(*) FROM jsonb_array_elements(r.bundles) b WHERE (b ->> 'quantity')::int <= v.quantity)::int,
              div(v.amount, v.quantity), v.block, v.at, v.at
         FROM unnest($1::int[], $2::numeric[], $3::numeric[], $4::int[], $5::numeric[], $6::text[], $7::numeric[],
                     $8::text[], $9::bigint[], $10::timestamptz[])
           AS v(raffle_id, round_id, first_ticket_id, quantity, amount, account, external_id, tx_hash, block, at)
         JOIN round r ON r.contract_id = v.raffle_id AND r.round_id = v.round_id
         CROSS JOIN LATERAL generate_series(0, v.quantity - 1) AS k
       ON CONFLICT (contract_id, token_id) DO NOTHING RETURNING round_id, updated_at, paid_amount`,
      [
        column((event) => this.ctx.registry.get(event.address)!.id),
        column((event) => argString(event.args, "roundId")),
        column((event) => argString(event.args, "firstTicketId")),
        column((event) => argString(event.args, "quantity")),
        column((event) => argString(event.args, "amount")),
        column((event) => argString(event.args, "account")),
        column((event) => argString(event.args, "externalId")),
        column((event) => event.txHash),
        column((event) => event.blockNumber),
        column((event) => event.blockTimestamp),
      ],
    );
    if (inserted.length === 0) return;
    await manager.query(
      `UPDATE round SET ticket_count = ticket_count + c.added, pot = pot + c.paid, updated_at = GREATEST(round.updated_at, c.last)
         FROM (SELECT v.round_id, count(*)::int AS added, sum(v.paid) AS paid, max(v.at) AS last
                 FROM unnest($1::int[], $2::timestamptz[], $3::numeric[]) AS v(round_id, at, paid) GROUP BY v.round_id) c
        WHERE round.id = c.round_id`,
      [inserted.map((row) => row.round_id), inserted.map((row) => row.updated_at), inserted.map((row) => row.paid_amount)],
    );
  }

  /** The rules the round plays by, fixed when it started (emitted right after RoundStarted). */
  private async roundRulesApplied(manager: EntityManager, raffle: RegisteredContract, event: IndexedEvent): Promise<void> {
    const rules = event.args.rules as {
      prizeShares: string[];
      minTickets: string;
      maxTicketsPerWallet: string;
      bundles: Array<{ quantity: string; price: string }>;
    };
    await manager.query(
      `UPDATE round SET rules_version = $3, prize_shares = $4, min_tickets = $5, max_tickets_per_wallet = $6, bundles = $7
        WHERE contract_id = $1 AND round_id = $2`,
      [
        raffle.id,
        argString(event.args, "roundId"),
        argString(event.args, "version"),
        JSON.stringify(rules.prizeShares.map(Number)),
        rules.minTickets,
        rules.maxTicketsPerWallet,
        JSON.stringify(rules.bundles.map((bundle) => ({ quantity: Number(bundle.quantity), price: bundle.price }))),
      ],
    );
  }

  private async roundEnded(manager: EntityManager, raffle: RegisteredContract, event: IndexedEvent): Promise<void> {
    const { args, blockTimestamp: at } = event;
    const ticketCount = argString(args, "ticketCount");
    const requestId = argString(args, "vrfRequestId");
    // DRAWING until the events that follow in the same transaction say otherwise (refundable, or drawn outright).
    await manager.query(
      `UPDATE round SET end_timestamp = $3, ticket_count = $4::integer, vrf_request_id = $5, updated_at = $3,
              round_status = CASE WHEN $4::integer = 0 THEN 'CLOSED'::round_round_status_enum ELSE 'DRAWING'::round_round_status_enum END
        WHERE contract_id = $1 AND round_id = $2`,
      [raffle.id, argString(args, "roundId"), at, ticketCount, requestId === "0" ? null : requestId],
    );
  }

  private async setRefundReason(manager: EntityManager, raffle: RegisteredContract, event: IndexedEvent, reason: string): Promise<void> {
    await manager.query(`UPDATE round SET refund_reason = $3, updated_at = $4 WHERE contract_id = $1 AND round_id = $2`, [
      raffle.id,
      argString(event.args, "roundId"),
      reason,
      event.blockTimestamp,
    ]);
  }

  /** Every ticket of the round may be refunded: a RAFFLE_REFUND claim per ticket not refunded yet, for its holder. */
  private async roundRefundable(manager: EntityManager, raffle: RegisteredContract, event: IndexedEvent): Promise<void> {
    const { blockTimestamp: at } = event;
    const [round] = await updateReturning<{ id: number }>(
      manager,
      `UPDATE round SET round_status = 'REFUNDABLE', refund_reason = COALESCE(refund_reason, 'RANDOMNESS_TIMEOUT'), updated_at = $3
        WHERE contract_id = $1 AND round_id = $2 RETURNING id`,
      [raffle.id, argString(event.args, "roundId"), at],
    );
    if (!round) return;
    const merchantId = await this.merchantOf(manager, raffle.id);
    await manager.query(
      `INSERT INTO claim (account, merchant_id, claim_type, claim_status, items, contract_id, round_id, token_id, parameters,
                          indexed_block, created_at, updated_at)
       SELECT t.account, $2, 'RAFFLE_REFUND', 'NEW',
              jsonb_build_array(jsonb_build_object('tokenType', pc.token_type, 'token', pt.address, 'tokenId', pc.token_id::text,
                                                   'amount', t.paid_amount::text)),
              r.contract_id, r.id, t.token_id,
              jsonb_build_object('raffle', $3::text, 'roundId', r.round_id::text, 'ticketId', t.token_id::text),
              $4, $5, $5
         FROM round r JOIN ticket t ON t.round_id = r.id
         JOIN LATERAL (SELECT * FROM price_component p WHERE p.price_id = r.price_id ORDER BY p.id LIMIT 1) pc ON true
         JOIN contract pt ON pt.id = pc.contract_id
        WHERE r.id = $1 AND t.ticket_status = 'ACTIVE'
        ORDER BY t.token_id
       ON CONFLICT (contract_id, token_id, claim_type) WHERE claim_type <> 'VOUCHER' DO NOTHING`,
      [round.id, merchantId, raffle.address, event.blockNumber, at],
    );
  }

  private async randomnessReceived(manager: EntityManager, raffle: RegisteredContract, event: IndexedEvent): Promise<void> {
    await manager.query(
      `UPDATE round SET round_status = 'WINNERS_PENDING', random_word = $3, updated_at = $4 WHERE contract_id = $1 AND round_id = $2`,
      [raffle.id, argString(event.args, "roundId"), argString(event.args, "randomWord"), event.blockTimestamp],
    );
  }

  /**
   * The round's winners, first position first: a round_winner row and a RAFFLE_PRIZE claim per position. Amounts follow
   * the contract: pot x share / 10,000 rounded down, the first position taking the remainder; the claim pays that less
   * the raffle's commission, from the draw's time lag on releasable to the merchant.
   */
  private async winnersDrawn(manager: EntityManager, raffle: RegisteredContract, event: IndexedEvent): Promise<void> {
    const { args, blockTimestamp: at } = event;
    const ticketIds = (args.ticketIds as string[]).map(String);
    const [round] = await updateReturning<{ id: number; pot: string; prize_shares: number[]; price_id: number; ticket_contract_id: number }>(
      manager,
      `UPDATE round SET round_status = 'DRAWN', random_word = $3, winning_ticket_id = $4, drawn_at = $5, updated_at = $5
        WHERE contract_id = $1 AND round_id = $2
        RETURNING id, pot, prize_shares, price_id, ticket_contract_id`,
      [raffle.id, argString(args, "roundId"), argString(args, "randomWord"), ticketIds[0] ?? null, at],
    );
    if (!round || ticketIds.length === 0) return;
    const amounts = prizeAmounts(BigInt(round.pot), round.prize_shares.slice(0, ticketIds.length));
    const holders: Array<{ token_id: string; account: string }> = await updateReturning(
      manager,
      `UPDATE ticket SET is_prize = true, updated_at = $3 WHERE contract_id = $1 AND token_id = ANY($2::numeric[]) RETURNING token_id, account`,
      [round.ticket_contract_id, ticketIds, at],
    );
    const holderOf = new Map(holders.map((row) => [String(row.token_id), row.account]));
    const accounts = ticketIds.map((ticketId) => holderOf.get(ticketId) ?? ZeroAddress);
    await manager.query(
      `INSERT INTO round_winner (round_id, position, ticket_id, account, share, amount, indexed_block, created_at, updated_at)
       SELECT $1, v.n - 1, v.ticket_id, v.account, v.share, v.amount, $6, $7, $7
         FROM unnest($2::numeric[], $3::text[], $4::int[], $5::numeric[]) WITH ORDINALITY AS v(ticket_id, account, share, amount, n)
       ON CONFLICT (round_id, position) DO NOTHING`,
      [round.id, ticketIds, accounts, round.prize_shares.slice(0, ticketIds.length), amounts.map(String), event.blockNumber, at],
    );

    const [component] = await manager.query(
      `SELECT pc.token_type, c.address, pc.token_id, pc.amount
         FROM price_component pc JOIN contract c ON c.id = pc.contract_id
        WHERE pc.price_id = $1 ORDER BY pc.id LIMIT 1`,
      [round.price_id],
    );
    const [{ parameters, merchant_id: merchantId }] = await manager.query(`SELECT parameters, merchant_id FROM contract WHERE id = $1`, [raffle.id]);
    const commission = BigInt(parameters.commission ?? "0");
    const releasableAt = new Date(at.getTime() + Number(parameters.timeLagBeforeRelease ?? "0") * 1000);
    const roundId = argString(args, "roundId");
    const items = amounts.map((amount) => [
      {
        tokenType: component.token_type,
        token: component.address,
        tokenId: component.token_id,
        amount: (amount - (amount * commission) / BASIS_POINTS).toString(),
      },
    ]);
    await manager.query(
      `INSERT INTO claim (account, merchant_id, claim_type, claim_status, items, end_timestamp, contract_id, round_id,
                          token_id, parameters, indexed_block, created_at, updated_at)
       SELECT v.account, $1, 'RAFFLE_PRIZE', 'NEW', v.items::jsonb, $2, $3, $4, v.token_id, v.parameters::jsonb, $5, $6, $6
         FROM unnest($7::text[], $8::text[], $9::numeric[], $10::text[]) WITH ORDINALITY AS v(account, items, token_id, parameters, n)
        ORDER BY v.n
       ON CONFLICT (contract_id, token_id, claim_type) WHERE claim_type <> 'VOUCHER'
       DO UPDATE SET account = EXCLUDED.account, claim_status = 'NEW', redeemed_tx_hash = NULL, items = EXCLUDED.items,
                     end_timestamp = EXCLUDED.end_timestamp, round_id = EXCLUDED.round_id,
                     parameters = EXCLUDED.parameters, updated_at = EXCLUDED.updated_at`,
      [
        merchantId,
        releasableAt,
        raffle.id,
        round.id,
        event.blockNumber,
        at,
        accounts,
        items.map((item) => JSON.stringify(item)),
        ticketIds,
        ticketIds.map((ticketId, position) => JSON.stringify({ raffle: raffle.address, roundId, ticketId, position })),
      ],
    );
  }

  /** One winner position's prize was paid: the round is CLAIMED once no position is left unclaimed. */
  private async prizeClaimed(manager: EntityManager, raffle: RegisteredContract, event: IndexedEvent): Promise<void> {
    const { args, blockTimestamp: at } = event;
    const ticketId = argString(args, "ticketId");
    const [winner] = await updateReturning<{ round_id: number }>(
      manager,
      `UPDATE round_winner w SET claim_status = 'CLAIMED', updated_at = $4
         FROM round r WHERE r.id = w.round_id AND r.contract_id = $1 AND r.round_id = $2 AND w.ticket_id = $3
       RETURNING w.round_id`,
      [raffle.id, argString(args, "roundId"), ticketId, at],
    );
    if (!winner) return;
    await manager.query(
      `UPDATE ticket t SET ticket_status = $3, updated_at = $4 FROM round r WHERE r.id = $1 AND t.contract_id = r.ticket_contract_id AND t.token_id = $2`,
      [winner.round_id, ticketId, TicketStatus.PRIZE_CLAIMED, at],
    );
    await manager.query(
      `UPDATE claim SET claim_status = 'REDEEMED', redeemed_tx_hash = $4, updated_at = $5
        WHERE contract_id = $1 AND round_id = $2 AND token_id = $3 AND claim_type = 'RAFFLE_PRIZE'`,
      [raffle.id, winner.round_id, ticketId, event.txHash, at],
    );
    await manager.query(
      `UPDATE round SET round_status = 'CLAIMED', updated_at = $2
        WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM round_winner w WHERE w.round_id = $1 AND w.claim_status = 'UNCLAIMED')`,
      [winner.round_id, at],
    );
  }

  /** Every prize of the round still unclaimed went to the merchant's beneficiary; nobody redeemed those claims. */
  private async prizesReleased(manager: EntityManager, raffle: RegisteredContract, event: IndexedEvent): Promise<void> {
    const { blockTimestamp: at } = event;
    const [round] = await updateReturning<{ id: number; ticket_contract_id: number }>(
      manager,
      `UPDATE round SET round_status = 'RELEASED', updated_at = $3 WHERE contract_id = $1 AND round_id = $2 RETURNING id, ticket_contract_id`,
      [raffle.id, argString(event.args, "roundId"), at],
    );
    if (!round) return;
    const released = await updateReturning<{ ticket_id: string }>(
      manager,
      `UPDATE round_winner SET claim_status = 'RELEASED', updated_at = $2 WHERE round_id = $1 AND claim_status = 'UNCLAIMED' RETURNING ticket_id`,
      [round.id, at],
    );
    const ticketIds = released.map((row) => String(row.ticket_id));
    await manager.query(`UPDATE ticket SET ticket_status = $3, updated_at = $4 WHERE contract_id = $1 AND token_id = ANY($2::numeric[])`, [
      round.ticket_contract_id,
      ticketIds,
      TicketStatus.PRIZE_RELEASED,
      at,
    ]);
    await manager.query(
      `UPDATE claim SET claim_status = 'RELEASED', updated_at = $3
        WHERE contract_id = $1 AND round_id = $2 AND claim_type = 'RAFFLE_PRIZE' AND claim_status = 'NEW'`,
      [raffle.id, round.id, at],
    );
  }

  private async ticketRefunded(manager: EntityManager, raffle: RegisteredContract, event: IndexedEvent): Promise<void> {
    const [ticket] = await updateReturning<{ round_id: number; token_id: string }>(
      manager,
      `UPDATE ticket t SET ticket_status = $4, updated_at = $5
         FROM round r WHERE r.id = t.round_id AND r.contract_id = $1 AND r.round_id = $2 AND t.token_id = $3
       RETURNING t.round_id, t.token_id`,
      [raffle.id, argString(event.args, "roundId"), argString(event.args, "ticketId"), TicketStatus.REFUNDED, event.blockTimestamp],
    );
    if (!ticket) return;
    await manager.query(
      `UPDATE claim SET claim_status = 'REDEEMED', redeemed_tx_hash = $3, updated_at = $4
        WHERE contract_id = $1 AND token_id = $2 AND claim_type = 'RAFFLE_REFUND'`,
      [raffle.id, ticket.token_id, event.txHash, event.blockTimestamp],
    );
  }

  private async merchantOf(manager: EntityManager, contractId: number): Promise<number> {
    const [{ merchant_id: merchantId }] = await manager.query(`SELECT merchant_id FROM contract WHERE id = $1`, [contractId]);
    return merchantId;
  }

  // ------------------------------------------------------------------ tickets and pause

  private async ticketTransferred(manager: EntityManager, ticket: RegisteredContract, event: IndexedEvent): Promise<void> {
    const { args, blockTimestamp: at } = event;
    const from = argString(args, "from");
    const to = argString(args, "to");
    // Mints are projected from TicketsPurchased and burns from TicketRefunded; only real transfers move a ticket.
    if (from === ZeroAddress || to === ZeroAddress) return;
    const tokenId = argString(args, "tokenId");
    await manager.query(`UPDATE ticket SET account = $3, updated_at = $4 WHERE contract_id = $1 AND token_id = $2`, [ticket.id, tokenId, to, at]);
    // A prize or a refund belongs to whoever holds the ticket.
    await manager.query(
      `UPDATE claim c SET account = $3, updated_at = $4 FROM contract t
        WHERE t.id = $1 AND c.contract_id = t.raffle_contract_id AND c.token_id = $2
          AND c.claim_type IN ('RAFFLE_PRIZE', 'RAFFLE_REFUND') AND c.claim_status = 'NEW'`,
      [ticket.id, tokenId, to, at],
    );
    await manager.query(
      `UPDATE round_winner w SET account = $3, updated_at = $4 FROM round r
        WHERE r.id = w.round_id AND r.ticket_contract_id = $1 AND w.ticket_id = $2 AND w.claim_status = 'UNCLAIMED'`,
      [ticket.id, tokenId, to, at],
    );
  }

  /**
   * A claim voucher was used on-chain: the chain is the truth, even for a voucher the merchant canceled. Matched by
   * nonce alone, though voucher rows carry no chain id and the Exchange has the same address on every chain: nonces
   * are unique across all claims (UQ_claim_nonce), and the voucher's EIP-712 domain holds its chain id, so its nonce
   * can appear in a Claimed event of that one chain only.
   */
  private async voucherRedeemed(manager: EntityManager, event: IndexedEvent): Promise<void> {
    await manager.query(
      `UPDATE claim SET claim_status = 'REDEEMED', redeemed_tx_hash = $2, updated_at = $3
        WHERE claim_type = 'VOUCHER' AND nonce = $1`,
      [argString(event.args, "nonce"), event.txHash, event.blockTimestamp],
    );
  }

  private async pauseChanged(manager: EntityManager, contract: RegisteredContract, event: IndexedEvent): Promise<void> {
    await manager.query(`UPDATE contract SET is_paused = $2, updated_at = $3 WHERE id = $1`, [
      contract.id,
      event.name === "Paused",
      event.blockTimestamp,
    ]);
  }
}

export type { EventArgs };
