import { Controller, Get } from "@nestjs/common";
import { ApiOkResponse, ApiOperation, ApiTags } from "@nestjs/swagger";

import { ApiProblem } from "../../common/problem";
import { ApiProblemResponses } from "../../common/dto/problem.dto";
import { Public } from "../auth/public.decorator";
import { ReadinessService } from "./readiness.service";

@ApiTags("health")
@Public()
@Controller()
export class HealthController {
  constructor(private readonly readiness: ReadinessService) {}

  @Get("health")
  @ApiOperation({ summary: "Liveness: the process answers." })
  @ApiOkResponse({ schema: { example: { status: "ok" } } })
  health(): { status: string } {
    return { status: "ok" };
  }

  @Get("ready")
  @ApiOperation({
    summary:
      "Readiness: every dependency the endpoints need holds — the database and Redis (when configured) answer, the node at RPC_URL answers " +
      "and serves CHAIN_ID, the deployment's contracts have code, the voucher key holds SIGNER_ROLE, and the index is within READY_MAX_LAG_BLOCKS of the head.",
  })
  @ApiOkResponse({
    schema: {
      example: {
        status: "ready",
        database: "up",
        redis: "notConfigured",
        chain: { chainId: 31337, head: 42 },
        signer: { address: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", status: "authorized" },
        indexer: { lag: 0, leader: true },
      },
    },
  })
  @ApiProblemResponses({
    503: "`notReady`: `errors` lists each dependency that does not hold (`database`, `redis`, `chain`, `deployment`, `signer`, `indexer`) and what to fix; retry after `Retry-After`.",
  })
  async ready(): Promise<Record<string, unknown>> {
    const { ready, problems, report } = await this.readiness.check();
    if (!ready) {
      throw new ApiProblem(503, "notReady", `Not ready: ${problems.map((problem) => problem.message).join("; ")}.`, problems, { "Retry-After": "1" });
    }
    return report;
  }
}
