import { Module, type DynamicModule, type OnModuleDestroy } from "@nestjs/common";
import { Wallet } from "ethers";

import { createChainRunner, type ChainSeams } from "./chain-assembly";
import type { WorkerConfig } from "./config";
import { HealthServer } from "./health-server";
import { WorkerLogger } from "./logger";
import { MerchantWorker } from "./merchant-worker";
import { WorkerMetrics } from "./worker-metrics";

/** Seams for tests: log capture, fault injection, call counting, stubbed raffle lists. */
export interface WorkerModuleOptions extends ChainSeams {
  logSink?: (line: string) => void;
}

/** Closes what the worker holds, in order, when the Nest context closes (SIGTERM, --once done, test teardown). */
class WorkerShutdown implements OnModuleDestroy {
  constructor(
    private readonly worker: MerchantWorker,
    private readonly health: HealthServer,
  ) {}

  async onModuleDestroy(): Promise<void> {
    await this.worker.stop();
    await this.health.close();
  }
}

/** The merchant worker as a Nest standalone application: `NestFactory.createApplicationContext(WorkerModule.register(config))`. */
@Module({})
export class WorkerModule {
  static register(config: WorkerConfig, options: WorkerModuleOptions = {}): DynamicModule {
    return {
      module: WorkerModule,
      providers: [
        {
          provide: WorkerLogger,
          useFactory: () =>
            new WorkerLogger({
              level: config.logLevel,
              sink: options.logSink,
              secrets: [config.merchantKey.reveal(), ...(config.relayer ? [config.relayer.key.reveal()] : [])],
            }),
        },
        { provide: WorkerMetrics, useFactory: () => new WorkerMetrics(config.lowGasBalanceWei) },
        {
          provide: MerchantWorker,
          inject: [WorkerLogger, WorkerMetrics],
          useFactory: (logger: WorkerLogger, metrics: WorkerMetrics) =>
            new MerchantWorker({
              merchant: new Wallet(config.merchantKey.reveal()).address,
              chains: config.chains.map((chain) => createChainRunner(config, chain, logger, options, metrics)),
              logger,
            }),
        },
        {
          provide: HealthServer,
          inject: [MerchantWorker, WorkerMetrics],
          useFactory: (worker: MerchantWorker, metrics: WorkerMetrics) => {
            metrics.observeHealth(() => worker.health());
            return new HealthServer(() => worker.health(), config.healthPort, config.healthHost, metrics);
          },
        },
        {
          provide: WorkerShutdown,
          inject: [MerchantWorker, HealthServer],
          useFactory: (worker: MerchantWorker, health: HealthServer) => new WorkerShutdown(worker, health),
        },
      ],
      exports: [MerchantWorker, HealthServer, WorkerLogger, WorkerMetrics],
    };
  }
}
