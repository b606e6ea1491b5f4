import { Body, Controller, Delete, Get, HttpCode, Param, Post } from "@nestjs/common";
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from "@nestjs/swagger";
import type { ApiKeyEntity } from "@raffle/db";

import { AnswersProblems, BODY_PARSING_PROBLEMS, JSON_BODY_PROBLEMS, PATH_ID_PROBLEMS, PUBLIC_ROUTE_PROBLEMS } from "../../common/dto/problem.dto";
import { idParam } from "../../common/ids";
import { problems } from "../../common/problem";
import { MAX_ACTIVE_API_KEYS, MAX_ROLL_GRACE_SECONDS, ApiKeyService, type Caller } from "../auth/api-key.service";
import { CurrentCaller } from "../auth/current-caller.decorator";
import { MerchantSessionOnly } from "../auth/merchant-access.decorator";
import { ApiKeyDto, ApiKeyListDto, CreateApiKeyBody, CreatedApiKeyDto, RollApiKeyBody, RolledApiKeyDto } from "./merchant.dto";

const iso = (value: Date | null): string | null => (value ? value.toISOString() : null);

function toApiKeyDto(key: ApiKeyEntity): ApiKeyDto {
  return {
    id: key.id,
    prefix: key.prefix,
    label: key.label,
    createdAt: key.createdAt.toISOString(),
    lastUsedAt: iso(key.lastUsedAt),
    revokedAt: iso(key.revokedAt),
    lastRejectedAt: iso(key.lastRejectedAt),
    lastUsedUserAgent: key.lastUsedUserAgent ?? null,
    lastUsedIp: key.lastUsedIp ?? null,
  };
}

/** `badRequest`: a URL that cannot be read (a broken percent-encoding) is refused before any route. */
const SESSION_PROBLEMS = [...PUBLIC_ROUTE_PROBLEMS, "badRequest", "merchantSessionRequired", "serviceUnavailable"] as const;

/**
 * The merchant's API keys, managed from the console with the merchant's wallet session only: a key can neither make
 * nor revoke keys, so a leaked key cannot lock its merchant out or hide behind new ones.
 */
@ApiTags("merchant")
@MerchantSessionOnly()
@Controller("merchant/api-keys")
export class MerchantApiKeysController {
  constructor(private readonly keys: ApiKeyService) {}

  @Get()
  @ApiOperation({ operationId: "listApiKeys", summary: "The merchant's API keys, newest first: prefix, label, created, last used, revoked." })
  @ApiOkResponse({ type: ApiKeyListDto, description: "Every key of the merchant (never a secret)." })
  @AnswersProblems(...SESSION_PROBLEMS)
  async list(@CurrentCaller() caller: Caller): Promise<ApiKeyListDto> {
    const rows = (await this.keys.listOwn(caller.merchantId)).map(toApiKeyDto);
    return { rows, count: rows.length };
  }

  @Post()
  @ApiOperation({
    operationId: "createApiKey",
    summary: "Create an API key for the merchant; the whole key is in this answer only.",
    description: `A merchant may hold at most ${MAX_ACTIVE_API_KEYS} keys that are not revoked (409 apiKeyLimitReached).`,
  })
  @ApiCreatedResponse({ type: CreatedApiKeyDto, description: "The key, with its secret `key` shown once." })
  @AnswersProblems(...SESSION_PROBLEMS, ...JSON_BODY_PROBLEMS, "apiKeyLimitReached")
  async create(@CurrentCaller() caller: Caller, @Body() body: CreateApiKeyBody): Promise<CreatedApiKeyDto> {
    const issued = await this.keys.createOwn(caller.merchantId, body.label ?? "");
    const saved = (await this.keys.listOwn(caller.merchantId)).find((key) => key.id === issued.id)!;
    return { ...toApiKeyDto(saved), key: issued.key };
  }

  @Delete(":id")
  @HttpCode(200)
  @ApiOperation({
    operationId: "revokeApiKey",
    summary: "Revoke one of the merchant's API keys: it is refused from now on (within API_KEY_CACHE_SECONDS on other replicas).",
  })
  @ApiParam({ name: "id", description: "API key id; another merchant's is a 404 apiKeyNotFound.", type: Number, example: 4 })
  @ApiOkResponse({ type: ApiKeyDto, description: "The revoked key." })
  @AnswersProblems(...SESSION_PROBLEMS, ...PATH_ID_PROBLEMS, ...BODY_PARSING_PROBLEMS, "apiKeyNotFound")
  async revoke(@CurrentCaller() caller: Caller, @Param("id", idParam(() => problems.apiKeyNotFound(0))) id: number): Promise<ApiKeyDto> {
    const key = await this.keys.revokeOwn(caller.merchantId, id);
    if (!key) throw problems.apiKeyNotFound(id);
    return toApiKeyDto(key);
  }

  @Post(":id/roll")
  @ApiOperation({
    operationId: "rollApiKey",
    summary: "Replace one of the merchant's API keys: a new key with its label, the old one working for `graceSeconds` more.",
    description:
      `The new key's secret is in this answer only. The grace period is 0 to ${MAX_ROLL_GRACE_SECONDS} seconds (7 days); the ` +
      "rolled key counts toward the key cap until it ends, but a roll needs no free place. A revoked or already rolled key " +
      "is a 409 apiKeyRevoked; revoking the rolled key ends its grace period at once.",
  })
  @ApiParam({ name: "id", description: "API key id; another merchant's is a 404 apiKeyNotFound.", type: Number, example: 4 })
  @ApiCreatedResponse({ type: RolledApiKeyDto, description: "The new key (its secret shown once) and the rolled key." })
  @AnswersProblems(...SESSION_PROBLEMS, ...PATH_ID_PROBLEMS, ...JSON_BODY_PROBLEMS, "apiKeyNotFound", "apiKeyRevoked")
  async roll(
    @CurrentCaller() caller: Caller,
    @Param("id", idParam(() => problems.apiKeyNotFound(0))) id: number,
    @Body() body: RollApiKeyBody,
  ): Promise<RolledApiKeyDto> {
    const result = await this.keys.rollOwn(caller.merchantId, id, body.graceSeconds);
    if (!result) throw problems.apiKeyNotFound(id);
    const saved = (await this.keys.listOwn(caller.merchantId)).find((key) => key.id === result.issued.id)!;
    return { created: { ...toApiKeyDto(saved), key: result.issued.key }, rolled: toApiKeyDto(result.old) };
  }
}
