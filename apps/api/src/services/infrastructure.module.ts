import { Global, Module, type DynamicModule, type OnApplicationShutdown, Inject } from "@nestjs/common";
import type { DataSource } from "typeorm";

import type { ApiConfig } from "../config/api-config";
import { ApiMetrics } from "../metrics/api-metrics";
import { ExchangeState } from "./exchange-state";
import { IndexerRunner } from "./indexer-runner.service";
import { RateLimiter } from "./rate-limiter";
import { ReadReplica } from "./read-replica";
import { ServedChains } from "./served-chains";
import { API_CONFIG, DATA_SOURCE } from "./tokens";
import { VoucherLog } from "./voucher-log";

/** Closes in dependency order: the indexers first (they use the nodes and the database), then the nodes, then the rest. */
class InfrastructureLifecycle implements OnApplicationShutdown {
  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    private readonly indexers: IndexerRunner,
    private readonly chains: ServedChains,
    private readonly rateLimiter: RateLimiter,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.indexers.stop();
    await this.chains.close();
    // The Redis connection too: left open (reconnecting, when Redis is down) it would keep the process alive.
    await this.rateLimiter.close();
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}

/**
 * Configuration, database, every served chain (node, checks, voucher keys), rate limits and the indexers, for every
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
        { provide: ApiMetrics, useFactory: () => new ApiMetrics(config.metricsEnabled) },
        ServedChains,
        ExchangeState,
        { provide: RateLimiter, useFactory: () => RateLimiter.create(config.rateLimit) },
        IndexerRunner,
        VoucherLog,
        ReadReplica,
        InfrastructureLifecycle,
      ],
      exports: [API_CONFIG, DATA_SOURCE, ApiMetrics, ServedChains, ExchangeState, RateLimiter, IndexerRunner, VoucherLog, ReadReplica],
    };
  }
}
