import { Module, type DynamicModule, type OnModuleDestroy } from "@nestjs/common";

import { ApiRaffleSource, type RaffleSource } from "./raffle-source";
import { ChainConnection } from "./chain-connection";
import { ChainRaffleRounds } from "./chain-raffle-rounds";
import type { WorkerConfig } from "./config";
import { HealthServer } from "./health-server";
import { WorkerLogger } from "./logger";
import { MerchantWorker, type RoundsPortFactory } from "./merchant-worker";
import type { RaffleRoundsPort, RotationHooks } from "./rotation";
import type { TimerFactory } from "./scheduler";
import { TxSender } from "./tx-sender";

/** Seams for tests: log capture, fault injection, call counting, a stubbed raffle list. */
export interface WorkerModuleOptions {
  logSink?: (line: string) => void;
  hooks?: RotationHooks;
  timers?: TimerFactory;
  source?: RaffleSource;
  /** Wraps each raffle's chain port (to count or fail calls). */
  decoratePort?: (port: RaffleRoundsPort) => RaffleRoundsPort;
}

/** Closes what the worker holds, in order, when the Nest context closes (SIGTERM, --once done, test teardown). */
class WorkerShutdown implements OnModuleDestroy {
  constructor(
    private readonly worker: MerchantWorker,
    private readonly health: HealthServer,
    private readonly chain: ChainConnection,
  ) {}

  async onModuleDestroy(): Promise<void> {
    await this.worker.stop();
    await this.health.close();
    this.chain.destroy();
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
            new WorkerLogger({ level: config.logLevel, sink: options.logSink, secrets: [config.merchantKey.reveal()] }, { chainId: config.chainId }),
        },
        { provide: ChainConnection, useFactory: () => new ChainConnection(config) },
        {
          provide: TxSender,
          inject: [ChainConnection],
          useFactory: (chain: ChainConnection) =>
            new TxSender(chain.wallet, {
              chainId: config.chainId,
              confirmations: config.confirmations,
              fees: config.fees,
              pollMs: config.receiptPollMs,
            }),
        },
        {
          provide: MerchantWorker,
          inject: [WorkerLogger, ChainConnection, TxSender],
          useFactory: (logger: WorkerLogger, chain: ChainConnection, sender: TxSender) => {
            const decorate = options.decoratePort ?? ((port: RaffleRoundsPort) => port);
            const ports: RoundsPortFactory = (address, portLogger) => decorate(new ChainRaffleRounds(address, chain.wallet, sender, portLogger));
            return new MerchantWorker({
              chainId: config.chainId,
              merchant: chain.wallet.address,
              source: options.source ?? new ApiRaffleSource({ baseUrl: config.apiUrl, apiKey: config.apiKey, chainId: config.chainId }),
              ports,
              logger,
              refreshIntervalMs: config.refreshIntervalMs,
              permanentFailureRefreshes: config.permanentFailureRefreshes,
              apiRetry: config.apiRetry,
              scheduleTimeZone: config.scheduleTimeZone,
              timers: options.timers,
              hooks: options.hooks,
            });
          },
        },
        {
          provide: HealthServer,
          inject: [MerchantWorker],
          useFactory: (worker: MerchantWorker) => new HealthServer(() => worker.health(), config.healthPort),
        },
        {
          provide: WorkerShutdown,
          inject: [MerchantWorker, HealthServer, ChainConnection],
          useFactory: (worker: MerchantWorker, health: HealthServer, chain: ChainConnection) => new WorkerShutdown(worker, health, chain),
        },
      ],
      exports: [MerchantWorker, HealthServer, ChainConnection, WorkerLogger],
    };
  }
}
