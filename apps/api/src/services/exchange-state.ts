import { Inject, Injectable } from "@nestjs/common";
import type { DataSource } from "typeorm";

import type { ApiConfig } from "../config/api-config";
import { problems } from "../common/problem";
import { ChainMonitor } from "./chain-monitor";
import { TtlCache } from "./ttl-cache";
import { API_CONFIG, DATA_SOURCE } from "./tokens";

/**
 * What every voucher needs of the platform's Exchange before it is signed: a voucher key that holds SIGNER_ROLE (the
 * chain monitor's last answer) and an Exchange that is not paused (the indexer follows its Paused / Unpaused events;
 * read every READ_CACHE_MS). A voucher failing either would only revert on-chain.
 */
@Injectable()
export class ExchangeState {
  private readonly paused: TtlCache<"exchange", boolean>;

  constructor(
    @Inject(API_CONFIG) private readonly config: ApiConfig,
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    private readonly chain: ChainMonitor,
  ) {
    this.paused = new TtlCache(config.readCacheMs);
  }

  /** Throws the problem that stops signing, if any: 503 for the signer (the platform's fault), 409 for a pause. */
  async assertCanSign(): Promise<void> {
    const signer = this.chain.signerStatus();
    if (signer === "unauthorized") throw problems.signerNotAuthorized(this.chain.signerAddress, this.config.deployment.exchange);
    if (signer === "unverified") throw problems.chainUnavailable();
    if (await this.isPaused()) throw problems.exchangePaused();
  }

  isPaused(): Promise<boolean> {
    return this.paused.get("exchange", async () => {
      const [row] = await this.dataSource.query(`SELECT is_paused FROM contract WHERE chain_id = $1 AND address = $2`, [
        this.config.deployment.chainId,
        this.config.deployment.exchange,
      ]);
      return row?.is_paused === true;
    });
  }
}
