import { Injectable, type CanActivate, type ExecutionContext } from "@nestjs/common";
import { Reflector } from "@nestjs/core";
import type { FastifyRequest } from "fastify";

import { problems } from "../../common/problem";
import { ApiKeyService, type Caller } from "./api-key.service";
import { MERCHANT_ACCESS, type MerchantAccess } from "./merchant-access.decorator";
import { MerchantSessions } from "./merchant-sessions.service";
import { IS_PUBLIC } from "./public.decorator";

/** A request the guard has let through carries its caller. */
export type AuthorizedRequest = FastifyRequest & { caller?: Caller };

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

  /** Each route's access, read from its decorators once: the metadata of a handler and its class never changes. */
  private readonly accessByHandler = new WeakMap<object, WeakMap<object, MerchantAccess | "public">>();

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const access = this.routeAccess(context.getHandler(), context.getClass());
    if (access === "public") return true;
    await this.authorize(context.switchToHttp().getRequest<AuthorizedRequest>(), access);
    return true;
  }

  /**
   * The caller of a request to a route of `access`, also set as `request.caller`; throws the route's refusal. The routes
   * served outside Nest's pipeline (DIRECT_ROUTES) call this themselves.
   */
  async authorize(request: AuthorizedRequest, access: MerchantAccess): Promise<Caller> {
    const refused = access === "session" ? problems.merchantSessionRequired : problems.unauthorized;
    const header = request.headers.authorization;
    const match = typeof header === "string" ? /^Bearer ([^\s]+)$/i.exec(header) : null;
    if (!match) throw refused();
    const token = match[1];
    if (token.startsWith("ms_")) {
      if (access === "apiKey") throw refused();
      const session = await this.sessions.find(token);
      if (!session) throw refused();
      return (request.caller = { merchantId: session.merchantId, apiKeyId: null, session, requestId: request.id });
    }
    if (access === "session") throw refused();
    const caller = await this.apiKeys.authenticate(token, { userAgent: request.headers["user-agent"], ip: request.ip });
    if (!caller) throw refused();
    // A copy: the authenticated caller is cached across requests, the request id is this request's.
    return (request.caller = { ...caller, requestId: request.id });
  }

  /** A route's access, from the decorators of its handler and controller. */
  routeAccess(handler: object, controller: object): MerchantAccess | "public" {
    let byController = this.accessByHandler.get(handler);
    if (!byController) this.accessByHandler.set(handler, (byController = new WeakMap()));
    let access = byController.get(controller);
    if (access === undefined) {
      const targets = [handler, controller] as Array<() => void>;
      access = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)
        ? "public"
        : (this.reflector.getAllAndOverride<MerchantAccess | undefined>(MERCHANT_ACCESS, targets) ?? "apiKey");
      byController.set(controller, access);
    }
    return access;
  }
}
