import { Global, Module, type DynamicModule, type OnApplicationShutdown, Inject } from "@nestjs/common";
import { FastVoucherSigner, rpcProvider } from "@raffle/chain";
import { openDatabase } from "@raffle/db";
import type { JsonRpcProvider } from "ethers";
import type { DataSource } from "typeorm";

import type { ApiConfig } from "../config/api-config";
import { IndexerRunner } from "./indexer-runner.service";
import { RateLimiter } from "./rate-limiter";
import { API_CONFIG, CHAIN_PROVIDER, DATA_SOURCE } from "./tokens";
import { VoucherLog } from "./voucher-log";

class InfrastructureLifecycle implements OnApplicationShutdown {
  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(CHAIN_PROVIDER) private readonly provider: JsonRpcProvider,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    this.provider.destroy();
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}

/** Configuration, database, chain access, voucher signer, rate limits and the indexer, for every feature. */
@Global()
@Module({})
export class InfrastructureModule {
  static forRoot(config: ApiConfig): DynamicModule {
    return {
      module: InfrastructureModule,
      providers: [
        { provide: API_CONFIG, useValue: config },
        {
          provide: DATA_SOURCE,
          useFactory: () => openDatabase({ url: config.databaseUrl, pgliteDir: config.pgliteDir, poolSize: 20 }),
        },
        { provide: CHAIN_PROVIDER, useFactory: () => rpcProvider(config.rpcUrl) },
        {
          provide: FastVoucherSigner,
          useFactory: () =>
            new FastVoucherSigner(config.signerPrivateKey, config.deployment.chainId, config.deployment.exchange),
        },
        { provide: RateLimiter, useFactory: () => RateLimiter.create(config.rateLimit) },
        IndexerRunner,
        VoucherLog,
        InfrastructureLifecycle,
      ],
      exports: [API_CONFIG, DATA_SOURCE, CHAIN_PROVIDER, FastVoucherSigner, RateLimiter, IndexerRunner, VoucherLog],
    };
  }
}
