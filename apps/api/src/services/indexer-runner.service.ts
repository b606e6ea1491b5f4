import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from "@nestjs/common";
import type { JsonRpcProvider } from "ethers";
import type { DataSource } from "typeorm";
import { Indexer, type IndexerStatus } from "@raffle/indexer";

import type { ApiConfig } from "../config/api-config";
import { ChainMonitor } from "./chain-monitor";
import { jsonLog } from "./json-logger";
import { API_CONFIG, CHAIN_PROVIDER, DATA_SOURCE } from "./tokens";

/** Runs the indexer inside the API process (unless INDEXER_ENABLED=false); one leader across replicas. */
@Injectable()
export class IndexerRunner implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly indexer: Indexer | null;

  constructor(
    @Inject(API_CONFIG) config: ApiConfig,
    @Inject(DATA_SOURCE) dataSource: DataSource,
    @Inject(CHAIN_PROVIDER) provider: JsonRpcProvider,
    private readonly chain: ChainMonitor,
  ) {
    this.indexer = config.indexer.enabled
      ? new Indexer(dataSource, provider, {
          deployment: config.deployment,
          confirmations: config.indexer.confirmations,
          pollIntervalMs: config.indexer.pollIntervalMs,
          wsUrl: config.indexer.wsUrl,
          batchBlocks: config.indexer.batchBlocks,
          defaultSchedule: config.indexer.defaultSchedule,
          logger: {
            info: (message, fields) => jsonLog("info", message, { component: "indexer", ...fields }),
            warn: (message, fields) => jsonLog("warn", message, { component: "indexer", ...fields }),
            error: (message, fields) => jsonLog("error", message, { component: "indexer", ...fields }),
          },
        })
      : null;
  }

  /** After the chain's first check: a node that serves another chain or lacks the contracts stops the API first. */
  async onApplicationBootstrap(): Promise<void> {
    await this.chain.start();
    this.indexer?.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.indexer?.stop();
  }

  status(): IndexerStatus | null {
    return this.indexer?.status() ?? null;
  }
}
