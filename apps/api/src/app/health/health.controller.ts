import { Controller, Get, Query } from "@nestjs/common";
import { ApiOkResponse, ApiOperation, ApiTags } from "@nestjs/swagger";

import { AnswersProblems, PUBLIC_ROUTE_PROBLEMS, QUERY_PROBLEMS } from "../../common/dto/problem.dto";
import { problems } from "../../common/problem";
import { Public } from "../auth/public.decorator";
import { HealthDto, ReadinessDto, ReadinessQuery } from "./health.dto";
import { ReadinessService } from "./readiness.service";

@ApiTags("health")
@Public()
@Controller()
export class HealthController {
  constructor(private readonly readiness: ReadinessService) {}

  @Get("health")
  @ApiOperation({ operationId: "getHealth", summary: "Liveness: the process answers." })
  @ApiOkResponse({ type: HealthDto, description: "The process is alive." })
  @AnswersProblems(...PUBLIC_ROUTE_PROBLEMS)
  health(): HealthDto {
    return { status: "ok" };
  }

  @Get("ready")
  @ApiOperation({
    operationId: "getReadiness",
    summary: "Readiness: the API can serve, and how each chain it serves is doing.",
    description:
      "200 while the database and Redis (when configured) answer and at least one served chain is ready: its node answers and serves that " +
      "chain, the deployment's contracts have code, the voucher key holds SIGNER_ROLE, and the index is within READY_MAX_LAG_BLOCKS of the " +
      "head. A chain that is not ready makes the answer `degraded`, not 503, so one chain's outage does not take the others' endpoints " +
      "down. With `chainId`, only that chain counts.",
  })
  @ApiOkResponse({ type: ReadinessDto, description: "The API can serve; `chains` shows each chain." })
  @AnswersProblems(...PUBLIC_ROUTE_PROBLEMS, ...QUERY_PROBLEMS, "chainNotServed", "notReady")
  async ready(@Query() query: ReadinessQuery): Promise<ReadinessDto> {
    const { ready, problems: failing, report } = await this.readiness.check(query.chainId);
    if (!ready) throw problems.notReady(failing);
    return report;
  }
}
