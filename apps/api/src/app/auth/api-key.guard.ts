import { Injectable, type CanActivate, type ExecutionContext } from "@nestjs/common";
import { Reflector } from "@nestjs/core";
import type { FastifyRequest } from "fastify";

import { problems } from "../../common/problem";
import { ApiKeyService, type Caller } from "./api-key.service";
import { IS_PUBLIC } from "./public.decorator";

/**
 * Every route needs `Authorization: Bearer <merchant API key>` unless marked @Public(). Keys anywhere else (query
 * string, other schemes) are refused, so they do not end up in logs and proxies. The scheme name is case-insensitive
 * (RFC 9110 §11.1).
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly apiKeys: ApiKeyService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    const request = context.switchToHttp().getRequest<FastifyRequest & { caller?: Caller }>();
    const header = request.headers.authorization;
    const match = typeof header === "string" ? /^Bearer ([^\s]+)$/i.exec(header) : null;
    if (!match) throw problems.unauthorized();
    const caller = await this.apiKeys.authenticate(match[1]);
    if (!caller) throw problems.unauthorized();
    // A copy: the authenticated caller is cached across requests, the request id is this request's.
    request.caller = { ...caller, requestId: request.id };
    return true;
  }
}
