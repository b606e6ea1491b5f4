import type { ArgumentMetadata, PipeTransform, Type } from "@nestjs/common";
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from "fastify";

import type { ProblemFilter } from "../common/problem.filter";
import { JSON_CONTENT_TYPE } from "../services/json-body";
import type { ApiKeyGuard, AuthorizedRequest } from "./auth/api-key.guard";
import type { Caller } from "./auth/api-key.service";
import type { MerchantAccess } from "./auth/merchant-access.decorator";
import { ClaimsController } from "./claims/claims.controller";
import { RaffleContractsController } from "./raffle-contracts/raffle-contracts.controller";
import { RoundsController } from "./rounds/rounds.controller";

/** What the read routes run: the same guard, pipe, controllers and problem filter as every Nest route. */
export interface ReadRouteParts {
  guard: ApiKeyGuard;
  pipe: PipeTransform;
  problems: ProblemFilter;
  controller<T>(type: Type<T>): T;
}

/** A hot read's handler: `(caller, query)`, answering the JSON body of a cached read (json-body.ts). */
type ReadHandler = (caller: Caller, query: object) => Promise<Buffer>;

/** The hot reads of issue 33: path, controller and its method. */
const READ_ROUTES: Array<[path: string, controller: Type<object>, method: string]> = [
  ["/rounds/current", RoundsController, "current"],
  ["/rounds", RoundsController, "list"],
  ["/raffle/contracts", RaffleContractsController, "list"],
  ["/claims", ClaimsController, "list"],
];

/** Distinct query strings whose validated query each route keeps (clients poll the same few; a crawler empties it). */
const KNOWN_QUERIES = 1_000;

/**
 * Serves the hot reads (`GET /rounds/current`, `/rounds`, `/raffle/contracts`, `/claims`) with a plain Fastify
 * handler instead of Nest's request pipeline, as sign-route.ts does for the sign route: on a cache hit that pipeline
 * (execution context, guard and pipe consumers, parameter resolution) and class-validator cost more CPU than the read.
 * The routes stay declared by their controllers (OpenAPI, path, access rule), and the handler runs the same steps in
 * Nest's order: the API key guard with the controller's access, the global validation pipe on the query, the
 * controller's own method, and the problem filter for any error, so every answer and problem code is the Nest route's.
 * The pipe's result is kept per query string (the pipe is a pure function of it), so a client polling the same
 * query runs class-validator once; a query the pipe refuses is never kept.
 */
export function serveReadRoutesDirectly(fastify: FastifyInstance, parts: () => ReadRouteParts): void {
  fastify.addHook("onRoute", (route: RouteOptions) => {
    if (route.method !== "GET") return;
    const read = READ_ROUTES.find(([path]) => path === route.url);
    if (read) route.handler = readHandler(parts(), read[1], read[2]);
  });
}

function readHandler(parts: ReadRouteParts, type: Type<object>, method: string): (request: FastifyRequest, reply: FastifyReply) => void {
  const { guard, pipe, problems } = parts;
  const handler = (type.prototype as Record<string, ReadHandler>)[method];
  const access = guard.routeAccess(handler, type);
  if (access === "public") throw new Error(`the read route ${type.name}.${method} served outside Nest expects a merchant's access`);
  // The query's class, as Nest reads it for @Query(): the handler's second parameter type.
  const [, metatype] = Reflect.getMetadata("design:paramtypes", type.prototype, method) as Array<Type<object>>;
  const metadata: ArgumentMetadata = { type: "query", metatype, data: undefined };
  const controller = parts.controller(type);
  const known = new Map<string, object>();

  async function queryOf(request: FastifyRequest): Promise<object> {
    const mark = request.url.indexOf("?");
    const raw = mark < 0 ? "" : request.url.slice(mark + 1);
    let query = known.get(raw);
    if (!query) {
      query = (await pipe.transform(request.query, metadata)) as object;
      if (known.size >= KNOWN_QUERIES) known.clear();
      known.set(raw, query);
    }
    // A copy for this request: nothing a handler might do to it reaches the next request.
    return Object.assign(Object.create(Object.getPrototypeOf(query) as object) as object, query);
  }

  async function answer(request: FastifyRequest): Promise<Buffer> {
    const caller = await guard.authorize(request as AuthorizedRequest, access as MerchantAccess);
    return handler.call(controller, caller, await queryOf(request));
  }

  // Not an async handler: the answer is sent from the promise's own callbacks (as the sign route's).
  return (request, reply) => {
    answer(request).then(
      (body) => reply.code(200).header("content-type", JSON_CONTENT_TYPE).send(body),
      (error: unknown) => problems.answer(error, request, reply),
    );
  };
}
