/** What other projects (the local stack, benchmarks) use of the API: build it from a config, and manage keys. */
export { createApp } from "./app/create-app";
export { ApiKeyService } from "./app/auth/api-key.service";
export { ApiMetrics } from "./metrics/api-metrics";
export { CHAIN_CHECK_INTERVAL_SECONDS, defaultRedisKeyPrefix, loadApiConfig, type ApiConfig, type ChainConfig } from "./config/api-config";
