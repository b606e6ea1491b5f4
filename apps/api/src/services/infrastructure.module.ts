import { Global, Module, type DynamicModule, type OnApplicationShutdown, Inject } from "@nestjs/common";
import { FastVoucherSigner } from "@raffle/chain";
import type { JsonRpcProvider } from "ethers";
import type { DataSource } from "typeorm";

import type { ApiConfig } from "../config/api-config";
import { ChainMonitor } from "./chain-monitor";
import { ExchangeState } from "./exchange-state";
import { chainProvider } from "./chain-provider";
import { IndexerRunner } from "./indexer-runner.service";
import { RateLimiter } from "./rate-limiter";
import { API_CONFIG, CHAIN_PROVIDER, DATA_SOURCE } from "./tokens";
import { VoucherLog } from "./voucher-log";

class InfrastructureLifecycle implements OnApplicationShutdown {
  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(CHAIN_PROVIDER) private readonly provider: JsonRpcProvider,
    private readonly rateLimiter: RateLimiter,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    // The Redis connection too: left open (reconnecting, when Redis is down) it would keep the process alive.
    await this.rateLimiter.close();
    this.provider.destroy();
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}

/**
 * Configuration, database, chain access and its checks, voucher signer, rate limits and the indexer, for every
 * feature. The database is opened before Nest starts (see createApp), so its failure is reported in the API's own words.
 */
@Global()
@Module({})
export class InfrastructureModule {
  static forRoot(config: ApiConfig, dataSource: DataSource): DynamicModule {
    return {
      module: InfrastructureModule,
      providers: [
        { provide: API_CONFIG, useValue: config },
        { provide: DATA_SOURCE, useValue: dataSource },
        { provide: CHAIN_PROVIDER, useFactory: () => chainProvider(config.rpcUrl, config.deployment.chainId) },
        ChainMonitor,
        ExchangeState,
        {
          provide: FastVoucherSigner,
          useFactory: () => new FastVoucherSigner(config.signerPrivateKey, config.deployment.chainId, config.deployment.exchange),
        },
        { provide: RateLimiter, useFactory: () => RateLimiter.create(config.rateLimit) },
        IndexerRunner,
        VoucherLog,
        InfrastructureLifecycle,
      ],
      exports: [API_CONFIG, DATA_SOURCE, CHAIN_PROVIDER, ChainMonitor, ExchangeState, FastVoucherSigner, RateLimiter, IndexerRunner, VoucherLog],
    };
  }
}
