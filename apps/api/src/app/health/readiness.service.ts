import { Inject, Injectable } from "@nestjs/common";
import { databaseUrlForLogs, urlOrigin } from "@raffle/config";
import type { DataSource } from "typeorm";

import type { ApiConfig } from "../../config/api-config";
import type { FieldError } from "../../common/problem";
import { ChainMonitor } from "../../services/chain-monitor";
import { IndexerRunner } from "../../services/indexer-runner.service";
import { RateLimiter } from "../../services/rate-limiter";
import { API_CONFIG, DATA_SOURCE } from "../../services/tokens";

/** How long /ready waits for the database or Redis before calling it down. */
const CHECK_TIMEOUT_MS = 2_000;

export interface Readiness {
  ready: boolean;
  /** Every dependency that does not hold, named (`database`, `redis`, `chain`, `deployment`, `signer`, `indexer`). */
  problems: FieldError[];
  report: Record<string, unknown>;
}

async function answers(check: Promise<unknown>): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check,
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
      }),
    ]);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    clearTimeout(timer);
  }
}

/** Checks every dependency the endpoints need, at once, and says which do not hold and what to fix. */
@Injectable()
export class ReadinessService {
  constructor(
    @Inject(API_CONFIG) private readonly config: ApiConfig,
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    private readonly chain: ChainMonitor,
    private readonly rateLimiter: RateLimiter,
    private readonly indexer: IndexerRunner,
  ) {}

  async check(): Promise<Readiness> {
    const [databaseError, redisError, chain, cursor] = await Promise.all([
      answers(this.dataSource.query("SELECT 1")),
      this.rateLimiter.backend === "redis" ? answers(this.rateLimiter.ping()) : Promise.resolve(null),
      this.chain.probe(),
      this.cursor(),
    ]);
    const problems: FieldError[] = [];
    if (databaseError !== null)
      problems.push({ field: "database", message: `the database (${this.databaseTarget()}) does not answer: ${databaseError}` });
    if (redisError !== null) {
      problems.push({ field: "redis", message: `Redis at REDIS_URL (${urlOrigin(this.config.rateLimit.redisUrl!)}) does not answer: ${redisError}` });
    }
    problems.push(...chain.problems);
    const lag = chain.head !== null && cursor !== null ? Math.max(0, chain.head - this.config.indexer.confirmations - cursor) : null;
    if (databaseError === null && chain.head !== null) {
      if (cursor === null) problems.push({ field: "indexer", message: "the chain is not indexed yet" });
      else if (lag! > this.config.readyMaxLagBlocks) {
        problems.push({
          field: "indexer",
          message: `the index is ${lag} blocks behind the chain (READY_MAX_LAG_BLOCKS is ${this.config.readyMaxLagBlocks})`,
        });
      }
    }
    return {
      ready: problems.length === 0,
      problems,
      report: {
        status: problems.length === 0 ? "ready" : "notReady",
        database: databaseError === null ? "up" : "down",
        redis: this.rateLimiter.backend === "redis" ? (redisError === null ? "up" : "down") : "notConfigured",
        chain: { chainId: this.config.deployment.chainId, head: chain.head },
        signer: { address: this.chain.signerAddress, status: this.chain.signerStatus() },
        indexer: { lag, leader: this.indexer.status()?.leader ?? false },
      },
    };
  }

  private databaseTarget(): string {
    return this.config.databaseUrl ? `DATABASE_URL ${databaseUrlForLogs(this.config.databaseUrl)}` : "the embedded PGlite database";
  }

  /** The stored cursor: right for leaders and followers alike. Null when missing or unreadable. */
  private async cursor(): Promise<number | null> {
    try {
      const [row] = await this.dataSource.query(`SELECT block_number FROM indexer_cursor WHERE chain_id = $1`, [this.config.deployment.chainId]);
      return row ? Number(row.block_number) : null;
    } catch {
      return null;
    }
  }
}
