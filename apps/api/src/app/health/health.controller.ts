import { Controller, Get } from "@nestjs/common";
import { ApiOkResponse, ApiOperation, ApiTags } from "@nestjs/swagger";

import { AnswersProblems, PUBLIC_ROUTE_PROBLEMS } from "../../common/dto/problem.dto";
import { problems } from "../../common/problem";
import { Public } from "../auth/public.decorator";
import { HealthDto, ReadinessDto } from "./health.dto";
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
    summary: "Readiness: every dependency the endpoints need holds.",
    description:
      "The database and Redis (when configured) answer, the node at RPC_URL answers and serves CHAIN_ID, the deployment's contracts have code, " +
      "the voucher key holds SIGNER_ROLE, and the index is within READY_MAX_LAG_BLOCKS of the head.",
  })
  @ApiOkResponse({ type: ReadinessDto, description: "Every dependency holds." })
  @AnswersProblems(...PUBLIC_ROUTE_PROBLEMS, "notReady")
  async ready(): Promise<ReadinessDto> {
    const { ready, problems: failing, report } = await this.readiness.check();
    if (!ready) throw problems.notReady(failing);
    return report as unknown as ReadinessDto;
  }
}
