import { Module } from "@nestjs/common";

import { WebhookDelivery } from "./delivery.service";
import { WebhooksController } from "./webhooks.controller";
import { WebhooksService } from "./webhooks.service";

/** Webhook endpoints (HTTP) and the delivery loop that sends the indexer's outbox to them. */
@Module({ controllers: [WebhooksController], providers: [WebhooksService, WebhookDelivery] })
export class WebhooksModule {}
