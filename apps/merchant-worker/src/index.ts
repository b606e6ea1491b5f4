/** What other projects (the local stack) use of the worker: run it in-process from a config. */
export { createWorkerContext, runMerchantWorkerOnce, startMerchantWorker, type RunningMerchantWorker } from "./bootstrap";
export { MerchantKey, loadWorkerConfig, type WorkerChainConfig, type WorkerConfig } from "./config";
export { WorkerModule, type WorkerModuleOptions } from "./worker.module";
export { MerchantWorker } from "./merchant-worker";
