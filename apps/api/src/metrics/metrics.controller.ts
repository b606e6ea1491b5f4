import { Controller, Get, Header, Req } from "@nestjs/common";
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from "@nestjs/swagger";
import type { FastifyRequest } from "fastify";

import { AnswersProblems, PUBLIC_ROUTE_PROBLEMS } from "../common/dto/problem.dto";
import { problems } from "../common/problem";
import { Public } from "../app/auth/public.decorator";
import { IndexerRunner } from "../services/indexer-runner.service";
import { ServedChains } from "../services/served-chains";
import { ApiMetrics } from "./api-metrics";
import { StatusDto } from "./status.dto";
import { publicIndexerError } from "../app/health/readiness.service";

/** The Prometheus text exposition format's media type (what prom-client writes). */
export const PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

/** Operator endpoints: Prometheus metrics and the indexers' status. No API key, like /health and /ready. */
@ApiTags("health")
@Public()
@Controller()
export class MetricsController {
  constructor(
    private readonly metrics: ApiMetrics,
    private readonly chains: ServedChains,
    private readonly indexers: IndexerRunner,
  ) {}

  @Get("metrics")
  @Header("Content-Type", PROMETHEUS_CONTENT_TYPE)
  @ApiProduces(PROMETHEUS_CONTENT_TYPE)
  @ApiOperation({
    operationId: "getMetrics",
    summary: "Prometheus metrics of this process, in the text exposition format.",
    description:
      "Request latency by route template and status, vouchers signed, 429 and 503 answers, RPC and database errors, and per chain the " +
      "indexer's head, indexed block, lag in blocks and seconds, events indexed, reorgs and their depth. The README's operations section " +
      "lists every metric and the alerts to set on them. 404 notFound when METRICS_ENABLED=false.",
  })
  @ApiOkResponse({
    description: "Every metric, in the Prometheus text exposition format (version 0.0.4).",
    content: {
      [PROMETHEUS_CONTENT_TYPE]: {
        schema: { type: "string" },
        example:
          '# HELP raffle_api_vouchers_signed_total Purchase vouchers signed, by chain.\n# TYPE raffle_api_vouchers_signed_total counter\nraffle_api_vouchers_signed_total{chainId="31337"} 42\n',
      },
    },
  })
  @AnswersProblems(...PUBLIC_ROUTE_PROBLEMS, "notFound")
  async exposition(@Req() request: FastifyRequest): Promise<string> {
    if (!this.metrics.enabled) throw problems.notFound(request.method, request.url.split("?")[0]);
    return this.metrics.exposition();
  }

  @Get("status")
  @ApiOperation({
    operationId: "getStatus",
    summary: "The indexer of every served chain: cursor, head, lag, last error and leadership.",
    description: "What this process's indexers know, without a database or node query: cheap enough to poll. /ready says whether the API can serve.",
  })
  @ApiOkResponse({ type: StatusDto, description: "Every served chain's indexer, as this process sees it." })
  @AnswersProblems(...PUBLIC_ROUTE_PROBLEMS)
  status(): StatusDto {
    return {
      chains: this.chains.ids.map((chainId) => {
        const status = this.indexers.status(chainId);
        return {
          chainId,
          running: status !== null,
          leader: status?.leader ?? false,
          cursor: status?.cursor ?? null,
          head: status?.head ?? null,
          lagBlocks: status?.lag ?? null,
          lagSeconds: status?.lagSeconds ?? null,
          lastBatchAt: status?.lastBatchAt ?? null,
          lastError: publicIndexerError(status?.lastError ?? null, chainId, status?.resetRequired),
          eventsIndexed: status?.eventsIndexed ?? 0,
          reorgs: status?.reorgs ?? 0,
          failedSteps: status?.failedSteps ?? 0,
        };
      }),
    };
  }
}
