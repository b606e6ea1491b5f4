import "reflect-metadata";
import type { INestApplicationContext } from "@nestjs/common";
import { NestFactory } from "@nestjs/core";

import { retryWithBackoff } from "./backoff";
import { ChainConnection } from "./chain-connection";
import type { WorkerConfig } from "./config";
import { HealthServer } from "./health-server";
import { NestJsonLogger, WorkerLogger, errorMessage } from "./logger";
import { MerchantWorker } from "./merchant-worker";
import { WorkerModule, type WorkerModuleOptions } from "./worker.module";

/**
 * The worker's Nest standalone context, once the node at RPC_URL has confirmed it serves CHAIN_ID (retried with
 * backoff while the node is unreachable; a wrong chain is fatal).
 */
export async function createWorkerContext(config: WorkerConfig, options: WorkerModuleOptions = {}): Promise<INestApplicationContext> {
  const app = await NestFactory.createApplicationContext(WorkerModule.register(config, options), {
    logger: new NestJsonLogger(new WorkerLogger({ level: config.logLevel, sink: options.logSink })),
  });
  try {
    await retryWithBackoff("checking the chain id of RPC_URL", () => app.get(ChainConnection).verifyChainId(), app.get(WorkerLogger), {
      ...config.apiRetry,
      isFatal: (error) => errorMessage(error).startsWith("RPC_URL serves chain"),
    });
    return app;
  } catch (error) {
    await app.close();
    throw error;
  }
}

export interface RunningMerchantWorker {
  worker: MerchantWorker;
  logger: WorkerLogger;
  /** Bound port of /health (config.healthPort, or a free one when that is 0). */
  healthPort: number;
  stop(): Promise<void>;
}

/** Starts the worker as `npm start` does (schedules, list refresh, /health) and returns how to stop it. */
export async function startMerchantWorker(config: WorkerConfig, options: WorkerModuleOptions = {}): Promise<RunningMerchantWorker> {
  const app = await createWorkerContext(config, options);
  try {
    const logger = app.get(WorkerLogger);
    const healthPort = await app.get(HealthServer).listen();
    logger.info("health endpoint listening", { port: healthPort, path: "/health" });
    const worker = app.get(MerchantWorker);
    await worker.start();
    return { worker, logger, healthPort, stop: () => app.close() };
  } catch (error) {
    await app.close();
    throw error;
  }
}

/** `--once`: one rotation of every raffle (or of `contract`); resolves false when one failed. */
export async function runMerchantWorkerOnce(config: WorkerConfig, contract?: string, options: WorkerModuleOptions = {}): Promise<boolean> {
  const app = await createWorkerContext(config, options);
  try {
    return await app.get(MerchantWorker).runOnce(contract);
  } finally {
    await app.close();
  }
}
