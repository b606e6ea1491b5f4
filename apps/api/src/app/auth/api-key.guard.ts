import { Injectable, type CanActivate, type ExecutionContext } from "@nestjs/common";
import { Reflector } from "@nestjs/core";
import type { FastifyRequest } from "fastify";

import { problems } from "../../common/problem";
import { ApiKeyService, type Caller } from "./api-key.service";
import { MERCHANT_ACCESS, type MerchantAccess } from "./merchant-access.decorator";
import { MerchantSessions } from "./merchant-sessions.service";
import { IS_PUBLIC } from "./public.decorator";

/**
 * Every route needs `Authorization: Bearer <merchant API key>` unless marked @Public(); routes marked for the console
 * also take (or take only) the merchant's console session (`ms_...`), which acts for the same merchant with the same
 * rules. Keys anywhere else (query string, other schemes) are refused, so they do not end up in logs and proxies. The
 * scheme name is case-insensitive (RFC 9110 §11.1).
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly apiKeys: ApiKeyService,
    private readonly sessions: MerchantSessions,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;
    const access = this.reflector.getAllAndOverride<MerchantAccess | undefined>(MERCHANT_ACCESS, targets) ?? "apiKey";
    const refused = access === "session" ? problems.merchantSessionRequired : problems.unauthorized;
    const request = context.switchToHttp().getRequest<FastifyRequest & { caller?: Caller }>();
    const header = request.headers.authorization;
    const match = typeof header === "string" ? /^Bearer ([^\s]+)$/i.exec(header) : null;
    if (!match) throw refused();
    const token = match[1];
    if (token.startsWith("ms_")) {
      if (access === "apiKey") throw refused();
      const session = await this.sessions.find(token);
      if (!session) throw refused();
      request.caller = { merchantId: session.merchantId, apiKeyId: null, session, requestId: request.id };
      return true;
    }
    if (access === "session") throw refused();
    const caller = await this.apiKeys.authenticate(token);
    if (!caller) throw refused();
    // A copy: the authenticated caller is cached across requests, the request id is this request's.
    request.caller = { ...caller, requestId: request.id };
    return true;
  }
}
