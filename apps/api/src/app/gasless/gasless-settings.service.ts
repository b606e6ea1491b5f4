import { Inject, Injectable } from "@nestjs/common";
import { Contract, type JsonRpcProvider } from "ethers";
import type { DataSource, EntityManager } from "typeorm";
import { TokenType } from "@raffle/chain";

import type { ApiConfig } from "../../config/api-config";
import { ServedChains } from "../../services/served-chains";
import { TtlCache } from "../../services/ttl-cache";
import { API_CONFIG, DATA_SOURCE } from "../../services/tokens";
import type { GaslessAvailabilityDto, GaslessSettingsBody, GaslessSettingsDto } from "./gasless.dto";
import { RELAYER_ALIVE_SECONDS } from "./gasless-rules";
import { refusedByContract } from "./chain-read";

/** A price token's gasless support: ERC-3009 first (one signature), else EIP-2612; its EIP-712 domain (ERC-5267). */
export interface TokenSupport {
  method: "authorization" | "permit" | null;
  name: string | null;
  version: string | null;
}

const TOKEN_ABI = [
  "function eip712Domain() view returns (bytes1 fields, string name, string version, uint256 chainId, address verifyingContract, bytes32 salt, uint256[] extensions)",
  "function authorizationState(address authorizer, bytes32 nonce) view returns (bool)",
  "function nonces(address owner) view returns (uint256)",
];

/** What a token answers does not change: probed once per hour per token. */
const TOKEN_SUPPORT_TTL_MS = 3_600_000;

export interface MerchantGasless {
  enabled: boolean;
  dailyGasBudgetWei: string;
  perPlayerDailyLimit: number;
}

const DEFAULT_SETTINGS: MerchantGasless = { enabled: false, dailyGasBudgetWei: "0", perPlayerDailyLimit: 20 };

/** Start of the current UTC day, as SQL: budgets and player limits count from it. */
export const UTC_DAY_START = `(date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')`;

/** Wei the merchant (`merchantParam`, a query parameter) spent on mined gasless requests today (UTC), as SQL text. */
export function spentTodaySql(merchantParam: string): string {
  return `(SELECT COALESCE(sum(gas_cost_wei), 0)::text FROM gasless_request WHERE merchant_id = ${merchantParam} AND mined_at >= ${UTC_DAY_START})`;
}

/** Each merchant's relaying settings, its spending today, its relayers' heartbeat, and what a raffle read shows of them. */
@Injectable()
export class GaslessSettingsService {
  /** Only answers are kept: a node that did not answer is asked again next time. */
  private readonly tokens = new Map<string, { value: TokenSupport; until: number }>();
  private readonly merchants: TtlCache<number, MerchantGasless & { relayerChains: number[] }>;

  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(API_CONFIG) config: ApiConfig,
    private readonly chains: ServedChains,
  ) {
    this.merchants = new TtlCache(config.readCacheMs);
  }

  async settings(merchantId: number, manager: EntityManager = this.dataSource.manager): Promise<MerchantGasless> {
    const [row] = await manager.query(`SELECT enabled, daily_gas_budget_wei, per_player_daily_limit FROM gasless_settings WHERE merchant_id = $1`, [
      merchantId,
    ]);
    if (!row) return DEFAULT_SETTINGS;
    return { enabled: row.enabled, dailyGasBudgetWei: String(row.daily_gas_budget_wei), perPlayerDailyLimit: row.per_player_daily_limit };
  }

  async describe(merchantId: number): Promise<GaslessSettingsDto> {
    const [settings, [spent], [seen]] = await Promise.all([
      this.settings(merchantId),
      this.dataSource.query(`SELECT ${this.spentSql()} AS spent`, [merchantId]),
      this.dataSource.query(`SELECT max(last_seen_at) AS at FROM gasless_relayer WHERE merchant_id = $1`, [merchantId]),
    ]);
    return { ...settings, spentTodayWei: String(spent.spent), relayerLastSeenAt: seen.at ? new Date(seen.at).toISOString() : null };
  }

  async update(merchantId: number, body: GaslessSettingsBody): Promise<GaslessSettingsDto> {
    await this.dataSource.query(
      `INSERT INTO gasless_settings (merchant_id, enabled, daily_gas_budget_wei, per_player_daily_limit) VALUES ($1, $2, $3, $4)
       ON CONFLICT (merchant_id) DO UPDATE SET enabled = $2, daily_gas_budget_wei = $3, per_player_daily_limit = $4, updated_at = now()`,
      [merchantId, body.enabled, body.dailyGasBudgetWei, body.perPlayerDailyLimit],
    );
    return this.describe(merchantId);
  }

  /** Wei the merchant's mined gasless requests cost today (UTC). */
  async spentToday(merchantId: number, manager: EntityManager = this.dataSource.manager): Promise<bigint> {
    const [row] = await manager.query(`SELECT ${this.spentSql()} AS spent`, [merchantId]);
    return BigInt(row.spent);
  }

  private spentSql(): string {
    return spentTodaySql("$1");
  }

  /** The relayer `relayerId` of the merchant asked for jobs of `chainId` now. */
  async heartbeat(manager: EntityManager, merchantId: number, chainId: number, relayerId: string): Promise<void> {
    await manager.query(
      `INSERT INTO gasless_relayer (merchant_id, chain_id, relayer_id, last_seen_at) VALUES ($1, $2, $3, now())
       ON CONFLICT (merchant_id, chain_id, relayer_id) DO UPDATE SET last_seen_at = now()`,
      [merchantId, chainId, relayerId],
    );
  }

  /** The price token's gasless method and EIP-712 domain, probed on its chain and cached. */
  async tokenSupport(chainId: number, token: string): Promise<TokenSupport> {
    const key = `${chainId}:${token.toLowerCase()}`;
    const hit = this.tokens.get(key);
    if (hit && hit.until > Date.now()) return hit.value;
    const value = await probeToken(this.chains.get(chainId).provider, token);
    this.tokens.set(key, { value, until: Date.now() + TOKEN_SUPPORT_TTL_MS });
    return value;
  }

  /**
   * The `gasless` block of a raffle read. Claims and refunds without gas need only a merchant that relays and a relayer
   * alive: the holder's signature moves the prize or the refund whatever the price. A purchase also needs an ERC20
   * price whose token supports a method.
   */
  async availability(
    raffle: { merchantId: number; chainId: number },
    price: { tokenType: number | bigint; token: string } | null,
  ): Promise<GaslessAvailabilityDto> {
    const erc20 = price !== null && Number(price.tokenType) === TokenType.ERC20;
    const [merchant, token] = await Promise.all([
      this.merchantState(raffle.merchantId),
      erc20
        ? // A node that does not answer makes the raffle read say "not available", never fail.
          this.tokenSupport(raffle.chainId, price.token).catch((): TokenSupport => ({ method: null, name: null, version: null }))
        : { method: null, name: null, version: null },
    ]);
    const relays = merchant.enabled && merchant.relayerChains.includes(raffle.chainId);
    return {
      available: relays && token.method !== null,
      method: token.method,
      tokenName: token.name,
      tokenVersion: token.version,
      claimsAndRefunds: relays,
    };
  }

  private merchantState(merchantId: number): Promise<MerchantGasless & { relayerChains: number[] }> {
    return this.merchants.get(merchantId, async () => {
      const [settings, relayers] = await Promise.all([
        this.settings(merchantId),
        this.dataSource.query(
          `SELECT DISTINCT chain_id FROM gasless_relayer WHERE merchant_id = $1 AND last_seen_at > now() - $2 * interval '1 second'`,
          [merchantId, RELAYER_ALIVE_SECONDS],
        ),
      ]);
      return { ...settings, relayerChains: relayers.map((row: { chain_id: number }) => row.chain_id) };
    });
  }
}

/** A call the token refused (reverted, or answered nothing that decodes): the feature is absent. Anything else is the node's. */
function absent<T>(fallback: T): (error: unknown) => T {
  return (error) => {
    if (refusedByContract(error)) return fallback;
    throw error;
  };
}

/** Asks the token itself: a call that reverts (or a token without code) means the feature is absent. */
export async function probeToken(provider: JsonRpcProvider, address: string): Promise<TokenSupport> {
  const token = new Contract(address, TOKEN_ABI, provider);
  const someone = "0x0000000000000000000000000000000000000001";
  const [domain, authorization, permit] = await Promise.all([
    token.eip712Domain().catch(absent(null)),
    token.authorizationState(someone, `0x${"00".repeat(32)}`).then(() => true, absent(false)),
    token.nonces(someone).then(() => true, absent(false)),
  ]);
  const method = authorization ? "authorization" : permit ? "permit" : null;
  return { method: domain ? method : null, name: domain ? String(domain[1]) : null, version: domain ? String(domain[2]) : null };
}
