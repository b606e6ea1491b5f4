import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from "@nestjs/common";
import { ApiCreatedResponse, ApiExtraModels, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from "@nestjs/swagger";

import {
  AUTHENTICATED_PROBLEMS,
  AnswersProblems,
  BODY_PARSING_PROBLEMS,
  JSON_BODY_PROBLEMS,
  PATH_ID_PROBLEMS,
  QUERY_PROBLEMS,
} from "../../common/dto/problem.dto";
import { PaginationQuery } from "../../common/pagination.dto";
import { idParam } from "../../common/ids";
import { problems } from "../../common/problem";
import type { Caller } from "../auth/api-key.service";
import { CurrentCaller } from "../auth/current-caller.decorator";
import { MerchantKeyOrSession } from "../auth/merchant-access.decorator";
import { WebhookDelivery } from "./delivery.service";
import {
  CreateWebhookBody,
  DeliveriesQuery,
  DeliveryDetailDto,
  DeliveryDto,
  DeliveryListDto,
  RotatedSecretDto,
  UpdateWebhookBody,
  WebhookDto,
  WebhookListDto,
  WebhookMessageDto,
  WebhookWithSecretDto,
} from "./webhooks.dto";
import { WebhooksService } from "./webhooks.service";

/** A malformed `:id` is the same 404 as an unknown webhook. */
const webhookId = idParam(() => problems.webhookNotFound());

/** A delivery id is a positive 64-bit integer; anything else is the same 404 as an unknown one. */
function checkDeliveryId(webhook: number, delivery: string): void {
  if (!/^[1-9]\d{0,17}$/.test(delivery)) throw problems.deliveryNotFound(webhook);
}

const SIGNING =
  "Each message is POSTed as JSON (the `WebhookMessage` schema) with the Standard Webhooks headers `webhook-id` (the message id), `webhook-timestamp` and `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body` under the secret); verify with the SDK's `verifyWebhook` or the `standardwebhooks` package.";

@ApiTags("webhooks")
@MerchantKeyOrSession()
@ApiExtraModels(WebhookMessageDto)
@Controller("webhooks")
export class WebhooksController {
  constructor(
    private readonly webhooks: WebhooksService,
    private readonly delivery: WebhookDelivery,
  ) {}

  @Post()
  @ApiOperation({
    operationId: "createWebhook",
    summary: "Register an endpoint that is sent the calling merchant's events as signed messages.",
    description: `${SIGNING} A merchant may register at most 16 endpoints (409 webhookLimitReached). Delivery is at least once, retried with exponential backoff for 24 hours on any non-2xx answer, timeout (10 s) or connection error; per endpoint in chain order. A reorg that removes an announced event sends a message with \`removed: true\` and the same \`eventId\`.`,
  })
  @ApiCreatedResponse({ type: WebhookWithSecretDto, description: "The endpoint and its signing `secret`, shown only here." })
  @AnswersProblems(...AUTHENTICATED_PROBLEMS, ...JSON_BODY_PROBLEMS, "webhookUrlInvalid", "webhookUrlRefused", "webhookLimitReached")
  create(@CurrentCaller() caller: Caller, @Body() body: CreateWebhookBody): Promise<WebhookWithSecretDto> {
    return this.webhooks.create(caller.merchantId, body);
  }

  @Get()
  @ApiOperation({ operationId: "listWebhooks", summary: "The calling merchant's webhook endpoints, newest first (no secrets)." })
  @ApiOkResponse({ type: WebhookListDto, description: "One page of endpoints and their total count; `disabled` marks one that failed for days." })
  @AnswersProblems(...AUTHENTICATED_PROBLEMS, ...QUERY_PROBLEMS)
  list(@CurrentCaller() caller: Caller, @Query() query: PaginationQuery): Promise<WebhookListDto> {
    return this.webhooks.list(caller.merchantId, query.skip, query.take);
  }

  @Get(":id")
  @ApiOperation({ operationId: "getWebhook", summary: "One webhook endpoint of the calling merchant (no secret)." })
  @ApiParam({ name: "id", description: "Webhook id; another merchant's is a 404 webhookNotFound.", type: Number, example: 7 })
  @ApiOkResponse({ type: WebhookDto, description: "The endpoint." })
  @AnswersProblems(...AUTHENTICATED_PROBLEMS, ...PATH_ID_PROBLEMS, "webhookNotFound")
  get(@CurrentCaller() caller: Caller, @Param("id", webhookId) id: number): Promise<WebhookDto> {
    return this.webhooks.get(caller.merchantId, id);
  }

  @Patch(":id")
  @ApiOperation({
    operationId: "updateWebhook",
    summary: "Choose which message types the endpoint receives, or change its description; omitted fields stay as they are.",
    description: "Applies to messages written from now on: a message of a type the endpoint does not receive is never written for it.",
  })
  @ApiParam({ name: "id", description: "Webhook id.", type: Number, example: 7 })
  @ApiOkResponse({ type: WebhookDto, description: "The endpoint as it is now." })
  @AnswersProblems(...AUTHENTICATED_PROBLEMS, ...PATH_ID_PROBLEMS, ...JSON_BODY_PROBLEMS, "webhookNotFound")
  update(@CurrentCaller() caller: Caller, @Param("id", webhookId) id: number, @Body() body: UpdateWebhookBody): Promise<WebhookDto> {
    return this.webhooks.update(caller.merchantId, id, body);
  }

  @Delete(":id")
  @HttpCode(200)
  @ApiOperation({ operationId: "deleteWebhook", summary: "Delete an endpoint: nothing more is sent to it, its pending deliveries are dropped." })
  @ApiParam({ name: "id", description: "Webhook id.", type: Number, example: 7 })
  @ApiOkResponse({ type: WebhookDto, description: "The deleted endpoint." })
  @AnswersProblems(...AUTHENTICATED_PROBLEMS, ...PATH_ID_PROBLEMS, ...BODY_PARSING_PROBLEMS, "webhookNotFound")
  remove(@CurrentCaller() caller: Caller, @Param("id", webhookId) id: number): Promise<WebhookDto> {
    return this.webhooks.remove(caller.merchantId, id);
  }

  @Post(":id/secret")
  @HttpCode(200)
  @ApiOperation({
    operationId: "rotateWebhookSecret",
    summary: "Rotate the signing secret; the previous one keeps signing alongside for a grace period (default 24 h).",
    description: "During the grace period `webhook-signature` carries one `v1,` signature per secret, so a receiver holding either verifies.",
  })
  @ApiParam({ name: "id", description: "Webhook id.", type: Number, example: 7 })
  @ApiOkResponse({ type: RotatedSecretDto, description: "The endpoint and its new `secret`, shown only here." })
  @AnswersProblems(...AUTHENTICATED_PROBLEMS, ...PATH_ID_PROBLEMS, ...BODY_PARSING_PROBLEMS, "webhookNotFound")
  rotate(@CurrentCaller() caller: Caller, @Param("id", webhookId) id: number): Promise<RotatedSecretDto> {
    return this.webhooks.rotateSecret(caller.merchantId, id);
  }

  @Get(":id/deliveries")
  @ApiOperation({
    operationId: "listWebhookDeliveries",
    summary: "The endpoint's deliveries, newest first: attempts, last answer, next attempt; of one message type or state when asked.",
  })
  @ApiParam({ name: "id", description: "Webhook id.", type: Number, example: 7 })
  @ApiOkResponse({ type: DeliveryListDto, description: "One page of deliveries and their total count." })
  @AnswersProblems(...AUTHENTICATED_PROBLEMS, ...PATH_ID_PROBLEMS, ...QUERY_PROBLEMS, "webhookNotFound")
  deliveries(@CurrentCaller() caller: Caller, @Param("id", webhookId) id: number, @Query() query: DeliveriesQuery): Promise<DeliveryListDto> {
    return this.webhooks.deliveries(caller.merchantId, id, query);
  }

  @Get(":id/deliveries/:deliveryId")
  @ApiOperation({
    operationId: "getWebhookDelivery",
    summary: "One delivery with each of its attempts (time, status, the answer's start or the network error, duration) and the message sent.",
  })
  @ApiParam({ name: "id", description: "Webhook id.", type: Number, example: 7 })
  @ApiParam({ name: "deliveryId", description: "Delivery id; another endpoint's is a 404 deliveryNotFound.", type: String, example: "42" })
  @ApiOkResponse({ type: DeliveryDetailDto, description: "The delivery, its attempts and its payload." })
  @AnswersProblems(...AUTHENTICATED_PROBLEMS, ...PATH_ID_PROBLEMS, "webhookNotFound", "deliveryNotFound")
  async deliveryDetail(
    @CurrentCaller() caller: Caller,
    @Param("id", webhookId) id: number,
    @Param("deliveryId") delivery: string,
  ): Promise<DeliveryDetailDto> {
    checkDeliveryId(id, delivery);
    return this.webhooks.deliveryDetail(caller.merchantId, id, delivery);
  }

  @Post(":id/test")
  @HttpCode(200)
  @ApiOperation({
    operationId: "sendTestWebhook",
    summary: "Send a test message (`type: webhook.test`) to the endpoint now, signed like any other; answers once the attempt is done.",
    description:
      "Counts as a manual retry of the endpoint (at most 10 a minute, 429 retryLimited with Retry-After). A failed attempt is retried like any delivery.",
  })
  @ApiParam({ name: "id", description: "Webhook id.", type: Number, example: 7 })
  @ApiOkResponse({ type: DeliveryDto, description: "The test message's delivery after its first attempt." })
  @AnswersProblems(...AUTHENTICATED_PROBLEMS, ...PATH_ID_PROBLEMS, ...BODY_PARSING_PROBLEMS, "webhookNotFound", "retryLimited")
  async sendTest(@CurrentCaller() caller: Caller, @Param("id", webhookId) id: number): Promise<DeliveryDto> {
    const delivery = await this.webhooks.writeTestMessage(caller.merchantId, id);
    const sent = await this.delivery.retryNow(id, delivery);
    if (sent !== true) {
      await this.webhooks.dropTestMessage(delivery);
      if (sent === false) throw problems.webhookNotFound(id);
      throw problems.retryLimited(sent.retryAfterSeconds, sent.reason);
    }
    return this.webhooks.delivery(caller.merchantId, id, delivery);
  }

  @Post(":id/deliveries/:deliveryId/retry")
  @HttpCode(200)
  @ApiOperation({
    operationId: "retryWebhookDelivery",
    summary: "Send one delivery again now (delivered, pending or failed), ahead of the endpoint's order; answers once the attempt is done.",
    description:
      "A 2xx answer to it also re-enables a disabled endpoint. Limits: one delivery at most once a minute, one endpoint at most 10 manual retries a minute (429 retryLimited with Retry-After).",
  })
  @ApiParam({ name: "id", description: "Webhook id.", type: Number, example: 7 })
  @ApiParam({ name: "deliveryId", description: "Delivery id.", type: String, example: "42" })
  @ApiOkResponse({ type: DeliveryDto, description: "The delivery after the attempt." })
  @AnswersProblems(...AUTHENTICATED_PROBLEMS, ...PATH_ID_PROBLEMS, ...BODY_PARSING_PROBLEMS, "webhookNotFound", "deliveryNotFound", "retryLimited")
  async retry(@CurrentCaller() caller: Caller, @Param("id", webhookId) id: number, @Param("deliveryId") delivery: string): Promise<DeliveryDto> {
    await this.webhooks.row(caller.merchantId, id);
    checkDeliveryId(id, delivery);
    const retried = await this.delivery.retryNow(id, delivery);
    if (retried === false) throw problems.deliveryNotFound(id, delivery);
    if (retried !== true) throw problems.retryLimited(retried.retryAfterSeconds, retried.reason);
    return this.webhooks.delivery(caller.merchantId, id, delivery);
  }
}
