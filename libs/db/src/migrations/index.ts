import { InitialSchema1763769600000 } from "./1763769600000-initial-schema";
import { ClaimVouchers1763800000000 } from "./1763800000000-claim-vouchers";
import { PrizeRedemptionTx1763900000000 } from "./1763900000000-prize-redemption-tx";
import { TicketPrizeSettled1763950000000 } from "./1763950000000-ticket-prize-settled";
import { IndexerUndoLog1764000000000 } from "./1764000000000-indexer-undo-log";
import { Webhooks1764200000000 } from "./1764200000000-webhooks";
import { WebhookManualRetryLimits1764300000000 } from "./1764300000000-webhook-manual-retry-limits";
import { PublicSale1764400000000 } from "./1764400000000-public-sale";
import { RaffleV21764500000000 } from "./1764500000000-raffle-v2";
import { MerchantConsole1764600000000 } from "./1764600000000-merchant-console";
import { BulkUndoLog1764800000000 } from "./1764800000000-bulk-undo-log";
import { UndoInsertsPerStatement1764900000000 } from "./1764900000000-undo-inserts-per-statement";
import { RawEventsArgsOnly1765000000000 } from "./1765000000000-raw-events-args-only";
import { TicketRoundIndex1765100000000 } from "./1765100000000-ticket-round-index";
import { TicketRoundContractKey1765200000000 } from "./1765200000000-ticket-round-contract-key";
import { RawEventsNaturalKey1765300000000 } from "./1765300000000-raw-events-natural-key";
import { RawEventsBlockKey1765400000000 } from "./1765400000000-raw-events-block-key";
import { SiweNoncePurpose1765500000000 } from "./1765500000000-siwe-nonce-purpose";
import { WebhookAttempts1765600000000 } from "./1765600000000-webhook-attempts";
import { ApiKeyRejectedUse1765620000000 } from "./1765620000000-api-key-rejected-use";
import { ApiKeyLastCaller1765700000000 } from "./1765700000000-api-key-last-caller";
import { GaslessRequests1765800000000 } from "./1765800000000-gasless-requests";
import { RoundItems1765900000000 } from "./1765900000000-round-items";

/** Every migration, oldest first. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const MIGRATIONS: Function[] = [
  InitialSchema1763769600000,
  ClaimVouchers1763800000000,
  PrizeRedemptionTx1763900000000,
  TicketPrizeSettled1763950000000,
  IndexerUndoLog1764000000000,
  Webhooks1764200000000,
  WebhookManualRetryLimits1764300000000,
  PublicSale1764400000000,
  RaffleV21764500000000,
  MerchantConsole1764600000000,
  BulkUndoLog1764800000000,
  UndoInsertsPerStatement1764900000000,
  RawEventsArgsOnly1765000000000,
  TicketRoundIndex1765100000000,
  TicketRoundContractKey1765200000000,
  RawEventsNaturalKey1765300000000,
  RawEventsBlockKey1765400000000,
  SiweNoncePurpose1765500000000,
  WebhookAttempts1765600000000,
  ApiKeyRejectedUse1765620000000,
  ApiKeyLastCaller1765700000000,
  GaslessRequests1765800000000,
  RoundItems1765900000000,
];

export { PrizeRedemptionTx1763900000000 };
