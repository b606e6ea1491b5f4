import { applyDecorators } from "@nestjs/common";
import { ApiExtraModels, ApiProperty, ApiPropertyOptional, ApiResponse, getSchemaPath } from "@nestjs/swagger";

export class FieldErrorDto {
  @ApiProperty({ description: "The bad field, as named in the request (`account`, `take`, ...).", example: "take" })
  field!: string;

  @ApiProperty({ description: "What is wrong with it.", example: "take must not be greater than 100" })
  message!: string;
}

/** The body of every error (RFC 9457 problem details), as rendered by ProblemFilter. */
export class ProblemDto {
  @ApiProperty({ description: "Problem type URI; `about:blank`, the `code` says what happened.", example: "about:blank" })
  type!: string;

  @ApiProperty({ description: "The HTTP status phrase.", example: "not found" })
  title!: string;

  @ApiProperty({ description: "HTTP status code (RFC 9457 member).", example: 404 })
  status!: number;

  @ApiProperty({ description: "HTTP status code again, under the platform's own name.", example: 404 })
  statusCode!: number;

  @ApiProperty({ description: "Stable camelCase error code to branch on (`validationFailed`, `roundNotFound`, ...).", example: "roundNotFound" })
  code!: string;

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

/** Documents error answers (application/problem+json) by status, with the codes each status can carry. */
export function ApiProblemResponses(responses: Record<number, string>): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiExtraModels(ProblemDto, FieldErrorDto),
    ...Object.entries(responses).map(([status, description]) =>
      ApiResponse({
        status: Number(status),
        description,
        content: { "application/problem+json": { schema: { $ref: getSchemaPath(ProblemDto) } } },
      }),
    ),
  );
}

/** The errors every authenticated endpoint can answer. */
export const COMMON_PROBLEMS = {
  400: "`validationFailed` (with `errors`), `invalidJson`.",
  401: "`unauthorized`: no valid `Authorization: Bearer <merchant API key>`.",
};
