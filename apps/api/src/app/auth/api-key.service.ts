import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { Inject, Injectable, Optional } from "@nestjs/common";
import { ZeroAddress, getAddress, isAddress } from "ethers";
import type { DataSource, EntityManager } from "typeorm";
import { ApiKeyEntity, MerchantEntity } from "@raffle/db";

import type { ApiConfig } from "../../config/api-config";
import { MAX_STORED_INTEGER } from "../../common/ids";
import { problems } from "../../common/problem";
import { API_CONFIG, DATA_SOURCE } from "../../services/tokens";
import { ApiMetrics } from "../../metrics/api-metrics";
import type { MerchantSession } from "./merchant-sessions.service";

/** Who is calling: the merchant behind a valid API key, or behind its console session. */
export interface Caller {
  merchantId: number;
  /** The API key used; null for a console session. */
  apiKeyId: number | null;
  /** The console session used, if any. */
  session?: MerchantSession;
  /** The id of the request being served (set by ApiKeyGuard), for the log lines a service writes while serving it. */
  requestId?: string;
}

export interface IssuedApiKey {
  /** The full key; shown once and never stored. */
  key: string;
  id: number;
  prefix: string;
  merchantId: number;
}

/**
 * Keys a merchant may hold at once that still work (the console's cap): revoked keys do not count, a rolled key in its
 * grace period does. Rolling itself needs no free place, since the rolled key is on its way out.
 */
export const MAX_ACTIVE_API_KEYS = 20;

/** The longest grace period a rolled key may keep working: a week covers a weekly deploy of the game server. */
export const MAX_ROLL_GRACE_SECONDS = 7 * 24 * 60 * 60;

/** `lastUsedAt` is kept to this precision. */
const LAST_USED_PRECISION_MS = 60_000;

const KEY_PATTERN = /^rk_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$/;

/** An id typed on the command line, checked against the database's integer range before any query. */
function storedId(raw: string, name: string): number {
  const id = Number(raw);
  if (!Number.isSafeInteger(id) || id < 1 || id > MAX_STORED_INTEGER)
    throw new Error(`${name} must be an id from 1 to ${MAX_STORED_INTEGER}, got ${raw}`);
  return id;
}

/** Whether the key no longer works at `now` (a rolled key works until its grace period ends). */
export function isRevoked(key: Pick<ApiKeyEntity, "revokedAt">, now: number): boolean {
  return key.revokedAt !== null && key.revokedAt.getTime() <= now;
}

/** Who presented a key: what the console shows beside "last used". */
export interface ApiKeyClient {
  userAgent?: string | string[];
  ip?: string;
}

/** Longest User-Agent kept (the column's length): enough to name a client and its version. */
const MAX_USER_AGENT = 200;

/**
 * A User-Agent as stored: control and bidirectional-formatting characters removed (it is shown in the console and
 * comes from anyone holding the key), whitespace collapsed, cut to MAX_USER_AGENT; null when none was sent.
 */
export function storedUserAgent(header: string | string[] | undefined): string | null {
  const value = Array.isArray(header) ? header[0] : header;
  const clean = (value ?? "")
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return clean === "" ? null : clean.slice(0, MAX_USER_AGENT);
}

/** An IP as stored: only the characters of an IPv4 or IPv6 address (45 at most), else null. */
export function storedIp(ip: string | undefined): string | null {
  return ip && /^[0-9a-fA-F:.]{2,45}$/.test(ip) ? ip : null;
}

function sha256(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}

/**
 * Merchant API keys: `rk_<prefix>_<secret>`. The prefix is public and finds the row; only the secret's SHA-256 is
 * stored, compared in constant time. Verified keys are cached for a few seconds so the hot path does not hit
 * the database on every request; a revocation takes effect within that time.
 */
@Injectable()
export class ApiKeyService {
  private readonly cache = new Map<string, { caller: Caller; until: number }>();
  /** When each key's `lastUsedAt` was last written by this process. */
  private readonly touched = new Map<number, number>();
  /** When each revoked key's `lastRejectedAt` was last written by this process. */
  private readonly rejected = new Map<number, number>();
  /** Verified keys kept at most (about 200 bytes each): far more than one API's merchants use at once. */
  private readonly maxCachedKeys: number;

  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(API_CONFIG) private readonly config: Pick<ApiConfig, "apiKeyCacheSeconds"> & { apiKeyCacheMaxEntries?: number },
    // Absent where keys are managed outside the API (the api-key command).
    @Optional() private readonly metrics?: ApiMetrics,
  ) {
    this.maxCachedKeys = config.apiKeyCacheMaxEntries ?? 10_000;
  }

  /**
   * Creates a key for a merchant given by id or wallet; a wallet not seen yet becomes a merchant. The operator's
   * command (`npm run api-key`), not capped: the console's route is createOwn.
   */
  async create(merchant: string, label = ""): Promise<IssuedApiKey> {
    const merchantId = await this.resolveMerchant(merchant, true);
    return this.issue(this.dataSource.manager, merchantId, label);
  }

  /**
   * The console's Create key: refused with apiKeyLimitReached once the merchant holds MAX_ACTIVE_API_KEYS keys not
   * revoked. The merchant's row lock makes concurrent creations take turns, so none slips past the cap.
   */
  async createOwn(merchantId: number, label: string): Promise<IssuedApiKey> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query(`SELECT id FROM merchant WHERE id = $1 FOR UPDATE`, [merchantId]);
      const [{ count }] = await manager.query(
        `SELECT count(*)::int AS count FROM api_key WHERE merchant_id = $1 AND (revoked_at IS NULL OR revoked_at > now())`,
        [merchantId],
      );
      if (count >= MAX_ACTIVE_API_KEYS) throw problems.apiKeyLimitReached(MAX_ACTIVE_API_KEYS);
      return this.issue(manager, merchantId, label);
    });
  }

  /**
   * The console's Roll: a new key with the old one's label, while the old key `id` keeps working for `graceSeconds`
   * more (0 revokes it now). A key already revoked, or already rolled, cannot be rolled: null when it is not one of the
   * merchant's keys. Under the merchant's row lock, like createOwn, so two rolls of one key make one new key.
   */
  async rollOwn(merchantId: number, id: number, graceSeconds: number): Promise<{ issued: IssuedApiKey; old: ApiKeyEntity } | null> {
    const result = await this.dataSource.transaction(async (manager) => {
      await manager.query(`SELECT id FROM merchant WHERE id = $1 FOR UPDATE`, [merchantId]);
      const repository = manager.getRepository(ApiKeyEntity);
      const old = await repository.findOneBy({ id, merchantId });
      if (!old) return null;
      if (old.revokedAt) throw problems.apiKeyRevoked(id);
      old.revokedAt = new Date(Date.now() + graceSeconds * 1000);
      await repository.update({ id }, { revokedAt: old.revokedAt });
      return { issued: await this.issue(manager, merchantId, old.label), old };
    });
    this.cache.clear();
    return result;
  }

  private async issue(manager: EntityManager, merchantId: number, label: string): Promise<IssuedApiKey> {
    const prefix = randomBytes(6).toString("hex");
    const secret = randomBytes(32).toString("base64url");
    const saved = await manager.getRepository(ApiKeyEntity).save({
      prefix,
      secretHash: sha256(secret).toString("hex"),
      label,
      merchantId,
      revokedAt: null,
    });
    return { key: `rk_${prefix}_${secret}`, id: saved.id, prefix, merchantId };
  }

  /** Revokes a key by its prefix or numeric id. Returns false when no such active key exists. */
  async revoke(prefixOrId: string): Promise<boolean> {
    const where = /^\d+$/.test(prefixOrId) ? { id: storedId(prefixOrId, "a key id") } : { prefix: prefixOrId };
    const key = await this.dataSource.getRepository(ApiKeyEntity).findOneBy(where);
    if (!key || isRevoked(key, Date.now())) return false;
    await this.dataSource.getRepository(ApiKeyEntity).update({ id: key.id }, { revokedAt: new Date() });
    this.cache.clear();
    return true;
  }

  /**
   * The merchant's own key `id`, revoked now (the console's Revoke; a rolled key's grace period ends now); null when it
   * is not one of the merchant's keys.
   */
  async revokeOwn(merchantId: number, id: number): Promise<ApiKeyEntity | null> {
    const repository = this.dataSource.getRepository(ApiKeyEntity);
    const key = await repository.findOneBy({ id, merchantId });
    if (!key) return null;
    if (!isRevoked(key, Date.now())) {
      key.revokedAt = new Date();
      await repository.update({ id }, { revokedAt: key.revokedAt });
      this.cache.clear();
    }
    return key;
  }

  /** The merchant's keys, newest first (the console's list: prefix, label, created, last used, revoked). */
  listOwn(merchantId: number): Promise<ApiKeyEntity[]> {
    return this.dataSource.getRepository(ApiKeyEntity).find({ where: { merchantId }, order: { id: "DESC" } });
  }

  async list(merchant: string): Promise<ApiKeyEntity[]> {
    const merchantId = await this.resolveMerchant(merchant, false);
    return this.dataSource.getRepository(ApiKeyEntity).find({ where: { merchantId }, order: { id: "ASC" } });
  }

  /**
   * The caller behind a bearer token, or null. Only verified keys are cached: a token that is not a key's shape is
   * refused without a lookup or a cache entry, and an unknown or revoked key costs one indexed lookup and no memory,
   * so unauthenticated traffic can neither grow the cache nor push valid keys out of it.
   */
  async authenticate(token: string, client: ApiKeyClient = {}): Promise<Caller | null> {
    const match = KEY_PATTERN.exec(token);
    if (!match) return null;
    const now = Date.now();
    const cached = this.cache.get(token);
    if (cached) {
      if (cached.until > now) {
        this.touch(cached.caller.apiKeyId!, now, "lastUsedAt", client);
        return cached.caller;
      }
      this.cache.delete(token);
    }
    const [, prefix, secret] = match;
    const key = await this.dataSource.getRepository(ApiKeyEntity).findOneBy({ prefix });
    if (!key || !timingSafeEqual(Buffer.from(key.secretHash, "hex"), sha256(secret))) return null;
    if (isRevoked(key, now)) {
      // The right secret of a revoked key: its client was never told. Counted per merchant (never per key or secret);
      // a guessed secret with a known prefix counts nothing. Recorded on the key for the console's Overview.
      this.metrics?.revokedKeyUsed(key.merchantId);
      this.touch(key.id, now, "lastRejectedAt");
      return null;
    }
    const caller: Caller = { merchantId: key.merchantId, apiKeyId: key.id };
    this.touch(key.id, now, "lastUsedAt", client);
    if (this.config.apiKeyCacheSeconds > 0) {
      // Full: the entry cached longest ago goes (a Map keeps insertion order), never the whole cache.
      if (this.cache.size >= this.maxCachedKeys) this.cache.delete(this.cache.keys().next().value!);
      // A rolled key leaves the cache when its grace period ends, not up to API_KEY_CACHE_SECONDS later.
      const until = Math.min(now + this.config.apiKeyCacheSeconds * 1000, key.revokedAt?.getTime() ?? Infinity);
      this.cache.set(token, { caller, until });
    }
    return caller;
  }

  /**
   * Records that a key was used (or, revoked, refused), at most once a minute per key, column and process, off the
   * request's path: the console shows both to the minute, the sign endpoint's hot path never waits for this write, and
   * a flood of calls with a revoked key costs one write a minute. A use also records who made it (User-Agent, source
   * IP) in that same write: the console names the client a revocation would cut off, at no extra cost per request.
   */
  private touch(apiKeyId: number, now: number, column: "lastUsedAt" | "lastRejectedAt", client: ApiKeyClient = {}): void {
    const touched = column === "lastUsedAt" ? this.touched : this.rejected;
    if ((touched.get(apiKeyId) ?? 0) > now - LAST_USED_PRECISION_MS) return;
    if (touched.size >= this.maxCachedKeys) touched.clear();
    touched.set(apiKeyId, now);
    const caller = column === "lastUsedAt" ? { lastUsedUserAgent: storedUserAgent(client.userAgent), lastUsedIp: storedIp(client.ip) } : {};
    this.dataSource
      .getRepository(ApiKeyEntity)
      .update({ id: apiKeyId }, { [column]: new Date(now), ...caller })
      .catch(() => touched.delete(apiKeyId));
  }

  /** How many verified keys are cached now. */
  get cachedKeys(): number {
    return this.cache.size;
  }

  private async resolveMerchant(merchant: string, createIfMissing: boolean): Promise<number> {
    const repository = this.dataSource.getRepository(MerchantEntity);
    if (/^\d+$/.test(merchant)) {
      const found = await repository.findOneBy({ id: storedId(merchant, "--merchant") });
      if (!found) throw new Error(`no merchant with id ${merchant}`);
      return found.id;
    }
    if (!isAddress(merchant)) throw new Error(`--merchant must be a merchant id or a wallet address, got "${merchant}"`);
    const wallet = getAddress(merchant);
    // Nobody holds the zero address's key: a merchant there could never deploy or rotate a raffle.
    if (wallet === ZeroAddress) throw new Error("--merchant must not be the zero address");
    const found = await repository.findOneBy({ wallet });
    if (found) return found.id;
    if (!createIfMissing) throw new Error(`no merchant with wallet ${wallet}`);
    await repository.createQueryBuilder().insert().values({ wallet }).orIgnore().execute();
    return (await repository.findOneByOrFail({ wallet })).id;
  }
}
