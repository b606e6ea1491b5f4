import { createHash, randomBytes } from "node:crypto";
import { Inject, Injectable } from "@nestjs/common";
import { IsNull, MoreThan, type DataSource } from "typeorm";
import { MerchantSessionEntity } from "@raffle/db";

import { DATA_SOURCE } from "../../services/tokens";

/** Who a merchant console session speaks for: one merchant, through its wallet. */
export interface MerchantSession {
  sessionId: number;
  merchantId: number;
  address: string;
  chainId: number;
  expiresAt: Date;
}

const TOKEN_PATTERN = /^ms_[A-Za-z0-9_-]{43}$/;

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

function toSession(row: MerchantSessionEntity): MerchantSession {
  return { sessionId: row.id, merchantId: row.merchantId, address: row.address, chainId: row.chainId, expiresAt: row.expiresAt };
}

/**
 * Merchant console sessions as bearer tokens (`ms_<random>`), of which only the SHA-256 is stored, like player sessions
 * (see PlayerSessionService): sent by the page's own code in the Authorization header, never by the browser on its own.
 */
@Injectable()
export class MerchantSessions {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  async open(merchantId: number, address: string, chainId: number, expiresAt: Date): Promise<{ token: string; session: MerchantSession }> {
    const token = `ms_${randomBytes(32).toString("base64url")}`;
    const saved = await this.dataSource
      .getRepository(MerchantSessionEntity)
      .save({ tokenHash: sha256(token), merchantId, address, chainId, expiresAt, revokedAt: null });
    return { token, session: toSession(saved) };
  }

  /** The live session behind a bearer token, or null. */
  async find(token: string): Promise<MerchantSession | null> {
    if (!TOKEN_PATTERN.test(token)) return null;
    const row = await this.dataSource.getRepository(MerchantSessionEntity).findOneBy({
      tokenHash: sha256(token),
      revokedAt: IsNull(),
      expiresAt: MoreThan(new Date()),
    });
    return row ? toSession(row) : null;
  }

  async revoke(sessionId: number): Promise<void> {
    await this.dataSource.getRepository(MerchantSessionEntity).update({ id: sessionId }, { revokedAt: new Date() });
  }
}
