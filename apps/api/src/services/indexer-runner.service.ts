import { Inject, Injectable, type OnApplicationBootstrap } from "@nestjs/common";
import type { DataSource } from "typeorm";
import { Indexer, type IndexerLogger, type IndexerStatus } from "@raffle/indexer";

import type { ApiConfig } from "../config/api-config";
import { jsonLog } from "../logging/logger";
import { ApiMetrics } from "../metrics/api-metrics";
import { ServedChains } from "./served-chains";
import { API_CONFIG, DATA_SOURCE } from "./tokens";

const indexerLogger: IndexerLogger = {
  info: (message, fields) => jsonLog("info", message, { component: "indexer", ...fields }),
  warn: (message, fields) => jsonLog("warn", message, { component: "indexer", ...fields }),
  error: (message, fields) => jsonLog("error", message, { component: "indexer", ...fields }),
};

/**
 * Runs one indexer per served chain inside the API process (when API_ROLES has `index`). Each has its own leader
 * lock, cursor, reorg handling and head watcher, so one chain's outage or reorg leaves the others alone.
 */
@Injectable()
export class IndexerRunner implements OnApplicationBootstrap {
  private readonly indexers: Map<number, Indexer>;

  constructor(
    @Inject(API_CONFIG) config: ApiConfig,
    @Inject(DATA_SOURCE) dataSource: DataSource,
    private readonly chains: ServedChains,
    metrics: ApiMetrics,
  ) {
    const { enabled, pollIntervalMs, defaultSchedule } = config.indexer;
    this.indexers = new Map(
      enabled
        ? chains.all().map((chain) => [
            chain.chainId,
            new Indexer(dataSource, chain.provider, {
              deployment: chain.deployment,
              confirmations: chain.config.confirmations,
              pollIntervalMs,
              wsUrl: chain.config.wsUrl,
              batchBlocks: chain.config.batchBlocks,
              reorgWindowBlocks: chain.config.reorgWindowBlocks,
              rpcSetting: chain.config.settingName("RPC_URL"),
              defaultSchedule,
              logger: indexerLogger,
              onReorg: ({ chainId, depth }) => metrics.reorg(chainId, depth),
            }),
          ])
        : [],
    );
    metrics.observeIndexers({ chainIds: () => chains.ids, status: (chainId) => this.status(chainId) });
  }

  /** After every chain's first check: a node that serves another chain or lacks the contracts stops the API first. */
  async onApplicationBootstrap(): Promise<void> {
    await this.chains.start();
    for (const indexer of this.indexers.values()) indexer.start();
  }

  /** Stops every indexer between batches (called on shutdown, before the nodes and the database close). */
  async stop(): Promise<void> {
    await Promise.all([...this.indexers.values()].map((indexer) => indexer.stop()));
  }

  /** The indexer of `chainId`, if this process runs one. */
  indexer(chainId: number): Indexer | undefined {
    return this.indexers.get(chainId);
  }

  status(chainId: number): IndexerStatus | null {
    return this.indexers.get(chainId)?.status() ?? null;
  }
}
