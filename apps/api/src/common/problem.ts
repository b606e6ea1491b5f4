import { HttpException, HttpStatus } from "@nestjs/common";

import { PROBLEM_CATALOGUE, type FieldError, type ProblemArgs, type ProblemCode } from "./problem-catalogue";
import { problemTypeUri } from "./problem-docs";

export type { FieldError, ProblemCode } from "./problem-catalogue";

/**
 * An error the API answers with, as RFC 9457 problem details plus a stable camelCase `code`. Made only by `problems`
 * (from the catalogue); throw it anywhere, and the problem filter renders it as `application/problem+json`.
 */
export class ApiProblem extends HttpException {
  constructor(
    readonly statusCode: number,
    readonly code: ProblemCode,
    readonly detail: string,
    readonly errors?: FieldError[],
    readonly headers: Record<string, string> = {},
    readonly extensions: Record<string, string> = {},
  ) {
    super(detail, statusCode);
  }
}

function problemOf<Code extends ProblemCode>(code: Code, ...args: ProblemArgs<Code>): ApiProblem {
  const definition = PROBLEM_CATALOGUE[code];
  const content = (definition.content as (...values: ProblemArgs<Code>) => ReturnType<typeof definition.content>)(...args);
  return new ApiProblem(definition.status, code, content.detail, content.errors, content.headers, content.extensions);
}

type ProblemFactories = { [Code in ProblemCode]: (...args: ProblemArgs<Code>) => ApiProblem };

/** `problems.roundNotFound(3)`: one factory per catalogue code. */
export const problems = Object.fromEntries(
  (Object.keys(PROBLEM_CATALOGUE) as ProblemCode[]).map((code) => [code, (...args: never[]) => problemOf(code, ...(args as never))]),
) as ProblemFactories;

/** The catalogue's example problem of `code`, as the OpenAPI document shows it. */
export function exampleProblem(code: ProblemCode): ApiProblem {
  return problemOf(code, ...(PROBLEM_CATALOGUE[code].example as never));
}

/** The RFC 9457 body of `problem` answered to a request for `path`: what the filter sends and the document shows. */
export function problemBody(problem: ApiProblem, path: string): Record<string, unknown> {
  return {
    type: problemTypeUri(problem.code),
    title: HttpStatus[problem.statusCode]?.replace(/_/g, " ").toLowerCase() ?? "error",
    status: problem.statusCode,
    statusCode: problem.statusCode,
    code: problem.code,
    detail: problem.detail,
    instance: path,
    ...(problem.errors ? { errors: problem.errors } : {}),
    ...problem.extensions,
  };
}
