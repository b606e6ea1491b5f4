import { createHash, randomBytes } from "node:crypto";
import { Inject, Injectable } from "@nestjs/common";
import { IsNull, MoreThan, type DataSource } from "typeorm";
import { PlayerSessionEntity, SiweNonceEntity, type SignInPurpose } from "@raffle/db";

import type { ApiConfig } from "../../config/api-config";
import { problems } from "../../common/problem";
import { ServedChains } from "../../services/served-chains";
import { API_CONFIG, DATA_SOURCE } from "../../services/tokens";
import { checkSiweMessage, type CheckedSiweMessage } from "./siwe-message";

/** Who a session speaks for (set on the request by PlayerSessionGuard). */
export interface PlayerSession {
  sessionId: number;
  address: string;
  chainId: number;
  expiresAt: Date;
}

/** A nonce must be quoted in a signed message within this time. */
const NONCE_TTL_MS = 5 * 60_000;
const TOKEN_PATTERN = /^ps_[A-Za-z0-9_-]{43}$/;

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/**
 * Sign-In with Ethereum: single-use nonces, and sessions as short-lived bearer tokens (`ps_<random>`), of which only
 * the SHA-256 is stored. A token is sent in the Authorization header by the page's own code, never by the browser on
 * its own (unlike a cookie), so another site cannot make a request in the player's name: no CSRF to defend against.
 */
@Injectable()
export class PlayerSessionService {
  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(API_CONFIG) private readonly config: ApiConfig,
    private readonly chains: ServedChains,
  ) {}

  /** A nonce that only the sign-in of `purpose` (the player route's or the console's) can consume. */
  async issueNonce(purpose: SignInPurpose): Promise<{ nonce: string; expiresAt: Date }> {
    const nonce = randomBytes(16).toString("hex");
    const expiresAt = new Date(Date.now() + NONCE_TTL_MS);
    const repository = this.dataSource.getRepository(SiweNonceEntity);
    await repository.insert({ nonce, expiresAt, usedAt: null, purpose });
    // Expired nonces go as new ones come, so the table holds at most a few minutes of them.
    await repository.createQueryBuilder().delete().where("expires_at < now() - interval '1 hour'").execute();
    return { nonce, expiresAt };
  }

  /**
   * Checks the message and signature, its chain and purpose, and consumes the nonce (once, whatever replica issued it,
   * and only if it was issued for `purpose`): what both a player's and a merchant's sign-in start with.
   */
  async verifySignIn(message: string, signature: string, purpose: SignInPurpose): Promise<CheckedSiweMessage> {
    const checked = checkSiweMessage(message, signature, this.config.player.webOrigins, purpose);
    this.chains.get(checked.chainId);
    // One UPDATE: of two sign-ins racing with the same nonce, exactly one changes the row.
    const consumed = await this.dataSource
      .createQueryBuilder()
      .update(SiweNonceEntity)
      .set({ usedAt: () => "now()" })
      .where(`nonce = :nonce AND purpose = :purpose AND used_at IS NULL AND expires_at > now()`, { nonce: checked.nonce, purpose })
      .execute();
    if (!consumed.affected) throw problems.siweNonceInvalid();
    return checked;
  }

  /** Checks the message and signature, consumes the nonce and opens a session for its address. */
  async signIn(message: string, signature: string): Promise<{ token: string; session: PlayerSession }> {
    const checked = await this.verifySignIn(message, signature, "player");
    const token = `ps_${randomBytes(32).toString("base64url")}`;
    const longest = Date.now() + this.config.player.sessionTtlSeconds * 1000;
    const expiresAt = new Date(Math.min(checked.expiresAt.getTime(), longest));
    const saved = await this.dataSource.getRepository(PlayerSessionEntity).save({
      tokenHash: sha256(token),
      address: checked.address,
      chainId: checked.chainId,
      expiresAt,
      revokedAt: null,
    });
    return { token, session: { sessionId: saved.id, address: saved.address, chainId: saved.chainId, expiresAt } };
  }

  /** The live session behind a bearer token, or null. */
  async find(token: string): Promise<PlayerSession | null> {
    if (!TOKEN_PATTERN.test(token)) return null;
    const row = await this.dataSource.getRepository(PlayerSessionEntity).findOneBy({
      tokenHash: sha256(token),
      revokedAt: IsNull(),
      expiresAt: MoreThan(new Date()),
    });
    return row ? { sessionId: row.id, address: row.address, chainId: row.chainId, expiresAt: row.expiresAt } : null;
  }

  async revoke(sessionId: number): Promise<void> {
    await this.dataSource.getRepository(PlayerSessionEntity).update({ id: sessionId }, { revokedAt: new Date() });
  }
}
