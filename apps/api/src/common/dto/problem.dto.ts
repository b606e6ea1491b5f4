import { applyDecorators } from "@nestjs/common";
import { ApiExtraModels, ApiProperty, ApiPropertyOptional, ApiResponse, getSchemaPath } from "@nestjs/swagger";

import { exampleProblem, problemBody } from "../problem";
import { PROBLEM_CATALOGUE, PROBLEM_CODES, type ProblemCode } from "../problem-catalogue";
import { problemTypeUri } from "../problem-docs";

export class FieldErrorDto {
  @ApiProperty({ description: "The bad field, as named in the request (`account`, `take`, ...).", example: "take" })
  field!: string;

  @ApiProperty({ description: "What is wrong with it.", example: "take must not be greater than 100" })
  message!: string;
}

/** The body of every error (RFC 9457 problem details), as rendered by ProblemFilter. */
export class ProblemDto {
  @ApiProperty({
    description: "Problem type URI: the code's entry in the problem reference (what it means, what to do). Branch on `code`, not on this.",
    example: problemTypeUri("roundNotFound"),
  })
  type!: string;

  @ApiProperty({ description: "The HTTP status phrase.", example: "not found" })
  title!: string;

  @ApiProperty({ description: "HTTP status code (RFC 9457 member).", example: 404 })
  status!: number;

  @ApiProperty({ description: "HTTP status code again, under the platform's own name.", example: 404 })
  statusCode!: number;

  @ApiProperty({ enum: PROBLEM_CODES, enumName: "ProblemCode", description: "Stable camelCase error code to branch on.", example: "roundNotFound" })
  code!: ProblemCode;

  @ApiProperty({ description: "Human-readable explanation; do not parse it.", example: "Raffle contract 3 has no active round." })
  detail!: string;

  @ApiProperty({ description: "The request path.", example: "/rounds/current" })
  instance!: string;

  @ApiPropertyOptional({
    type: [FieldErrorDto],
    description: "For `validationFailed`: each bad field of the request. For `notReady` (`/ready`): each dependency that does not hold.",
  })
  errors?: FieldErrorDto[];
}

/** Stands for the route's own path in problem examples; the document builder writes the real one in. */
export const EXAMPLE_INSTANCE = "{instance}";

const HEADER_DOCS: Record<string, { description: string; schema: { type: string } }> = {
  "Retry-After": { description: "Seconds to wait before retrying.", schema: { type: "integer" } },
  "WWW-Authenticate": { description: "The scheme to authenticate with: `Bearer`.", schema: { type: "string" } },
};

/** Every route: an unexpected failure is possible anywhere. */
const ANY_ROUTE: ProblemCode[] = ["internalError"];
/** Routes behind the merchant API key, which is looked up in the database. */
export const AUTHENTICATED_PROBLEMS: ProblemCode[] = [...ANY_ROUTE, "unauthorized", "serviceUnavailable"];
/** Routes that validate their query string. */
export const QUERY_PROBLEMS: ProblemCode[] = ["validationFailed"];
/**
 * Routes of a method that may carry a body (POST, DELETE): Fastify reads any body sent (see json-body.ts), even where
 * the route expects none, and refuses what is not small UTF-8 JSON.
 */
export const BODY_PARSING_PROBLEMS: ProblemCode[] = ["invalidJson", "badRequest", "payloadTooLarge", "unsupportedMediaType"];
/** Routes that read and validate a JSON body. */
export const JSON_BODY_PROBLEMS: ProblemCode[] = ["validationFailed", ...BODY_PARSING_PROBLEMS];
/** Routes with an id in the path, which the router must decode. */
export const PATH_ID_PROBLEMS: ProblemCode[] = ["badRequest"];
/** Public routes (no API key). */
export const PUBLIC_ROUTE_PROBLEMS: ProblemCode[] = ANY_ROUTE;

/**
 * Documents every error answer a route can give, from the problem catalogue: per status, the codes as an enum, what
 * each means, one example per code, and the headers they carry.
 */
export function AnswersProblems(...codes: ProblemCode[]): MethodDecorator {
  const byStatus = new Map<number, ProblemCode[]>();
  for (const code of new Set(codes)) {
    const status = PROBLEM_CATALOGUE[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return applyDecorators(
    ApiExtraModels(ProblemDto, FieldErrorDto),
    ...[...byStatus].map(([status, statusCodes]) => {
      const headerNames = new Set(statusCodes.flatMap((code) => Object.keys(exampleProblem(code).headers)));
      return ApiResponse({
        status,
        description: statusCodes.map((code) => `\`${code}\`: ${PROBLEM_CATALOGUE[code].description}.`).join(" "),
        ...(headerNames.size > 0 ? { headers: Object.fromEntries([...headerNames].map((name) => [name, HEADER_DOCS[name]])) } : {}),
        content: {
          "application/problem+json": {
            schema: {
              allOf: [
                { $ref: getSchemaPath(ProblemDto) },
                {
                  type: "object",
                  required: ["code", "status", "statusCode"],
                  properties: {
                    code: { type: "string", enum: statusCodes },
                    status: { type: "integer", enum: [status] },
                    statusCode: { type: "integer", enum: [status] },
                  },
                },
              ],
            },
            examples: Object.fromEntries(
              statusCodes.map((code) => [
                code,
                { summary: PROBLEM_CATALOGUE[code].description, value: problemBody(exampleProblem(code), EXAMPLE_INSTANCE) },
              ]),
            ),
          },
        },
      });
    }),
  ) as MethodDecorator;
}
