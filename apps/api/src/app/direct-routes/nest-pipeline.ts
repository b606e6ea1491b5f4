import type { CanActivate, ExceptionFilter, NestInterceptor, PipeTransform, Type } from "@nestjs/common";
import { EXCEPTION_FILTERS_METADATA, GUARDS_METADATA, INTERCEPTORS_METADATA, PIPES_METADATA, ROUTE_ARGS_METADATA } from "@nestjs/common/constants";
import type { ApplicationConfig } from "@nestjs/core";

import { ProblemFilter } from "../../common/problem.filter";
import { ApiKeyGuard } from "../auth/api-key.guard";

/** Classes of Nest enhancers, by kind: a registered enhancer is covered by a class it is an instance of. */
export interface NestEnhancers {
  guards: Array<Type<CanActivate>>;
  pipes: Array<Type<PipeTransform>>;
  filters: Array<Type<ExceptionFilter>>;
  interceptors: Array<Type<NestInterceptor>>;
}

/** The application's enhancer registry, where `useGlobal*()` and the `APP_*` providers put what every route runs. */
export interface NestPipelineParts {
  config: ApplicationConfig;
}

/** What a route says it runs, for the check. */
interface CheckedRoute {
  method: string;
  path: string;
  controller: Type<object>;
  handler: string;
  runs: NestEnhancers;
}

/** A route served outside Nest would skip a part of Nest's pipeline: the application refuses to start. */
export class DirectRouteSkipsNestPart extends Error {
  override readonly name = "DirectRouteSkipsNestPart";
}

/** The instances a direct handler runs: Nest's own, so a guard's cache or a filter's metrics are the ones Nest uses. */
export interface NestPipeline {
  guard: ApiKeyGuard;
  pipe: PipeTransform;
  filter: ProblemFilter;
}

const KINDS = ["guards", "pipes", "filters", "interceptors"] as const;

/** Every global enhancer Nest holds, by kind, request-scoped ones by their class. */
function globalEnhancers(config: ApplicationConfig): Record<(typeof KINDS)[number], object[]> {
  const scoped = (wrappers: Array<{ metatype: unknown }>) => wrappers.map((wrapper) => ({ scopedClass: wrapper.metatype }));
  return {
    guards: [...config.getGlobalGuards(), ...scoped(config.getGlobalRequestGuards())],
    pipes: [...config.getGlobalPipes(), ...scoped(config.getGlobalRequestPipes())],
    filters: [...config.getGlobalFilters(), ...scoped(config.getGlobalRequestFilters())],
    interceptors: [...config.getGlobalInterceptors(), ...scoped(config.getGlobalRequestInterceptors())],
  };
}

function nameOf(enhancer: object): string {
  const scopedClass = (enhancer as { scopedClass?: { name?: string } }).scopedClass;
  return scopedClass ? `${scopedClass.name ?? "anonymous"} (request-scoped)` : enhancer.constructor.name || "anonymous";
}

/**
 * Checks at start-up that `route`, served by a plain handler, runs everything Nest would run for it: each global
 * guard, pipe, filter and interceptor Nest holds is one the route's table entry runs, and neither its controller nor
 * its method carries enhancers of its own (Nest would run those too, the plain handler does not). Returns Nest's own
 * instances of the parts the handler calls. Throws DirectRouteSkipsNestPart, naming the part, otherwise.
 */
export function assertRunsNestPipeline(route: CheckedRoute, { config }: NestPipelineParts): NestPipeline {
  const where = `${route.method} ${route.path} is served outside Nest's pipeline (DIRECT_ROUTES, direct-routes.ts)`;
  const registered = globalEnhancers(config);
  for (const kind of KINDS) {
    for (const enhancer of registered[kind]) {
      const type = (enhancer as { scopedClass?: Type<object> }).scopedClass;
      const covered = route.runs[kind].some((runs) => (type ? type === runs || type.prototype instanceof runs : enhancer instanceof runs));
      if (!covered) {
        throw new DirectRouteSkipsNestPart(
          `${where}, which does not run the global ${kind.slice(0, -1)} ${nameOf(enhancer)}: run it in that handler and list it in the route's entry, or serve the route through Nest`,
        );
      }
    }
  }
  const method = (route.controller.prototype as Record<string, object>)[route.handler];
  for (const key of [GUARDS_METADATA, PIPES_METADATA, INTERCEPTORS_METADATA, EXCEPTION_FILTERS_METADATA]) {
    const own = [...((Reflect.getMetadata(key, route.controller) as unknown[]) ?? []), ...((Reflect.getMetadata(key, method) as unknown[]) ?? [])];
    if (own.length > 0)
      throw new DirectRouteSkipsNestPart(`${where}, and ${route.controller.name}.${route.handler} has enhancers of its own (${key})`);
  }
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, route.controller, route.handler) ?? {}) as Record<string, { pipes?: unknown[] }>;
  if (Object.values(args).some((arg) => (arg.pipes ?? []).length > 0)) {
    throw new DirectRouteSkipsNestPart(`${where}, and a parameter of ${route.controller.name}.${route.handler} has pipes of its own`);
  }
  return {
    guard: one(registered.guards, ApiKeyGuard, where),
    pipe: one(registered.pipes, route.runs.pipes[0], where),
    filter: one(registered.filters, ProblemFilter, where),
  };
}

/** Nest's one instance of `type` among `enhancers`: the handler runs it, so it must be registered. */
function one<T>(enhancers: object[], type: Type<T> | undefined, where: string): T {
  const found = type && enhancers.find((enhancer) => enhancer instanceof type);
  if (!found) throw new DirectRouteSkipsNestPart(`${where}, and runs ${type?.name ?? "a pipe"}, which Nest does not hold as a global enhancer`);
  return found as T;
}
