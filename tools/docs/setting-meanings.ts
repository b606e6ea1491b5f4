/**
 * What each setting of the apps means, for the generated settings reference (docs/reference/settings.md). The names,
 * defaults and whether a setting is required come from the apps' zod schemas; only the meaning is written here. The
 * drift test fails when a setting has no meaning here, or a meaning names a setting the apps no longer read.
 */
export const API_SETTING_MEANINGS: Record<string, string> = {
  PGLITE_DIR: "without `DATABASE_URL`: the folder of the embedded PGlite database (`.local/pglite`, the local stack's)",
  PORT: "HTTP port: decimal digits, 0 to 65535 (`1e3`, `0x10` and `99999` are refused by name)",
  HOST: "address the API listens on: an IP address (`0.0.0.0` every interface, `127.0.0.1` loopback only behind a local proxy, `::`) or a host name; a URL or `host:port` is refused by name",
  API_ROLES:
    "what this process does, comma-separated: `serve` (the HTTP routes; stateless, any number of replicas), `index` (one indexer per chain; one process leads each chain, the others stand by and take over within seconds) and `deliver` (webhook delivery; any number of workers share the outbox). A process without `serve` answers only `/health`, `/ready`, `/metrics` and `/status`. Anything else is refused by name at start",
  API_WORKERS:
    "API processes sharing the port (Node cluster): one per core the API has to itself (on a machine it shares with PostgreSQL and Redis, fewer: one on two cores, see docs/performance.md); worker 0 runs the indexer. More than one needs `DATABASE_URL` and `REDIS_URL`",
  DATABASE_URL:
    "PostgreSQL URL (`postgres://` or `postgresql://`, with `//` and a host: `postgres:/user:pw@host/db` is refused, its password never printed; `npm run api-key` checks it the same way); without it the embedded PGlite folder `PGLITE_DIR` (`.local/pglite`)",
  DATABASE_REPLICA_URL:
    "a PostgreSQL streaming replica of `DATABASE_URL` (same URL rules): the index reads (`GET /rounds/current`, `/rounds`, `/rounds/:id`, the public `GET /player/raffles...`) use it while it is within 2 s of the primary, and the primary otherwise (dropped within a second of dying or of passing the bound, taken back once caught up); writes, sign-in, sessions, the voucher log, claims and a player's own tickets always use the primary. Needs `DATABASE_URL`",
  CHAIN_IDS:
    'several chains served (comma-separated); each chain\'s own settings are then `CHAIN_<id>_<SETTING>` (see "Many chains, one platform"). Without it, `CHAIN_ID` alone',
  CHAIN_ID: "the chain served, when `CHAIN_IDS` is not set",
  RPC_URL: "chain node (http or https)",
  DEPLOYMENT_FILE:
    "platform addresses; every field is checked at start (addresses present, non-zero, EIP-55 checksummed; `chainId` equal to the chain's; VRF fields, `deployBlock`, `deployedAt`), then code at each contract address on the chain",
  SIGNER_PRIVATE_KEY:
    "the voucher key (must hold `SIGNER_ROLE` on the Exchange): 64 hex digits, `0x` optional, nothing else (no whitespace, no second `0x`); a local dev key on 31337 and 31338 only. Per chain as `CHAIN_<id>_SIGNER_PRIVATE_KEY`",
  SIGNER_KEYSTORE_FILE:
    "instead of `SIGNER_PRIVATE_KEY`: the voucher key as an encrypted JSON keystore (`npx hardhat keystore new`); needs `SIGNER_KEYSTORE_PASSWORD_FILE`",
  SIGNER_KEYSTORE_PASSWORD_FILE: "the file holding the password of `SIGNER_KEYSTORE_FILE`",
  SIGNER_NEXT_PRIVATE_KEY:
    "the next voucher key during a rotation (per chain as `CHAIN_<id>_SIGNER_NEXT_...`): the API signs with it as soon as it holds `SIGNER_ROLE`, with the current key until then (see the signer rotation runbook); never the current key, never a dev default",
  SIGNER_NEXT_KEYSTORE_FILE:
    "instead of `SIGNER_NEXT_PRIVATE_KEY`: the next voucher key as an encrypted JSON keystore; needs `SIGNER_NEXT_KEYSTORE_PASSWORD_FILE`",
  SIGNER_NEXT_KEYSTORE_PASSWORD_FILE: "the file holding the password of `SIGNER_NEXT_KEYSTORE_FILE`",
  INDEXER_CONFIRMATIONS: "blocks behind the head treated as final (per chain: `CHAIN_<id>_INDEXER_CONFIRMATIONS`)",
  INDEXER_WS_URL:
    "the node's WebSocket endpoint (`ws://` or `wss://`; Hardhat serves it on its HTTP port): each new head (`eth_subscribe` to `newHeads`) wakes the indexer at once; polling stays as the fallback while the socket is down (it reconnects with backoff, 1 s doubling to 30 s). On a chain with sub-second blocks weigh the lag against the provider's bill. Per chain, never shared",
  INDEXER_REORG_WINDOW_BLOCKS:
    "blocks below the head applied with the undo log; a reorg deeper than that stops the chain's indexer with an error saying how to reset it; per chain",
  SIGNATURE_TTL_SECONDS: "voucher lifetime",
  RATE_LIMIT_SIGN_PER_KEY: "signatures per key per minute",
  RATE_LIMIT_SIGN_PER_ACCOUNT: "signatures one merchant may have issued per buyer account per minute",
  WEB_ORIGINS: "origins of the player app (comma-separated): Sign-In with Ethereum accepts their hosts only, CORS answers them only",
  RATE_LIMIT_PLAYER_PER_IP: "player nonces, sign-ins and vouchers per client IP per minute",
  RATE_LIMIT_CONSOLE_SIGN_IN_PER_IP: "merchant console nonces and sign-ins per client IP per minute, counted apart from the players'",
  RATE_LIMIT_PUBLIC_READS_PER_IP:
    "public reads (`GET /player/raffles`, `/player/raffles/:id`, `/player/raffles/:id/rounds`) per client IP per minute",
  REDIS_URL: "share rate-limit counters across workers and replicas (`redis://` or `rediss://`, with `//` and a host)",
  REDIS_KEY_PREFIX: "prefix of the rate-limit keys, so environments can share one Redis",
  LOG_LEVEL:
    "pino's levels, the same meaning in the API, the indexer and the worker: `fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`; anything else stops the API at start",
  METRICS_ENABLED: "Prometheus metrics at `/metrics`; `false` records nothing and answers `/metrics` with 404",
  WEBHOOK_ENCRYPTION_KEY:
    "32 bytes (64 hex digits or base64) that encrypt webhook secrets at rest; required when any served chain is not a local dev chain",
  WEBHOOK_ENCRYPTION_KEY_FILE: "instead of `WEBHOOK_ENCRYPTION_KEY`: a file holding it (a secret mounted as a file)",
  WEBHOOK_ALLOW_PRIVATE_URLS: "accept `http://` and hosts on loopback or private networks (the local stack and tests only)",
  INDEXER_POLL_INTERVAL_MS:
    "pause between polls once caught up; a quiet chain's poll backs off, doubling after each quiet step up to 8 times this, and comes back on events or a new head over `INDEXER_WS_URL`",
  DEFAULT_RAFFLE_SCHEDULE: "cron schedule given to newly registered raffles; checked at start by the cron package the worker runs it with",
};

export const WORKER_SETTING_MEANINGS: Record<string, string> = {
  CHAIN_IDS: "chains whose raffles are rotated (`31337,8453`); each reads `CHAIN_<id>_<SETTING>` first",
  MERCHANT_PRIVATE_KEY: "the key holding `ROUND_MANAGER_ROLE` on the raffles (never logged)",
  MERCHANT_KEYSTORE_FILE: "instead of `MERCHANT_PRIVATE_KEY`: an encrypted JSON keystore; needs `MERCHANT_KEYSTORE_PASSWORD_FILE`",
  MERCHANT_KEYSTORE_PASSWORD_FILE: "the file holding the password of `MERCHANT_KEYSTORE_FILE`",
  API_URL: "Base URL of the API (http or https)",
  API_KEY: "The merchant's API key (`npm run api-key -- create --merchant <wallet>`)",
  CHAIN_ID: "Without `CHAIN_IDS`: the one chain whose raffles are rotated; the node at `RPC_URL` must serve it",
  RPC_URL: "JSON-RPC endpoint of the chain, http or https (only its scheme and host are ever logged)",
  CONFIRMATIONS: "Blocks a receipt must have before the next step (per chain)",
  REFRESH_INTERVAL_SECONDS: "How often the raffle list is read again",
  HEALTH_PORT: "Port of `GET /health` (`0`: any free port, logged)",
  HEALTH_HOST: "Address `GET /health` and `/metrics` listen on: an IP address (`127.0.0.1` for loopback only) or a host name",
  MAX_FEE_PER_GAS_GWEI: "Cap of `maxFeePerGas`, fee bumps included (per chain)",
  FEE_BUMP_PERCENT: "Fee raise of each replacement, at least 12.5 (per chain)",
  TX_RECEIPT_TIMEOUT_SECONDS: "Wait for a receipt before replacing the transaction (per chain)",
  PERMANENT_FAILURE_RETRY_REFRESHES: "List refreshes before a raffle that failed permanently is tried again",
  SCHEDULE_TIMEZONE: "IANA zone in which schedules are read",
  API_RETRY_MAX_DELAY_SECONDS: "Cap of the backoff while the API (or the node) is unreachable",
  LOG_LEVEL: "pino's levels, as in the API: `fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`; anything else is a configuration error",
  LOW_GAS_BALANCE_ETH:
    "below this balance (native token of each chain) the worker warns once and `raffle_worker_gas_balance_wei` drops under `raffle_worker_gas_balance_threshold_wei`",
  RELAYER_ENABLED:
    "Relay the merchant's gasless purchases, claims and refunds from the API's mailbox; on by default when every chain is a dev chain whose Exchange is known, else required",
  RELAYER_ID: "This relayer's name at the mailbox, stable across restarts (a restarted relayer resumes the jobs it held); each replica its own",
  RELAYER_PRIVATE_KEY: "The key that pays the relayed gas (never logged); default the merchant key. Each replica may have its own",
  RELAYER_POLL_INTERVAL_MS: "How often the relayer claims jobs (and renews the leases of those it holds)",
  RELAYER_MAX_IN_FLIGHT: "Jobs relayed at once per chain: jobs a second times the seconds each takes, lease to report",
  EXCHANGE_ADDRESS:
    "The chain's Exchange, the only contract the relayer sends to (per chain); on a dev chain read from its deployment record, else required while relaying",
};
