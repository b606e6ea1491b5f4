import { ApiKeyEntity } from "./api-key.entity";
import { ClaimEntity } from "./claim.entity";
import { ContractEntity } from "./contract.entity";
import { GaslessRelayerEntity, GaslessRequestEntity, GaslessSettingsEntity } from "./gasless.entity";
import { IndexerBlockEntity, IndexerCursorEntity, IndexerEventEntity } from "./indexer.entity";
import { MerchantEntity } from "./merchant.entity";
import { MerchantSessionEntity } from "./merchant-session.entity";
import { PlayerSessionEntity, SiweNonceEntity } from "./player-session.entity";
import { PriceComponentEntity, PriceEntity } from "./price.entity";
import { RoundEntity } from "./round.entity";
import { RoundWinnerEntity } from "./round-winner.entity";
import { RoundItemEntity } from "./round-item.entity";
import { TemplateEntity } from "./template.entity";
import { TicketVoucherEntity } from "./ticket-voucher.entity";
import { TicketEntity } from "./ticket.entity";
import { TokenEntity } from "./token.entity";
import { WebhookAttemptEntity, WebhookDeliveryEntity, WebhookEndpointEntity, WebhookMessageEntity } from "./webhook.entity";

export * from "./api-key.entity";
export * from "./base.entity";
export * from "./claim.entity";
export * from "./contract.entity";
export * from "./gasless.entity";
export * from "./indexer.entity";
export * from "./merchant.entity";
export * from "./merchant-session.entity";
export * from "./player-session.entity";
export * from "./price.entity";
export * from "./round.entity";
export * from "./round-winner.entity";
export * from "./round-item.entity";
export * from "./template.entity";
export * from "./ticket-voucher.entity";
export * from "./ticket.entity";
export * from "./token.entity";
export * from "./webhook.entity";

export const ENTITIES = [
  MerchantEntity,
  ContractEntity,
  TemplateEntity,
  TokenEntity,
  PriceEntity,
  PriceComponentEntity,
  RoundEntity,
  RoundWinnerEntity,
  RoundItemEntity,
  TicketEntity,
  ClaimEntity,
  TicketVoucherEntity,
  ApiKeyEntity,
  IndexerCursorEntity,
  IndexerBlockEntity,
  IndexerEventEntity,
  WebhookEndpointEntity,
  WebhookMessageEntity,
  WebhookDeliveryEntity,
  WebhookAttemptEntity,
  SiweNonceEntity,
  PlayerSessionEntity,
  MerchantSessionEntity,
  GaslessRequestEntity,
  GaslessSettingsEntity,
  GaslessRelayerEntity,
];
