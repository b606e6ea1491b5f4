import { urlOrigin } from "@raffle/config";

import { ChainConnection } from "./chain-connection";
import { ChainRaffleRounds } from "./chain-raffle-rounds";
import { ChainRotator, type RoundsPortFactory } from "./chain-rotator";
import { ChainRunner } from "./chain-runner";
import type { WorkerChainConfig, WorkerConfig } from "./config";
import type { WorkerLogger } from "./logger";
import { ApiRelayMailbox } from "./relayer/api-mailbox";
import { ChainRelayer } from "./relayer/chain-relayer";
import type { RelayMailbox } from "./relayer/relay-mailbox";
import { ApiRaffleSource, type RaffleSource } from "./raffle-source";
import type { RaffleRoundsPort, RotationHooks } from "./rotation";
import type { TimerFactory } from "./scheduler";
import { TxSender } from "./tx-sender";
import { GasBalanceWatch, type WorkerMetrics } from "./worker-metrics";

/** Seams for tests: fault injection, call counting, stubbed timers or raffle lists. */
export interface ChainSeams {
  hooks?: RotationHooks;
  timers?: TimerFactory;
  /** The raffle list of a chain; the API (filtered by chain id) by default. */
  source?: (chainId: number) => RaffleSource;
  /** Wraps each raffle's chain port (to count or fail calls). */
  decoratePort?: (port: RaffleRoundsPort) => RaffleRoundsPort;
  /** The relayer's mailbox; the API's relayer routes by default. */
  mailbox?: (relayerId: string) => RelayMailbox;
}

/**
 * Everything one chain runs on, built for that chain alone: its provider and wallet, its transaction sender (so its
 * nonce count), its raffle list (the API asked with its chain id) and its schedules. Nothing is shared across chains
 * but the merchant key, the API and the logger's sink.
 */
export function createChainRunner(
  config: WorkerConfig,
  chain: WorkerChainConfig,
  baseLogger: WorkerLogger,
  seams: ChainSeams = {},
  metrics?: WorkerMetrics,
): ChainRunner {
  const logger = baseLogger.child({ chainId: chain.chainId });
  const connection = new ChainConnection(chain, config.merchantKey);
  const sender = new TxSender(connection.wallet, {
    chainId: chain.chainId,
    confirmations: chain.confirmations,
    fees: chain.fees,
    pollMs: chain.receiptPollMs,
    onFeeBump: metrics && ((to) => metrics.feeBumped(chain.chainId, to)),
  });
  const balance =
    metrics &&
    new GasBalanceWatch({
      chainId: chain.chainId,
      merchant: connection.wallet.address,
      read: () => connection.provider.getBalance(connection.wallet.address),
      metrics,
      logger,
    });
  const decorate = seams.decoratePort ?? ((port: RaffleRoundsPort) => port);
  const ports: RoundsPortFactory = (address, portLogger) => decorate(new ChainRaffleRounds(address, connection.wallet, sender, portLogger));
  const rotator = new ChainRotator({
    chainId: chain.chainId,
    source: seams.source?.(chain.chainId) ?? new ApiRaffleSource({ baseUrl: config.apiUrl, apiKey: config.apiKey, chainId: chain.chainId }),
    ports,
    logger,
    hasContract: (address) => connection.hasContract(address),
    refreshIntervalMs: config.refreshIntervalMs,
    permanentFailureRefreshes: config.permanentFailureRefreshes,
    apiRetry: config.apiRetry,
    scheduleTimeZone: config.scheduleTimeZone,
    timers: seams.timers,
    hooks: seams.hooks,
    onRunFinished: metrics && ((record) => metrics.runFinished(record)),
  });
  logger.debug("chain configured", { node: `${chain.rpcUrlSetting} (${urlOrigin(chain.rpcUrl)})`, confirmations: chain.confirmations });
  const relaying = relayerParts(config, chain, logger, connection, sender, seams, metrics);
  return new ChainRunner({
    chainId: chain.chainId,
    rpcUrlSetting: chain.rpcUrlSetting,
    node: relaying ? { verifyChainId: () => connection.verifyChainId(), destroy: relaying.destroy } : connection,
    relayer: relaying?.relayer,
    rotator,
    logger,
    retry: config.apiRetry,
    probeIntervalMs: config.refreshIntervalMs,
    afterNodeAnswered: balance && (() => balance.check()),
  });
}

/**
 * The chain's relayer, when RELAYER_ENABLED is on. With the merchant key it shares the rotations' sender, so one nonce
 * count covers both; with its own key (RELAYER_PRIVATE_KEY) it has its own connection and nonces.
 */
function relayerParts(
  config: WorkerConfig,
  chain: WorkerChainConfig,
  logger: WorkerLogger,
  connection: ChainConnection,
  merchantSender: TxSender,
  seams: ChainSeams,
  metrics?: WorkerMetrics,
): { relayer: ChainRelayer; destroy: () => void } | undefined {
  const settings = config.relayer;
  if (!settings || !chain.exchange) return undefined;
  const ownKey = settings.key.reveal() !== config.merchantKey.reveal();
  const relayerConnection = ownKey ? new ChainConnection(chain, settings.key) : connection;
  const sender = ownKey
    ? new TxSender(relayerConnection.wallet, {
        chainId: chain.chainId,
        confirmations: chain.confirmations,
        fees: chain.fees,
        pollMs: chain.receiptPollMs,
        onFeeBump: metrics && ((to) => metrics.feeBumped(chain.chainId, to)),
      })
    : merchantSender;
  const mailbox =
    seams.mailbox?.(settings.relayerId) ?? new ApiRelayMailbox({ baseUrl: config.apiUrl, apiKey: config.apiKey, relayerId: settings.relayerId });
  const relayer = new ChainRelayer({
    chainId: chain.chainId,
    exchange: chain.exchange,
    mailbox,
    sender,
    provider: relayerConnection.provider,
    logger: logger.child({ relayerId: settings.relayerId }),
    pollIntervalMs: settings.pollIntervalMs,
    maxInFlight: settings.maxInFlight,
    metrics,
  });
  const destroy = () => {
    connection.destroy();
    if (ownKey) relayerConnection.destroy();
  };
  return { relayer, destroy };
}
