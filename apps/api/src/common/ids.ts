import { applyDecorators, type PipeTransform } from "@nestjs/common";
import { ApiPropertyOptional } from "@nestjs/swagger";
import { IsInt, Max, Min } from "class-validator";

import type { ApiProblem } from "./problem";
import { IsOmittable, ToInteger } from "./validators";

/** Ids and chain ids are stored as PostgreSQL `integer`: a larger value must be refused as input, not fail in a query. */
export const MAX_STORED_INTEGER = 2_147_483_647;

/**
 * An optional `chainId` field: a positive integer that fits the database. `fromQuery` converts the query string's
 * text to a number first; a JSON body's value must already be one.
 */
export function OptionalChainId(description: string, options: { fromQuery: boolean }): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ description, example: 31337, minimum: 1, maximum: MAX_STORED_INTEGER }),
    IsOmittable(),
    ...(options.fromQuery ? [ToInteger()] : []),
    IsInt(),
    Min(1),
    Max(MAX_STORED_INTEGER),
  );
}

/** A `:id` path parameter: a positive integer that fits the database; anything else is the resource's own 404. */
export function idParam(notFound: () => ApiProblem): PipeTransform<string, number> {
  return {
    transform: (value) => {
      const id = typeof value === "string" && /^[1-9]\d{0,9}$/.test(value) ? Number(value) : 0;
      if (id > MAX_STORED_INTEGER || id < 1) throw notFound();
      return id;
    },
  };
}
