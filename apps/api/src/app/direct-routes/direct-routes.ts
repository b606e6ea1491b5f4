import { ValidationPipe, type ArgumentMetadata, type PipeTransform, type Type } from "@nestjs/common";
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from "fastify";

import { ProblemFilter } from "../../common/problem.filter";
import { fastAcceptOf } from "../../common/validation";
import { JSON_CONTENT_TYPE } from "../../services/json-body";
import { ApiKeyGuard, type AuthorizedRequest } from "../auth/api-key.guard";
import type { Caller } from "../auth/api-key.service";
import type { MerchantAccess } from "../auth/merchant-access.decorator";
import { ClaimsController } from "../claims/claims.controller";
import { RaffleContractsController } from "../raffle-contracts/raffle-contracts.controller";
import { RoundsController } from "../rounds/rounds.controller";
import { TicketSignController } from "../ticket-sign/ticket-sign.controller";
import { assertRunsNestPipeline, type NestEnhancers, type NestPipelineParts } from "./nest-pipeline";

/**
 * A route Nest declares (its controller keeps the OpenAPI entry, the path and the access rule) but whose handler is a
 * plain Fastify one: Nest's request pipeline (execution context, guard and pipe consumers, interceptor chain,
 * parameter resolution) costs more CPU than these routes' own work. The handler runs, in Nest's order, the API key
 * guard with the controller's access, the global validation pipe on the route's input, the controller's method, and
 * the problem filter for any error, so every answer and problem code is the Nest route's.
 */
export interface DirectRoute {
  method: "GET" | "POST";
  path: string;
  controller: Type<object>;
  /** The controller's method, called as `(caller, input)`. */
  handler: string;
  /** What the pipe validates: the JSON body, or the query string (whose validated value is kept per query string). */
  input: "body" | "query";
  /** Nest's global guards, pipes, filters and interceptors this handler runs itself, in that order; boot checks them. */
  runs: NestEnhancers;
  /** Why it is served outside Nest: the measured reason. */
  why: string;
}

const NEST_PARTS: NestEnhancers = { guards: [ApiKeyGuard], pipes: [ValidationPipe], filters: [ProblemFilter], interceptors: [] };

const HOT_READ =
  "A/B of the four hot reads, Nest's route against this handler on one database and chain: API CPU per request 0.39–0.58× " +
  "Nest's (GET /rounds/current 291 vs 697 µs); in a profile of those reads Nest's route pipeline was 27 % of the busy time " +
  "and the validation pipe on the same few query strings 9.6 %.";

/** Every route served outside Nest's pipeline: the one place to add, remove or look one up. */
export const DIRECT_ROUTES: readonly DirectRoute[] = [
  {
    method: "POST",
    path: "/raffle/ticket/sign",
    controller: TicketSignController,
    handler: "sign",
    input: "body",
    runs: NEST_PARTS,
    why:
      "The hot write: in the sign profile Nest's pipeline cost about as much CPU as the signature itself, and the sign " +
      "target (API CPU per request within 5× the bare signing loop) is only met without it.",
  },
  { method: "GET", path: "/rounds/current", controller: RoundsController, handler: "current", input: "query", runs: NEST_PARTS, why: HOT_READ },
  { method: "GET", path: "/rounds", controller: RoundsController, handler: "list", input: "query", runs: NEST_PARTS, why: HOT_READ },
  {
    method: "GET",
    path: "/raffle/contracts",
    controller: RaffleContractsController,
    handler: "list",
    input: "query",
    runs: NEST_PARTS,
    why: HOT_READ,
  },
  { method: "GET", path: "/claims", controller: ClaimsController, handler: "list", input: "query", runs: NEST_PARTS, why: HOT_READ },
];

/** What a direct handler needs from the application: Nest's own enhancers, and the controllers' instances. */
export interface DirectRouteApp extends NestPipelineParts {
  controller<T>(type: Type<T>): T;
}

/** Distinct query strings whose validated query each read keeps (clients poll the same few; a crawler empties it). */
const KNOWN_QUERIES = 1_000;

type ControllerMethod = (caller: Caller, input: object) => Promise<unknown>;
type Handler = (request: FastifyRequest, reply: FastifyReply) => void;

/**
 * Swaps in the plain handler of each route of `routes` as Nest registers it (so call this before `init()`), and
 * refuses to start when one is never registered. `app` is read at the first such route, once Nest holds its enhancers.
 */
export function serveDirectRoutes(fastify: FastifyInstance, app: () => DirectRouteApp, routes: readonly DirectRoute[] = DIRECT_ROUTES): void {
  const served = new Set<DirectRoute>();
  fastify.addHook("onRoute", (options: RouteOptions) => {
    const route = routes.find((entry) => entry.method === options.method && entry.path === options.url);
    if (!route) return;
    options.handler = directHandler(route, app());
    served.add(route);
  });
  fastify.addHook("onReady", async () => {
    const missing = routes.filter((route) => !served.has(route));
    if (missing.length > 0) throw new Error(`direct routes Nest never registered: ${missing.map((r) => `${r.method} ${r.path}`).join(", ")}`);
  });
}

function directHandler(route: DirectRoute, app: DirectRouteApp): Handler {
  const { guard, pipe, filter } = assertRunsNestPipeline(route, app);
  const method = (route.controller.prototype as Record<string, ControllerMethod>)[route.handler];
  const access = guard.routeAccess(method, route.controller);
  if (access === "public") throw new Error(`the direct route ${route.method} ${route.path} expects a merchant's access, its controller says public`);
  // The input's class, as Nest reads it for @Body() or @Query(): the method's second parameter type.
  const [, metatype] = Reflect.getMetadata("design:paramtypes", route.controller.prototype, route.handler) as Array<Type<object>>;
  const metadata: ArgumentMetadata = { type: route.input, metatype, data: undefined };
  const controller = app.controller(route.controller);
  const inputOf = route.input === "body" ? bodyInput(pipe, metadata) : queryInput(pipe, metadata);

  async function answer(request: FastifyRequest): Promise<unknown> {
    const caller = await guard.authorize(request as AuthorizedRequest, access as MerchantAccess);
    return method.call(controller, caller, await inputOf(request));
  }

  // Not an async handler: the answer is sent from the promise's own callbacks, without the extra promise Fastify
  // would wrap around an async handler's result. A Buffer is a read's JSON, serialised once (json-body.ts).
  return (request, reply) => {
    answer(request).then(
      (body) => (Buffer.isBuffer(body) ? reply.code(200).header("content-type", JSON_CONTENT_TYPE).send(body) : reply.code(200).send(body)),
      (error: unknown) => filter.answer(error, request, reply),
    );
  };
}

/**
 * A body: the DTO's hand-written check first (FastAccepts), so a well-formed body is used as parsed and never reaches
 * class-validator; anything else goes through the pipe, which lists every bad field.
 */
function bodyInput(pipe: PipeTransform, metadata: ArgumentMetadata): (request: FastifyRequest) => Promise<object> {
  const accepts = fastAcceptOf(metadata.metatype) ?? (() => false);
  return async (request) => (accepts(request.body) ? (request.body as object) : ((await pipe.transform(request.body, metadata)) as object));
}

/**
 * A read's query: the pipe's result is kept per raw query string (the pipe is a pure function of it), so a client
 * polling the same query runs class-validator once; a query the pipe refuses is never kept.
 */
function queryInput(pipe: PipeTransform, metadata: ArgumentMetadata): (request: FastifyRequest) => Promise<object> {
  const known = new Map<string, object>();
  return async (request) => {
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
  };
}
