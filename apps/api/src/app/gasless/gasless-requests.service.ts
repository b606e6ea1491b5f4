import { randomUUID } from "node:crypto";
import { Inject, Injectable } from "@nestjs/common";
import { Contract, getAddress, type JsonRpcProvider } from "ethers";
import type { DataSource, EntityManager } from "typeorm";
import { TokenType, tokenDomain, type PurchaseVoucher } from "@raffle/chain";
import { ContractEntity, ContractModule, GaslessRequestEntity, TicketVoucherEntity, type GaslessAttempt } from "@raffle/db";

import { problems } from "../../common/problem";
import { ServedChains, type ServedChain } from "../../services/served-chains";
import { DATA_SOURCE } from "../../services/tokens";
import { RoundsService } from "../rounds/rounds.service";
import type { GaslessKind, GaslessPurchaseBody, GaslessRequestDto, GaslessState, GaslessTicketsBody, VoucherBody } from "./gasless.dto";
import {
  ERC1271_MAGIC,
  authorizationCalldata,
  authorizationDigest,
  authorizationWindowProblem,
  failureReason,
  fitsUint256,
  leavesTimeToRelay,
  permitCalldata,
  permitDigest,
  purchaseIntentDigest,
  recoverSigner,
  ticketIntentDigest,
  ticketsCalldata,
  voucherDigest,
  type TicketRef,
} from "./gasless-rules";
import { GaslessSettingsService, UTC_DAY_START, spentTodaySql } from "./gasless-settings.service";
import { chainRead, nodeRead, refusedByContract } from "./chain-read";

/** Who submits a purchase: a signed-in player (the voucher must be its own), or a game backend's API key. */
export type PurchaseSubmitter = { player: string } | { merchantId: number; contractId: number; chainId: number };

const ACCOUNT_ABI = [
  "function isValidSignature(bytes32 hash, bytes signature) view returns (bytes4)",
  "function balanceOf(address owner) view returns (uint256)",
  "function allowance(address owner, address spender) view returns (uint256)",
  "function nonces(address owner) view returns (uint256)",
];

/** Price-token contracts by chain and address: building one parses ACCOUNT_ABI, about 0.7 ms per purchase. */
const priceTokens = new Map<string, Contract>();
const MAX_PRICE_TOKENS = 1_000;

function priceToken(chain: ServedChain, address: string): Contract {
  const key = `${chain.chainId}:${address.toLowerCase()}`;
  let token = priceTokens.get(key);
  // The provider is part of the key's meaning: a chain whose provider was replaced gets a new contract.
  if (!token || token.runner !== chain.provider) {
    if (priceTokens.size >= MAX_PRICE_TOKENS) priceTokens.clear();
    token = new Contract(address, ACCOUNT_ABI, chain.provider);
    priceTokens.set(key, token);
  }
  return token;
}

export function toGaslessDto(row: GaslessRequestEntity): GaslessRequestDto {
  const kind = row.kind as GaslessKind;
  return {
    id: row.id,
    kind,
    state: row.state as GaslessState,
    chainId: row.chainId,
    contractId: row.contractId,
    account: row.account,
    quantity: row.quantity,
    txHash: row.txHash,
    ticketIds: row.ticketIds,
    failureCode: row.failureCode,
    failureReason: row.state === "failed" ? failureReason(kind, row.failureCode) : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * Whether `account` signed `digest`, as the tokens and the Exchange check it (OpenZeppelin's SignatureChecker): an
 * ECDSA signature of the account's key, else, for an account with code, its ERC-1271 `isValidSignature` on the chain.
 */
export async function signedBy(provider: JsonRpcProvider, account: string, digest: string, signature: string): Promise<boolean> {
  if (recoverSigner(digest, signature) === account) return true;
  if ((await nodeRead(provider.getCode(account))) === "0x") return false;
  try {
    const answer: string = await new Contract(account, ACCOUNT_ABI, provider).isValidSignature(digest, signature);
    return answer.toLowerCase() === ERC1271_MAGIC;
  } catch (error) {
    // The wallet refused (reverted, or answered no bytes4): not its signature. The node's trouble is a 503.
    if (refusedByContract(error)) return false;
    throw problems.serviceUnavailable("chain");
  }
}

/**
 * The mailbox's intake (issue #52): every check a relayed purchase, claim or refund could fail on chain is made here,
 * at once, so the player reads a named refusal instead of a failure minutes later; what passes is queued with the
 * calldata the relayer will send, built here from the validated request.
 */
@Injectable()
export class GaslessRequestsService {
  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    private readonly chains: ServedChains,
    private readonly rounds: RoundsService,
    private readonly settings: GaslessSettingsService,
  ) {}

  async submitPurchase(submitter: PurchaseSubmitter, body: GaslessPurchaseBody): Promise<GaslessRequestDto> {
    const { voucher } = body;
    for (const text of [
      voucher.params.externalId,
      voucher.params.expiresAt,
      voucher.item.tokenId,
      voucher.item.amount,
      voucher.price.tokenId,
      voucher.price.amount,
    ]) {
      if (!fitsUint256(text)) throw problems.voucherUnknown("a voucher amount is beyond uint256");
    }
    if (voucher.params.nonce.toLowerCase() !== voucher.nonce.toLowerCase()) throw problems.voucherUnknown("params.nonce is not the voucher's nonce");
    if (String(voucher.expiresAt) !== voucher.params.expiresAt) throw problems.voucherUnknown("params.expiresAt is not the voucher's expiresAt");

    // Issued by this API: its log has the nonce, for this buyer, raffle and merchant.
    const issued = await this.dataSource.getRepository(TicketVoucherEntity).findOneBy({ nonce: voucher.nonce.toLowerCase() });
    if (!issued) throw problems.voucherUnknown("this API issued no voucher with this nonce");
    if ("player" in submitter ? issued.account !== submitter.player : issued.merchantId !== submitter.merchantId) {
      throw problems.voucherUnknown("the voucher was issued for another buyer");
    }
    if (!("player" in submitter) && issued.contractId !== submitter.contractId) throw problems.voucherUnknown("the voucher is for another raffle");
    await this.refuseDuplicate({ voucherNonce: issued.nonce });

    const raffle = await this.dataSource.getRepository(ContractEntity).findOneBy({ id: issued.contractId, contractModule: ContractModule.RAFFLE });
    if (!raffle) throw problems.voucherUnknown("the voucher's raffle is unknown");
    const chain = this.chains.get(raffle.chainId);
    const echoedChain = "player" in submitter ? voucher.chainId : submitter.chainId;
    if (echoedChain !== undefined && echoedChain !== raffle.chainId) throw problems.voucherUnknown(`the voucher is for chain ${raffle.chainId}`);
    const exchange = chain.deployment.exchange;
    if (voucher.exchange !== undefined && getAddress(voucher.exchange) !== getAddress(exchange))
      throw problems.voucherUnknown("the voucher is for another Exchange");

    const purchase = purchaseVoucherOf(issued.account, voucher);
    // What the API's key signed, and the ERC-3009 nonce that binds an authorization to this purchase: built once.
    const purchaseDigest = voucherDigest(chain.chainId, exchange, purchase);
    // Any other params, item or price (another quantity, a lower price) does not recover to the API's key.
    const signer = recoverSigner(purchaseDigest, voucher.signature);
    if (!signer || !chain.signerAddresses.includes(signer)) throw problems.voucherUnknown("its signature is not this API's for these terms");
    if (getAddress(voucher.params.receiver) !== getAddress(raffle.address)) throw problems.voucherUnknown("the voucher is for another raffle");

    const now = Math.floor(Date.now() / 1000);
    if (!leavesTimeToRelay(voucher.expiresAt, now)) throw problems.voucherExpired(voucher.expiresAt);

    const settings = await this.settings.settings(raffle.merchantId);
    if (!settings.enabled) throw problems.gaslessUnavailable("the merchant does not relay purchases");
    const price = purchase.price;
    if (Number(price.tokenType) !== TokenType.ERC20) throw problems.gaslessUnavailable("the price is not an ERC20 token");
    const support = await nodeRead(this.settings.tokenSupport(chain.chainId, String(price.token)));
    if (!support.method || support.name === null || support.version === null) {
      throw problems.gaslessUnavailable("the price token supports neither ERC-3009 nor EIP-2612");
    }
    const domain = tokenDomain(support.name, support.version, chain.chainId, String(price.token));
    const token = priceToken(chain, String(price.token));
    const amount = BigInt(price.amount);

    let calldata: string;
    let notAfter = voucher.expiresAt;
    if (body.authorization && !body.intent && !body.permit) {
      if (support.method !== "authorization")
        throw problems.gaslessUnavailable("the price token has no ERC-3009 authorizations; sign a permit and an intent");
      const validAfter = BigInt(body.authorization.validAfter);
      const validBefore = BigInt(body.authorization.validBefore);
      if (!fitsUint256(body.authorization.validAfter) || !fitsUint256(body.authorization.validBefore)) {
        throw problems.authorizationMismatch("validAfter and validBefore must fit uint256");
      }
      const window = authorizationWindowProblem(validAfter, validBefore, now);
      if (window) throw problems.authorizationMismatch(window);
      const digest = authorizationDigest(domain, {
        from: purchase.account,
        to: exchange,
        value: amount,
        validAfter,
        validBefore,
        nonce: purchaseDigest,
      });
      if (!(await signedBy(chain.provider, purchase.account, digest, body.authorization.signature))) {
        throw problems.buyerSignatureInvalid(purchase.account, "ERC-3009 authorization");
      }
      calldata = authorizationCalldata(purchase, voucher.signature, { validAfter, validBefore, signature: body.authorization.signature });
      if (validBefore < BigInt(notAfter)) notAfter = Number(validBefore);
    } else if (body.intent && !body.authorization) {
      if (!fitsUint256(body.intent.deadline)) throw problems.authorizationMismatch("intent.deadline must fit uint256");
      const deadline = BigInt(body.intent.deadline);
      if (!leavesTimeToRelay(deadline, now)) throw problems.authorizationMismatch("the intent's deadline leaves no time to relay it");
      const intentDigest = purchaseIntentDigest(chain.chainId, exchange, purchase, deadline);
      if (!(await signedBy(chain.provider, purchase.account, intentDigest, body.intent.signature))) {
        throw problems.buyerSignatureInvalid(purchase.account, "purchase intent");
      }
      let permit: { value: bigint; deadline: bigint; v: number; r: string; s: string } | null = null;
      if (body.permit) {
        if (!fitsUint256(body.permit.value) || !fitsUint256(body.permit.deadline))
          throw problems.authorizationMismatch("the permit's value and deadline must fit uint256");
        permit = { ...body.permit, value: BigInt(body.permit.value), deadline: BigInt(body.permit.deadline) };
        if (permit.value < amount) throw problems.authorizationMismatch("the permit is for less than the price");
        if (!leavesTimeToRelay(permit.deadline, now)) throw problems.authorizationMismatch("the permit's deadline leaves no time to relay it");
        const nonce: bigint = await chainRead(token.nonces(purchase.account), () =>
          problems.gaslessUnavailable("the price token's permit nonce cannot be read"),
        );
        const signature = `${body.permit.r}${body.permit.s.slice(2)}${body.permit.v.toString(16).padStart(2, "0")}`;
        const digest = permitDigest(domain, { owner: purchase.account, spender: exchange, value: permit.value, nonce, deadline: permit.deadline });
        if (!(await signedBy(chain.provider, purchase.account, digest, signature))) throw problems.buyerSignatureInvalid(purchase.account, "permit");
        if (permit.deadline < BigInt(notAfter)) notAfter = Number(permit.deadline);
      } else {
        const allowance: bigint = await chainRead(token.allowance(purchase.account, exchange), () =>
          problems.gaslessUnavailable("the price token's allowance cannot be read"),
        );
        if (allowance < amount) throw problems.authorizationMismatch("without a permit, the Exchange's allowance must cover the price");
      }
      calldata = permitCalldata(purchase, voucher.signature, { deadline, signature: body.intent.signature }, permit);
      if (deadline < BigInt(notAfter)) notAfter = Number(deadline);
    } else {
      throw problems.authorizationMismatch("send either `authorization` (ERC-3009) or `intent` with an optional `permit`");
    }

    const balance: bigint = await chainRead(token.balanceOf(purchase.account), () =>
      problems.gaslessUnavailable("the price token's balance cannot be read"),
    );
    if (balance < amount) throw problems.insufficientBalance(purchase.account, balance.toString(), amount.toString());
    const latest = await this.rounds.latest(raffle.id);
    if (!latest || latest.entity.id !== issued.roundId || latest.entity.endTimestamp !== null) throw problems.roundClosed(raffle.id);

    return this.queue(chain, raffle, settings, {
      kind: "purchase",
      account: purchase.account,
      voucherNonce: issued.nonce,
      intentDigest: null,
      quantity: Number(purchase.item.amount),
      calldata,
      notAfter,
    });
  }

  async submitTickets(kind: "claim" | "refund", holder: string, body: GaslessTicketsBody): Promise<GaslessRequestDto> {
    const raffle = await this.dataSource.getRepository(ContractEntity).findOneBy({ id: body.contractId, contractModule: ContractModule.RAFFLE });
    if (!raffle || !this.chains.ids.includes(raffle.chainId)) throw problems.publicRaffleNotFound(body.contractId);
    const chain = this.chains.get(raffle.chainId);
    for (const text of [body.deadline, ...body.tickets.flatMap((ticket) => [ticket.roundId, ticket.ticketId])]) {
      if (!fitsUint256(text)) throw problems.validationFailed([{ field: "tickets", message: "round and ticket ids must fit uint256" }]);
    }
    const tickets: TicketRef[] = body.tickets.map((ticket) => ({ roundId: BigInt(ticket.roundId), ticketId: BigInt(ticket.ticketId) }));
    const deadline = BigInt(body.deadline);
    const now = Math.floor(Date.now() / 1000);
    if (!leavesTimeToRelay(deadline, now)) throw problems.voucherExpired(Number(deadline > BigInt(Number.MAX_SAFE_INTEGER) ? 0n : deadline));

    const intent = { raffle: getAddress(raffle.address), holder, tickets, deadline };
    const digest = ticketIntentDigest(kind, chain.chainId, chain.deployment.exchange, intent);
    await this.refuseDuplicate({ intentDigest: digest });
    const settings = await this.settings.settings(raffle.merchantId);
    if (!settings.enabled) throw problems.gaslessUnavailable(`the merchant does not relay ${kind}s`);
    if (!(await signedBy(chain.provider, holder, digest, body.signature))) {
      throw problems.buyerSignatureInvalid(holder, kind === "claim" ? "claim intent" : "refund intent");
    }
    await this.assertHolds(raffle.id, holder, body.tickets);

    return this.queue(chain, raffle, settings, {
      kind,
      account: holder,
      voucherNonce: null,
      intentDigest: digest,
      quantity: null,
      calldata: ticketsCalldata(kind, { ...intent, signature: body.signature }),
      notAfter: Number(deadline),
    });
  }

  async forAccount(id: string, account: string): Promise<GaslessRequestDto> {
    const row = await this.dataSource.getRepository(GaslessRequestEntity).findOneBy({ id, account });
    if (!row) throw problems.gaslessRequestNotFound();
    return toGaslessDto(row);
  }

  async latestOfAccount(account: string): Promise<GaslessRequestDto[]> {
    const rows = await this.dataSource.getRepository(GaslessRequestEntity).find({ where: { account }, order: { createdAt: "DESC" }, take: 50 });
    return rows.map(toGaslessDto);
  }

  async forMerchant(id: string, merchantId: number): Promise<GaslessRequestDto> {
    const row = await this.dataSource.getRepository(GaslessRequestEntity).findOneBy({ id, merchantId });
    if (!row) throw problems.gaslessRequestNotFound();
    return toGaslessDto(row);
  }

  /** Every ticket is the holder's, of a round of this raffle, as indexed. */
  private async assertHolds(contractId: number, holder: string, tickets: Array<{ roundId: string; ticketId: string }>): Promise<void> {
    const held: Array<{ token_id: string }> = await this.dataSource.query(
      `SELECT t.token_id::text AS token_id FROM ticket t JOIN round r ON r.id = t.round_id
        WHERE r.contract_id = $1 AND t.account = $2 AND (r.round_id::text, t.token_id::text) IN (SELECT * FROM unnest($3::text[], $4::text[]))`,
      [contractId, holder, tickets.map((ticket) => ticket.roundId), tickets.map((ticket) => ticket.ticketId)],
    );
    const owned = new Set(held.map((row) => row.token_id));
    const missing = tickets.find((ticket) => !owned.has(ticket.ticketId));
    if (missing) throw problems.notTicketHolder(holder, missing.ticketId);
  }

  private async refuseDuplicate(where: { voucherNonce: string } | { intentDigest: string }): Promise<void> {
    const existing = await this.dataSource.getRepository(GaslessRequestEntity).findOne({ where, select: { id: true } });
    if (existing) throw problems.gaslessDuplicate(existing.id);
  }

  /**
   * The budget and player limit, then the row, in one transaction under the player's advisory lock (per merchant and
   * account): two requests of one player at once cannot both pass a limit that has room for one, while other players'
   * requests go on side by side (queueing spends no budget; only a mined job does). Four statements: the lock, both
   * checks in one query, the insert returning the row.
   */
  private async queue(
    chain: ServedChain,
    raffle: ContractEntity,
    settings: { dailyGasBudgetWei: string; perPlayerDailyLimit: number },
    request: Pick<GaslessRequestEntity, "kind" | "account" | "voucherNonce" | "intentDigest" | "quantity" | "calldata" | "notAfter">,
  ): Promise<GaslessRequestDto> {
    return this.dataSource.transaction(async (manager: EntityManager) => {
      await manager.query(`SELECT pg_advisory_xact_lock(hashtext('gasless-player'), hashtext($1 || ':' || $2))`, [
        String(raffle.merchantId),
        request.account.toLowerCase(),
      ]);
      const [{ spent, count }] = await manager.query(
        `SELECT ${spentTodaySql("$1")} AS spent,
                (SELECT count(*)::int FROM gasless_request
                  WHERE merchant_id = $1 AND account = $2 AND created_at >= ${UTC_DAY_START} AND NOT (state = 'failed' AND tx_hash IS NULL)) AS count`,
        [raffle.merchantId, request.account],
      );
      if (BigInt(spent) >= BigInt(settings.dailyGasBudgetWei)) throw problems.gaslessBudgetExhausted();
      if (count >= settings.perPlayerDailyLimit) throw problems.gaslessPlayerLimitReached(settings.perPlayerDailyLimit);
      const inserted: Record<string, unknown>[] = await manager.query(
        `INSERT INTO gasless_request (id, kind, state, chain_id, contract_id, merchant_id, account, voucher_nonce, intent_digest, quantity, target, calldata, not_after)
         VALUES ($1, $2, 'queued', $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT DO NOTHING
         RETURNING *`,
        [
          randomUUID(),
          request.kind,
          chain.chainId,
          raffle.id,
          raffle.merchantId,
          request.account,
          request.voucherNonce,
          request.intentDigest,
          request.quantity,
          chain.deployment.exchange,
          request.calldata,
          request.notAfter,
        ],
      );
      if (inserted.length === 0) {
        const where = request.voucherNonce ? { voucherNonce: request.voucherNonce } : { intentDigest: request.intentDigest! };
        const existing = await manager.getRepository(GaslessRequestEntity).findOneByOrFail(where);
        throw problems.gaslessDuplicate(existing.id);
      }
      return toGaslessDto(gaslessRowEntity(manager, inserted[0]));
    });
  }
}

/** The voucher as the Exchange takes it, for `account` (the buyer the voucher log recorded). */
function purchaseVoucherOf(account: string, voucher: VoucherBody): PurchaseVoucher {
  const asset = (value: VoucherBody["item"]) => ({
    tokenType: value.tokenType,
    token: getAddress(value.token),
    tokenId: BigInt(value.tokenId),
    amount: BigInt(value.amount),
  });
  return {
    account,
    params: {
      externalId: BigInt(voucher.params.externalId),
      expiresAt: BigInt(voucher.params.expiresAt),
      nonce: voucher.params.nonce.toLowerCase(),
      extra: voucher.params.extra.toLowerCase(),
      receiver: getAddress(voucher.params.receiver),
      referrer: getAddress(voucher.params.referrer),
    },
    item: asset(voucher.item),
    price: asset(voucher.price),
  };
}

/** A row as the query answers it (snake case), made an entity so the DTO mappers read it. */
export function gaslessRowEntity(manager: EntityManager, raw: Record<string, unknown>): GaslessRequestEntity {
  return manager.getRepository(GaslessRequestEntity).create({
    id: raw.id as string,
    createdAt: raw.created_at as Date,
    updatedAt: raw.updated_at as Date,
    kind: raw.kind as string,
    state: raw.state as string,
    chainId: raw.chain_id as number,
    contractId: raw.contract_id as number,
    merchantId: raw.merchant_id as number,
    account: raw.account as string,
    quantity: raw.quantity as number | null,
    target: raw.target as string,
    calldata: raw.calldata as string,
    notAfter: Number(raw.not_after),
    leaseHolder: raw.lease_holder as string | null,
    leaseExpiresAt: raw.lease_expires_at as Date | null,
    attempts: raw.attempts as GaslessAttempt[],
    txHash: raw.tx_hash as string | null,
    ticketIds: raw.ticket_ids as string[],
    failureCode: raw.failure_code as string | null,
  });
}
