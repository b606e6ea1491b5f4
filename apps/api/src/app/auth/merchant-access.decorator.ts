import { SetMetadata, applyDecorators } from "@nestjs/common";

import { API_KEY_SCHEME, MERCHANT_SESSION_SCHEME } from "../../openapi/openapi-document";

export const MERCHANT_ACCESS = "merchantAccess";

/**
 * How a merchant route authenticates: `apiKey` (the default: a merchant API key only), `apiKeyOrSession` (the console's
 * session may call it too, with the same rules) or `session` (the console only: managing keys needs the wallet).
 */
export type MerchantAccess = "apiKey" | "apiKeyOrSession" | "session";

/** @nestjs/swagger's metadata key of `@ApiSecurity` (see public.decorator.ts). */
const SWAGGER_SECURITY = "swagger/apiSecurity";

function access(kind: MerchantAccess, security: Array<Record<string, string[]>>): MethodDecorator & ClassDecorator {
  return applyDecorators(SetMetadata(MERCHANT_ACCESS, kind), (target: object, _key?: string | symbol, descriptor?: PropertyDescriptor) => {
    Reflect.defineMetadata(SWAGGER_SECURITY, security, descriptor ? descriptor.value : target);
  });
}

/** A merchant route the console calls too: a merchant API key or the merchant's console session. */
export const MerchantKeyOrSession = (): MethodDecorator & ClassDecorator =>
  access("apiKeyOrSession", [{ [API_KEY_SCHEME]: [] }, { [MERCHANT_SESSION_SCHEME]: [] }]);

/** A route of the merchant's console session only (API keys are refused with merchantSessionRequired). */
export const MerchantSessionOnly = (): MethodDecorator & ClassDecorator => access("session", [{ [MERCHANT_SESSION_SCHEME]: [] }]);
