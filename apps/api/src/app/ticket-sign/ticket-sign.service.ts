import { Inject, Injectable } from "@nestjs/common";
import { ZeroAddress } from "ethers";
import { NonceSequence, assetToJson, checksumAddress, paramsToJson, type PurchaseArgs } from "@raffle/chain";
import { ContractStatus, type ContractEntity } from "@raffle/db";

import type { ApiConfig } from "../../config/api-config";
import { problems } from "../../common/problem";
import { ExchangeState } from "../../services/exchange-state";
import { RateLimiter } from "../../services/rate-limiter";
import { ServedChains } from "../../services/served-chains";
import { API_CONFIG } from "../../services/tokens";
import { jsonLog, logsAt } from "../../logging/logger";
import { ApiMetrics } from "../../metrics/api-metrics";
import { VoucherLog } from "../../services/voucher-log";
import type { Caller } from "../auth/api-key.service";
import { RaffleContractsService } from "../raffle-contracts/raffle-contracts.service";
import { RoundsService } from "../rounds/rounds.service";
import type { SignTicketBody, TicketSignatureDto } from "./ticket-sign.dto";

/** Who asks for a voucher, and how their requests are counted: an API key's limits, or a signed-in player's. */
export interface VoucherRequester {
  /** The merchant's API key; null for a player signed in with Ethereum. */
  apiKeyId: number | null;
  requestId?: string;
  /** A refusal without a scope is the requester's own (key) limit. */
  countSign(account: string): Promise<{ allowed: boolean; retryAfterSeconds: number; scope?: string }>;
}

/** The parts of an answer every voucher of the same purchase arguments shares (the round's, for quantity 1). */
interface SharedAnswer {
  item: TicketSignatureDto["item"];
  price: TicketSignatureDto["price"];
  value: string;
}

function answerOf(args: PurchaseArgs): SharedAnswer {
  return { item: assetToJson(args.item), price: assetToJson(args.price), value: args.value.toString() };
}

/**
 * Signs purchase vouchers after every check a buyer could fail later on-chain (architecture §4), records each one,
 * and rate-limits per API key and per account of the merchant.
 */
@Injectable()
export class TicketSignService {
  private readonly nonces = new NonceSequence();
  /** The JSON of each round's purchase arguments, built once per load of the round (the key), not per voucher. */
  private readonly sharedAnswers = new WeakMap<PurchaseArgs, SharedAnswer>();

  constructor(
    @Inject(API_CONFIG) private readonly config: ApiConfig,
    private readonly voucherLog: VoucherLog,
    private readonly chains: ServedChains,
    private readonly rateLimiter: RateLimiter,
    private readonly exchange: ExchangeState,
    private readonly contracts: RaffleContractsService,
    private readonly rounds: RoundsService,
    private readonly metrics: ApiMetrics,
  ) {}

  async sign(caller: Caller, body: SignTicketBody): Promise<TicketSignatureDto> {
    const raffle = await this.contracts.findOwnRaffle(caller.merchantId, body.contractId);
    if (!raffle) throw problems.contractNotFound(body.contractId);
    return this.signForRaffle(raffle, body, {
      apiKeyId: caller.apiKeyId,
      requestId: caller.requestId,
      countSign: (account) => this.rateLimiter.countSign(caller, account),
    });
  }

  /**
   * Every check and the signature for a raffle already found: the merchant's own raffle (API key route above), or a
   * raffle on public sale for a signed-in player (player route). Only the rate limit differs, and the requester's.
   */
  async signForRaffle(raffle: ContractEntity, body: SignTicketBody, requester: VoucherRequester): Promise<TicketSignatureDto> {
    const account = checksumAddress(body.account);
    const referrer = body.referrer ? checksumAddress(body.referrer) : ZeroAddress;
    // The raffle's own chain: its Exchange, its signer key, its EIP-712 domain.
    const chain = this.chains.get(raffle.chainId);
    await this.exchange.assertCanSign(chain);
    if (raffle.contractStatus !== ContractStatus.ACTIVE) throw problems.contractInactive(body.contractId);
    if (raffle.isPaused) throw problems.contractPaused(body.contractId);
    const latest = await this.rounds.latest(raffle.id);
    if (!latest) throw problems.roundNotFound(body.contractId);
    const round = latest.entity;
    if (round.endTimestamp !== null) throw problems.roundEnded(body.contractId);
    const quantity = body.quantity ?? 1;
    const left = round.maxTickets > 0 ? Math.max(0, round.maxTickets - round.ticketCount) : Infinity;
    if (quantity > left) throw problems.roundFull(body.contractId, round.maxTickets, left, quantity);
    if (round.maxTicketsPerWallet > 0) {
      // The one query this path adds, and only for rounds with a cap: the buyer's tickets as indexed (the contract
      // counts again, so a purchase not indexed yet can only make this too lenient, never wrongly refuse).
      const held = await this.rounds.ticketsBought(round.id, account);
      if (held + quantity > round.maxTicketsPerWallet) {
        throw problems.walletLimitReached(body.contractId, account, held, quantity, round.maxTicketsPerWallet);
      }
    }
    // Counted only now, when a signature is about to be issued (see RateLimiter): the checks above read cached rows,
    // and a request they refuse must not use up a player's allowance.
    const limit = await requester.countSign(account);
    if (!limit.allowed) throw problems.tooManyRequests(limit.retryAfterSeconds, limit.scope ?? "key");

    const expiresAt = Math.floor(Date.now() / 1000) + this.config.signatureTtlSeconds;
    const nonce = this.nonces.take();
    // The round's arguments come from the same mapping a client uses (spec 4.5, built once per round), so what we
    // sign is exactly what the buyer will send.
    const args = quantity === 1 ? latest.purchase : this.rounds.purchaseOf(latest, quantity);
    const params = { ...args.params, expiresAt: BigInt(expiresAt), nonce, referrer };
    // The signature (on the signing thread) and the voucher's row (committed by the voucher log) are made side by
    // side; the voucher leaves only once both are done, so it is never handed out unrecorded.
    const [signature] = await Promise.all([
      chain.voucherSigner.signAsync({ account, params, item: args.item, price: args.price }),
      this.voucherLog.record({
        nonce,
        account,
        referrer,
        merchantId: raffle.merchantId,
        apiKeyId: requester.apiKeyId,
        contractId: raffle.id,
        roundId: round.id,
        expiresAt,
      }),
    ]);
    this.metrics.voucherSigned(chain.chainId);
    // The signature itself is never logged.
    if (logsAt("debug")) {
      jsonLog("debug", "voucher signed", {
        requestId: requester.requestId,
        chainId: chain.chainId,
        contractId: raffle.id,
        roundId: round.id,
        nonce,
        expiresAt,
      });
    }

    return { nonce, signature, expiresAt, params: paramsToJson(params), ...(quantity === 1 ? this.roundAnswer(args) : answerOf(args)) };
  }

  /** The round's own purchase arguments (quantity 1) are the same object for every voucher until the round reloads. */
  private roundAnswer(args: PurchaseArgs): SharedAnswer {
    let shared = this.sharedAnswers.get(args);
    if (!shared) this.sharedAnswers.set(args, (shared = answerOf(args)));
    return shared;
  }
}
