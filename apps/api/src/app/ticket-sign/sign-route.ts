import type { ArgumentMetadata, PipeTransform } from "@nestjs/common";
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from "fastify";

import type { ProblemFilter } from "../../common/problem.filter";
import type { ApiKeyGuard, AuthorizedRequest } from "../auth/api-key.guard";
import type { MerchantAccess } from "../auth/merchant-access.decorator";
import { TicketSignController } from "./ticket-sign.controller";
import { SignTicketBody, acceptsSignTicketBody } from "./ticket-sign.dto";
import type { TicketSignService } from "./ticket-sign.service";

/** What the sign route runs: the same guard, pipe, service and problem filter as every Nest route. */
export interface SignRouteParts {
  guard: ApiKeyGuard;
  pipe: PipeTransform;
  tickets: TicketSignService;
  problems: ProblemFilter;
}

const SIGN_PATH = "/raffle/ticket/sign";
const BODY: ArgumentMetadata = { type: "body", metatype: SignTicketBody, data: undefined };

/**
 * Serves `POST /raffle/ticket/sign` with a plain Fastify handler instead of Nest's request pipeline (its execution
 * context, guard and pipe consumers, interceptor chain and parameter resolution cost about as much CPU as the
 * signature itself). The route stays declared by TicketSignController, so its OpenAPI entry, its path and its access
 * rule keep one source; this only swaps the handler Nest registers for it. The handler runs the same steps in Nest's
 * order: the API key guard (with the controller's access), the global validation pipe (its hand-written check first,
 * so a well-formed body never reaches class-validator), the service, and the problem filter for any error, so every
 * answer and problem code is the one the Nest route gave.
 */
export function serveSignRouteDirectly(fastify: FastifyInstance, parts: () => SignRouteParts): void {
  fastify.addHook("onRoute", (route: RouteOptions) => {
    if (route.method !== "POST" || route.url !== SIGN_PATH) return;
    route.handler = signHandler(parts());
  });
}

function signHandler({ guard, pipe, tickets, problems }: SignRouteParts): (request: FastifyRequest, reply: FastifyReply) => void {
  const controller = TicketSignController.prototype;
  const access = guard.routeAccess(controller.sign, TicketSignController);
  if (access !== "apiKey") throw new Error(`the sign route served outside Nest expects API-key access, its controller says ${access}`);

  async function sign(request: FastifyRequest): Promise<unknown> {
    const caller = await guard.authorize(request as AuthorizedRequest, access as MerchantAccess);
    const body = acceptsSignTicketBody(request.body)
      ? (request.body as SignTicketBody)
      : ((await pipe.transform(request.body, BODY)) as SignTicketBody);
    return tickets.sign(caller, body);
  }

  // Not an async handler: the answer is sent from the promise's own callbacks, without the extra promise Fastify
  // would wrap around an async handler's result.
  return (request, reply) => {
    sign(request).then(
      (answer) => reply.code(200).send(answer),
      (error: unknown) => problems.answer(error, request, reply),
    );
  };
}
