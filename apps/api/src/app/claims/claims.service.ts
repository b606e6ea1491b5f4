import { Inject, Injectable } from "@nestjs/common";
import { ZeroAddress, getAddress } from "ethers";
import type { DataSource } from "typeorm";
import { CLAIM_EXTRA, NonceSequence, assetToJson, paramsToJson, signClaimVoucher, tokenTypeIndex, type AssetStruct } from "@raffle/chain";
import { ClaimEntity, ClaimStatus, ClaimType, MerchantEntity } from "@raffle/db";

import { problems } from "../../common/problem";
import { ExchangeState } from "../../services/exchange-state";
import { ServedChains, type ServedChain } from "../../services/served-chains";
import { TtlCache } from "../../services/ttl-cache";
import { API_CONFIG, DATA_SOURCE } from "../../services/tokens";
import type { ApiConfig } from "../../config/api-config";
import type { Caller } from "../auth/api-key.service";
import { DEFAULT_CLAIM_TTL_SECONDS, type CreateClaimBody } from "./claim-voucher.dto";

const UINT256_MAX = (1n << 256n) - 1n;

/** Pages of claim lists kept at once (each up to MAX_TAKE claims of about 1 kB). */
const CACHED_PAGES = 1_000;

/** A claim with the chain it is redeemed on. */
export type ChainClaim = ClaimEntity & { chainId: number };

/**
 * The chain of a claim, in SQL over the alias `claim`: a voucher records its chain in `parameters`, a prize is on its
 * raffle's chain. Two deployments of different chains may share one database: each sees its own chains' claims only.
 */
const CLAIM_CHAIN_SQL = `COALESCE((claim.parameters->>'chainId')::int, (SELECT contract.chain_id FROM contract WHERE contract.id = claim.contract_id))`;

/** Merchant vouchers and raffle prizes an account can claim, always scoped to the calling merchant. */
@Injectable()
export class ClaimsService {
  private readonly nonces = new NonceSequence();
  /**
   * Pages of the list for READ_CACHE_MS, as fresh as the other hot reads for what the indexer writes (prizes,
   * redemptions, expiries). This process's own writes (a voucher made or canceled) empty it, so a client sees its
   * write at once here; another API process sees it within READ_CACHE_MS.
   */
  private readonly pages: TtlCache<string, [ChainClaim[], number]>;

  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(API_CONFIG) config: ApiConfig,
    private readonly exchange: ExchangeState,
    private readonly chains: ServedChains,
  ) {
    this.pages = new TtlCache(config.readCacheMs, CACHED_PAGES);
  }

  /**
   * The account's claims with the merchant on the chains this API serves, newest first. One query: each row carries
   * its chain and the total of matching rows (a window count, taken before LIMIT); only a page past the end, which
   * has no row to carry it, asks for the total apart.
   */
  list(merchantId: number, account: string, status: ClaimStatus | undefined, skip: number, take: number): Promise<[ChainClaim[], number]> {
    const owner = getAddress(account);
    return this.pages.get(`${merchantId}:${owner}:${status ?? "*"}:${skip}:${take}`, () => this.readPage(merchantId, owner, status, skip, take));
  }

  private async readPage(
    merchantId: number,
    account: string,
    status: ClaimStatus | undefined,
    skip: number,
    take: number,
  ): Promise<[ChainClaim[], number]> {
    const query = this.dataSource
      .getRepository(ClaimEntity)
      .createQueryBuilder("claim")
      .where("claim.merchantId = :merchantId AND claim.account = :account", { merchantId, account })
      .andWhere(`${CLAIM_CHAIN_SQL} = ANY(:chains)`, { chains: this.chains.ids });
    if (status) query.andWhere("claim.claimStatus = :status", { status });
    const page = query
      .clone()
      .addSelect(CLAIM_CHAIN_SQL, "claim_chain_id")
      .addSelect("count(*) OVER ()", "claim_total")
      .orderBy("claim.createdAt", "DESC")
      .addOrderBy("claim.id", "DESC")
      .offset(skip)
      .limit(take);
    const { entities, raw } = await page.getRawAndEntities<{ claim_chain_id: number; claim_total: string }>();
    const count = raw.length > 0 ? Number(raw[0].claim_total) : skip > 0 ? await query.getCount() : 0;
    return [entities.map((claim, index) => Object.assign(claim, { chainId: Number(raw[index].claim_chain_id) })), count];
  }

  /** One claim of the merchant; a claim of a chain this API does not serve is `chainNotServed`, as the README says. */
  async get(merchantId: number, id: number): Promise<ChainClaim> {
    const claim = await this.dataSource.getRepository(ClaimEntity).findOneBy({ id, merchantId });
    if (!claim) throw problems.claimNotFound(id);
    const [withChain] = await this.withChains([claim]);
    if (!this.chains.ids.includes(withChain.chainId)) throw problems.chainNotServed(withChain.chainId, this.chains.ids);
    return withChain;
  }

  /** The claims with their chains: a voucher's from its parameters, a prize's from its raffle (one query). */
  private async withChains(claims: ClaimEntity[]): Promise<ChainClaim[]> {
    const contractIds = [...new Set(claims.filter((claim) => claim.contractId !== null).map((claim) => claim.contractId!))];
    const rows: Array<{ id: number; chain_id: number }> =
      contractIds.length > 0 ? await this.dataSource.query(`SELECT id, chain_id FROM contract WHERE id = ANY($1::int[])`, [contractIds]) : [];
    const chainOfContract = new Map(rows.map((row) => [Number(row.id), Number(row.chain_id)]));
    return claims.map((claim) =>
      Object.assign(claim, {
        chainId: Number((claim.parameters as { chainId?: number }).chainId ?? chainOfContract.get(claim.contractId ?? 0) ?? 0),
      }),
    );
  }

  /**
   * Signs a claim voucher whose items go from the merchant's wallet to `account`, and records it as a NEW claim.
   * The claim id is the voucher's `externalId`, so the indexer and the merchant can match redemptions.
   */
  async createVoucher(caller: Caller, body: CreateClaimBody): Promise<ChainClaim> {
    const items = body.items.map((item, index) => this.toAsset(item, index));
    const chain = this.voucherChain(body.chainId);
    // Exchange.claim reverts while the Exchange is paused, and for a key without SIGNER_ROLE.
    await this.exchange.assertCanSign(chain);
    const account = getAddress(body.account);
    const expiresAt = Math.floor(Date.now() / 1000) + (body.ttlSeconds ?? DEFAULT_CLAIM_TTL_SECONDS);
    const nonce = this.nonces.take();
    const { deployment } = chain;

    const voucher = await this.dataSource.transaction(async (manager) => {
      const merchant = await manager.getRepository(MerchantEntity).findOneByOrFail({ id: caller.merchantId });
      const claims = manager.getRepository(ClaimEntity);
      const created = await claims.save({
        account,
        merchantId: caller.merchantId,
        claimType: ClaimType.VOUCHER,
        claimStatus: ClaimStatus.NEW,
        items: body.items.map((item) => ({ tokenType: item.tokenType, token: getAddress(item.token), tokenId: item.tokenId, amount: item.amount })),
        endTimestamp: new Date(expiresAt * 1000),
        nonce,
        expiresAt,
        parameters: {},
      });
      const params = {
        externalId: BigInt(created.id),
        expiresAt: BigInt(expiresAt),
        nonce,
        extra: CLAIM_EXTRA,
        receiver: merchant.wallet,
        referrer: ZeroAddress,
      };
      const signature = await signClaimVoucher(chain.claimSigner, deployment.chainId, deployment.exchange, { account, params, items });
      created.signature = signature;
      created.parameters = {
        chainId: deployment.chainId,
        exchange: deployment.exchange,
        params: paramsToJson(params),
        items: items.map(assetToJson),
      };
      return Object.assign(await claims.save(created), { chainId: deployment.chainId });
    });
    this.pages.clear();
    return voucher;
  }

  /** The chain a voucher is for: `chainId`, which may be left out only when this API serves one chain. */
  private voucherChain(chainId: number | undefined): ServedChain {
    if (chainId !== undefined) return this.chains.get(chainId);
    const [only, ...others] = this.chains.all();
    if (others.length > 0) {
      throw problems.validationFailed([{ field: "chainId", message: `chainId is required: this API serves chains ${this.chains.ids.join(", ")}` }]);
    }
    return only;
  }

  /** Withdraws a voucher that was not redeemed. The API stops handing out its signature. */
  async cancel(merchantId: number, id: number): Promise<ChainClaim> {
    const claim = await this.get(merchantId, id);
    if (claim.claimType !== ClaimType.VOUCHER || claim.claimStatus !== ClaimStatus.NEW) throw problems.claimNotCancelable(id, claim.claimStatus);
    const updated = await this.dataSource
      .getRepository(ClaimEntity)
      .createQueryBuilder()
      .update()
      .set({ claimStatus: ClaimStatus.CANCELED, canceledAt: () => "now()" })
      .where("id = :id AND claim_status = :status", { id, status: ClaimStatus.NEW })
      .execute();
    this.pages.clear();
    // Redeemed or expired between the read and the write: report what it is now.
    if (!updated.affected) throw problems.claimNotCancelable(id, (await this.get(merchantId, id)).claimStatus);
    return this.get(merchantId, id);
  }

  private toAsset(item: CreateClaimBody["items"][number], index: number): AssetStruct {
    const tokenId = BigInt(item.tokenId);
    const amount = BigInt(item.amount);
    const field = (name: string) => `items.${index}.${name}`;
    const errors: Array<{ field: string; message: string }> = [];
    if (tokenId > UINT256_MAX) errors.push({ field: field("tokenId"), message: "tokenId must fit in uint256" });
    if (amount > UINT256_MAX) errors.push({ field: field("amount"), message: "amount must fit in uint256" });
    if (item.tokenType === "ERC20" && tokenId !== 0n) errors.push({ field: field("tokenId"), message: 'an ERC20 item has tokenId "0"' });
    if (item.tokenType === "ERC20" && amount === 0n) errors.push({ field: field("amount"), message: "an ERC20 item has a positive amount" });
    if (item.tokenType === "ERC721" && amount !== 1n) errors.push({ field: field("amount"), message: 'an ERC721 item has amount "1"' });
    if (errors.length > 0) throw problems.validationFailed(errors);
    return { tokenType: tokenTypeIndex(item.tokenType), token: getAddress(item.token), tokenId, amount };
  }
}
