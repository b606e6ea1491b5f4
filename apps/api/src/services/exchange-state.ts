import { Inject, Injectable } from "@nestjs/common";
import type { DataSource } from "typeorm";

import type { ApiConfig } from "../config/api-config";
import { ChainUnavailableError, ExchangePausedError, SignerNotAuthorizedError } from "./errors";
import type { ServedChain } from "./served-chains";
import { TtlCache } from "./ttl-cache";
import { API_CONFIG, DATA_SOURCE } from "./tokens";

/**
 * What every voucher needs of a chain's Exchange before it is signed: a voucher key that holds SIGNER_ROLE (the chain
 * monitor's last answer) and an Exchange that is not paused (the indexer follows its Paused / Unpaused events; read
 * every READ_CACHE_MS). A voucher failing either would only revert on-chain.
 */
@Injectable()
export class ExchangeState {
  private readonly paused: TtlCache<number, boolean>;

  constructor(
    @Inject(API_CONFIG) config: ApiConfig,
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
  ) {
    this.paused = new TtlCache(config.readCacheMs);
  }

  /**
   * Throws what stops signing on `chain`, if anything: the voucher key's missing role or an unverified one (503 at the
   * edge: the platform's fault), or a paused Exchange (409).
   */
  async assertCanSign(chain: ServedChain): Promise<void> {
    const signer = chain.monitor.signerStatus();
    if (signer === "unauthorized") throw new SignerNotAuthorizedError(chain.monitor.signerAddress, chain.deployment.exchange);
    if (signer === "unverified") throw new ChainUnavailableError();
    if (await this.isPaused(chain)) throw new ExchangePausedError();
  }

  isPaused(chain: ServedChain): Promise<boolean> {
    return this.paused.get(chain.chainId, async () => {
      const [row] = await this.dataSource.query(`SELECT is_paused FROM contract WHERE chain_id = $1 AND address = $2`, [
        chain.chainId,
        chain.deployment.exchange,
      ]);
      return row?.is_paused === true;
    });
  }
}
