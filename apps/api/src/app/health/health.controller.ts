import { Controller, Get, Inject } from "@nestjs/common";
import { ApiOkResponse, ApiOperation, ApiTags } from "@nestjs/swagger";
import type { JsonRpcProvider } from "ethers";
import type { DataSource } from "typeorm";

import type { ApiConfig } from "../../config/api-config";
import { ApiProblem } from "../../common/problem";
import { ApiProblemResponses } from "../../common/dto/problem.dto";
import { IndexerRunner } from "../../services/indexer-runner.service";
import { API_CONFIG, CHAIN_PROVIDER, DATA_SOURCE } from "../../services/tokens";
import { Public } from "../auth/public.decorator";

@ApiTags("health")
@Public()
@Controller()
export class HealthController {
  constructor(
    @Inject(API_CONFIG) private readonly config: ApiConfig,
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(CHAIN_PROVIDER) private readonly provider: JsonRpcProvider,
    private readonly indexer: IndexerRunner,
  ) {}

  @Get("health")
  @ApiOperation({ summary: "Liveness: the process answers." })
  @ApiOkResponse({ schema: { example: { status: "ok" } } })
  health(): { status: string } {
    return { status: "ok" };
  }

  @Get("ready")
  @ApiOperation({ summary: "Readiness: the database answers and the indexed chain is within READY_MAX_LAG_BLOCKS of the head." })
  @ApiOkResponse({ schema: { example: { status: "ready", database: "up", indexer: { lag: 0, leader: true } } } })
  @ApiProblemResponses({ 503: "`notReady`: the database is unreachable or the index lags; retry after `Retry-After`." })
  async ready(): Promise<Record<string, unknown>> {
    try {
      await this.dataSource.query("SELECT 1");
    } catch {
      throw new ApiProblem(503, "notReady", "The database is unreachable.", undefined, { "Retry-After": "1" });
    }
    const lag = await this.indexedLag();
    if (lag === null || lag > this.config.readyMaxLagBlocks) {
      throw new ApiProblem(503, "notReady", `The index is ${lag ?? "unknown"} blocks behind the chain.`, undefined, { "Retry-After": "1" });
    }
    return { status: "ready", database: "up", indexer: { lag, leader: this.indexer.status()?.leader ?? false } };
  }

  /** Blocks between the confirmed head and the stored cursor: right for leaders and followers alike. */
  private async indexedLag(): Promise<number | null> {
    try {
      const [cursor] = await this.dataSource.query(`SELECT block_number FROM indexer_cursor WHERE chain_id = $1`, [
        this.config.deployment.chainId,
      ]);
      if (!cursor) return null;
      const head = await this.provider.getBlockNumber();
      return Math.max(0, head - this.config.indexer.confirmations - Number(cursor.block_number));
    } catch {
      return null;
    }
  }
}
