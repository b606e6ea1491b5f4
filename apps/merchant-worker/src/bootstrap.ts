import "reflect-metadata";
import type { INestApplicationContext } from "@nestjs/common";
import { NestFactory } from "@nestjs/core";

import type { WorkerConfig } from "./config";
import { HealthServer } from "./health-server";
import { NestJsonLogger, WorkerLogger } from "./logger";
import { MerchantWorker } from "./merchant-worker";
import { WorkerModule, type WorkerModuleOptions } from "./worker.module";

/**
 * The worker's Nest standalone context, not yet started. Nodes are reached when it starts (or runs once), each chain
 * on its own, so a node that is down never holds up the others.
 */
export async function createWorkerContext(config: WorkerConfig, options: WorkerModuleOptions = {}): Promise<INestApplicationContext> {
  return NestFactory.createApplicationContext(WorkerModule.register(config, options), {
    logger: new NestJsonLogger(new WorkerLogger({ level: config.logLevel, sink: options.logSink })),
  });
}

export interface RunningMerchantWorker {
  worker: MerchantWorker;
  logger: WorkerLogger;
  /** Bound port of /health (config.healthPort, or a free one when that is 0). */
  healthPort: number;
  stop(): Promise<void>;
}

/**
 * Starts the worker as `npm start` does (/health first, then every chain's schedules and list refresh) and returns how
 * to stop it. Resolves once every chain runs or retries its unreachable node in the background.
 */
export async function startMerchantWorker(config: WorkerConfig, options: WorkerModuleOptions = {}): Promise<RunningMerchantWorker> {
  const app = await createWorkerContext(config, options);
  try {
    const logger = app.get(WorkerLogger);
    const healthPort = await app.get(HealthServer).listen();
    logger.info("health endpoint listening", { host: config.healthHost, port: healthPort, path: "/health" });
    const worker = app.get(MerchantWorker);
    await worker.start();
    return { worker, logger, healthPort, stop: () => app.close() };
  } catch (error) {
    await app.close();
    throw error;
  }
}

/** `--once`: one rotation of every raffle of every chain (or of `chainId`, or of `contract`); resolves false when one failed. */
export async function runMerchantWorkerOnce(
  config: WorkerConfig,
  target: { contract?: string; chainId?: number } = {},
  options: WorkerModuleOptions = {},
): Promise<boolean> {
  const app = await createWorkerContext(config, options);
  try {
    return await app.get(MerchantWorker).runOnce(target.contract, target.chainId);
  } finally {
    await app.close();
  }
}
