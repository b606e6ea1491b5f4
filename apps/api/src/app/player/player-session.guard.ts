import { Injectable, SetMetadata, UseGuards, applyDecorators, createParamDecorator, type CanActivate, type ExecutionContext } from "@nestjs/common";
import type { FastifyRequest } from "fastify";

import { problems } from "../../common/problem";
import { PLAYER_SESSION_SCHEME } from "../../openapi/openapi-document";
import { IS_PUBLIC } from "../auth/public.decorator";
import { PlayerSessionService, type PlayerSession } from "./player-session.service";

type PlayerRequest = FastifyRequest & { player?: PlayerSession };

/** Routes of a signed-in player: `Authorization: Bearer ps_...` from Sign-In with Ethereum, never a merchant key. */
@Injectable()
export class PlayerSessionGuard implements CanActivate {
  constructor(private readonly sessions: PlayerSessionService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<PlayerRequest>();
    const match = /^Bearer ([^\s]+)$/i.exec(request.headers.authorization ?? "");
    const session = match ? await this.sessions.find(match[1]) : null;
    if (!session) throw problems.sessionRequired();
    request.player = session;
    return true;
  }
}

/** @nestjs/swagger's metadata key of `@ApiSecurity` (see public.decorator.ts). */
const SWAGGER_SECURITY = "swagger/apiSecurity";

/** A route for a signed-in player: no merchant key (the global guard lets it through), the session guard instead. */
export const PlayerRoute = (): MethodDecorator =>
  applyDecorators(
    SetMetadata(IS_PUBLIC, true),
    UseGuards(PlayerSessionGuard),
    (_target: object, _key: string | symbol, descriptor: PropertyDescriptor) => {
      Reflect.defineMetadata(SWAGGER_SECURITY, [{ [PLAYER_SESSION_SCHEME]: [] }], descriptor.value);
    },
  ) as MethodDecorator;

/** The signed-in player of the request, set by PlayerSessionGuard. */
export const CurrentPlayer = createParamDecorator((_data: unknown, context: ExecutionContext): PlayerSession => {
  return context.switchToHttp().getRequest<{ player: PlayerSession }>().player;
});

/** The client's IP as Fastify sees it (the socket's address unless the deployment trusts a proxy's header). */
export const ClientIp = createParamDecorator((_data: unknown, context: ExecutionContext): string => {
  return context.switchToHttp().getRequest<FastifyRequest>().ip;
});
