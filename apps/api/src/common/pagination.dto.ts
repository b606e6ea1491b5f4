import { ApiPropertyOptional } from "@nestjs/swagger";
import { IsInt, IsOptional, Max, Min } from "class-validator";

import { ToInteger } from "./validators";

export const DEFAULT_TAKE = 25;
export const MAX_TAKE = 100;

/** `skip` >= 0 (default 0) and `take` 1..100 (default 25); out of range is a 400, never an unbounded query. */
export class PaginationQuery {
  @ApiPropertyOptional({ example: 0, description: "Records to skip.", minimum: 0, default: 0 })
  @IsOptional()
  @ToInteger()
  @IsInt()
  @Min(0)
  skip: number = 0;

  @ApiPropertyOptional({ example: 25, description: "Records to return.", minimum: 1, maximum: MAX_TAKE, default: DEFAULT_TAKE })
  @IsOptional()
  @ToInteger()
  @IsInt()
  @Min(1)
  @Max(MAX_TAKE)
  take: number = DEFAULT_TAKE;
}
