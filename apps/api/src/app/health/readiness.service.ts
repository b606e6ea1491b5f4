import { Inject, Injectable } from "@nestjs/common";
import { databaseUrlForLogs, urlOrigin } from "@raffle/config";
import { resetCommand } from "@raffle/indexer";
import type { DataSource } from "typeorm";

import type { ApiConfig } from "../../config/api-config";
import type { FieldError } from "../../common/problem";
import { IndexerRunner } from "../../services/indexer-runner.service";
import { RateLimiter } from "../../services/rate-limiter";
import { ServedChains, type ServedChain } from "../../services/served-chains";
import { API_CONFIG, DATA_SOURCE } from "../../services/tokens";
import type { ChainReadinessDto, ReadinessDto } from "./health.dto";
import { TtlCache } from "../../services/ttl-cache";
import { jsonLog } from "../../logging/logger";

/**
 * What public endpoints (/ready, /status) say of an indexer's failure: that it fails, not the error, whose text may
 * carry a node's or the database's host and port; the log line "indexer step failed" has it.
 */
export function publicIndexerError(lastError: string | null, chainId?: number, resetRequired = false): string | null {
  if (lastError === null) return null;
  if (resetRequired && chainId !== undefined) return indexResetMessage(chainId);
  return "the indexer's last step failed and is being retried: the API log has the error (indexer step failed)";
}

/** An index that no retry can fix, and the command that does (no host or error text: the public may read it). */
function indexResetMessage(chainId: number, detail = "a reorg below the undo window, or the chain's node was reset under the index"): string {
  return (
    `the index of chain ${chainId} no longer matches the chain (${detail}): it fails for good until it is reset with ` +
    `\`${resetCommand(chainId)}\` (compiled: \`node dist/apps/api/src/cli/indexer.js reset --chain ${chainId}\`)`
  );
}

/** How long /ready waits for the database or Redis before calling it down. */
const CHECK_TIMEOUT_MS = 2_000;

/**
 * How long one check answers every /ready: /ready is public, and without this each anonymous call would cost the
 * node two JSON-RPC calls and the database two queries. A load balancer polling every few seconds sees no difference.
 */
export const READY_CHECK_REUSE_MS = 1_000;

export interface Readiness {
  ready: boolean;
  /** Every dependency that does not hold, named (`database`, `redis`, `chain`, `deployment`, `signer`, `indexer`). */
  problems: FieldError[];
  report: ReadinessDto;
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

/**
 * Checks every dependency the endpoints need, at once, and says which do not hold and what to fix. The database and
 * Redis serve every chain: without them nothing is ready. A chain whose node is down or whose index lags only makes
 * the API `degraded`: its raffles cannot be signed, but every other chain's endpoints work, so a load balancer must
 * not take the replica out for it (`/ready?chainId=` asks about one chain alone).
 */
@Injectable()
export class ReadinessService {
  constructor(
    @Inject(API_CONFIG) private readonly config: ApiConfig,
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    private readonly chains: ServedChains,
    private readonly rateLimiter: RateLimiter,
    private readonly indexers: IndexerRunner,
  ) {}

  /** One check at a time per question, reused for READY_CHECK_REUSE_MS; the keys are the served chains and "all". */
  private readonly recent = new TtlCache<string, Readiness>(READY_CHECK_REUSE_MS);
  /** The last detailed error logged per dependency: each distinct one is logged once, never shown to callers. */
  private readonly logged = new Map<string, string>();

  /**
   * Readiness of the whole API, or of one served chain (`chainId`, validated by the caller), as checked at most
   * READY_CHECK_REUSE_MS ago. What it says is public: which dependency fails and which setting to check, never a
   * host, a port or a driver's error text (those go to the log).
   */
  check(chainId?: number): Promise<Readiness> {
    return this.recent.get(chainId === undefined ? "all" : String(chainId), () => this.checkNow(chainId));
  }

  private async checkNow(chainId?: number): Promise<Readiness> {
    const asked = chainId === undefined ? this.chains.all() : [this.chains.get(chainId)];
    const [databaseError, redisError, cursors, ...chainReports] = await Promise.all([
      answers(this.dataSource.query("SELECT 1")),
      this.rateLimiter.backend === "redis" ? answers(this.rateLimiter.ping()) : Promise.resolve(null),
      this.cursors(),
      ...asked.map((chain) => chain.monitor.probe()),
    ]);
    const problems: FieldError[] = [];
    this.logOnce("database", databaseError, { database: this.databaseTarget() });
    this.logOnce("redis", redisError, { redis: this.config.rateLimit.redisUrl ? urlOrigin(this.config.rateLimit.redisUrl) : undefined });
    if (databaseError !== null) {
      const target = this.config.databaseUrl ? "at DATABASE_URL" : "(the embedded PGlite database)";
      problems.push({ field: "database", message: `the database ${target} does not answer: check it and the API log` });
    }
    if (redisError !== null) problems.push({ field: "redis", message: "Redis at REDIS_URL does not answer: check it and the API log" });
    const chains = asked.map((chain, index) => this.chainReadiness(chain, chainReports[index], databaseError === null ? cursors : null));
    const readyChains = chains.filter((chain) => chain.status === "ready").length;
    const several = this.chains.ids.length > 1;
    const chainProblems = chains.flatMap((chain) =>
      chain.problems.map((problem) => (several ? { ...problem, message: `chain ${chain.chainId}: ${problem.message}` } : problem)),
    );
    const ready = problems.length === 0 && readyChains > 0;
    return {
      ready,
      // A 503 lists what is wrong with the process and with every chain; a degraded 200 shows the chains' own lists.
      problems: ready ? [] : [...problems, ...chainProblems],
      report: {
        status: readyChains === chains.length ? "ready" : "degraded",
        database: databaseError === null ? "up" : "down",
        redis: this.rateLimiter.backend === "redis" ? (redisError === null ? "up" : "down") : "notConfigured",
        chains,
      },
    };
  }

  private chainReadiness(
    chain: ServedChain,
    probe: { head: number | null; problems: FieldError[] },
    cursors: Map<number, number> | null,
  ): ChainReadinessDto {
    const problems = [...probe.problems];
    const cursor = cursors?.get(chain.chainId) ?? null;
    const lag = probe.head !== null && cursor !== null ? Math.max(0, probe.head - chain.config.confirmations - cursor) : null;
    const indexer = this.indexers.status(chain.chainId);
    if (indexer?.resetRequired) problems.push({ field: "indexer", message: indexResetMessage(chain.chainId) });
    if (cursors !== null && probe.head !== null) {
      if (cursor === null) problems.push({ field: "indexer", message: "the chain is not indexed yet" });
      else if (cursor > probe.head && !indexer?.resetRequired) {
        // The index holds blocks the chain does not have: the node restarted from genesis (or the URL leads elsewhere).
        // Every replica sees this, the leader's retries do not end it: it fails for good.
        problems.push({
          field: "indexer",
          message: indexResetMessage(chain.chainId, `its cursor, block ${cursor}, is above the chain's head, block ${probe.head}`),
        });
      } else if (lag! > this.config.readyMaxLagBlocks) {
        problems.push({
          field: "indexer",
          message: `the index is ${lag} blocks behind the chain (READY_MAX_LAG_BLOCKS is ${this.config.readyMaxLagBlocks})`,
        });
      }
    }
    return {
      chainId: chain.chainId,
      status: problems.length === 0 ? "ready" : "notReady",
      head: probe.head,
      cursor,
      lag,
      leader: indexer?.leader ?? false,
      lastError: publicIndexerError(indexer?.lastError ?? null, chain.chainId, indexer?.resetRequired),
      signer: { address: chain.monitor.signerAddress, status: chain.monitor.signerStatus() },
      problems,
    };
  }

  private logOnce(dependency: string, error: string | null, fields: Record<string, unknown>): void {
    if (error === null) {
      this.logged.delete(dependency);
      return;
    }
    if (this.logged.get(dependency) === error) return;
    this.logged.set(dependency, error);
    jsonLog("warn", `readiness: ${dependency} does not answer`, { component: "ready", ...fields, error });
  }

  private databaseTarget(): string {
    return this.config.databaseUrl ? `DATABASE_URL ${databaseUrlForLogs(this.config.databaseUrl)}` : "the embedded PGlite database";
  }

  /** The stored cursor of every served chain: right for leaders and followers alike. Null when unreadable. */
  private async cursors(): Promise<Map<number, number> | null> {
    try {
      const rows: Array<{ chain_id: number; block_number: string }> = await this.dataSource.query(
        `SELECT chain_id, block_number FROM indexer_cursor WHERE chain_id = ANY($1::int[])`,
        [this.chains.ids],
      );
      return new Map(rows.map((row) => [Number(row.chain_id), Number(row.block_number)]));
    } catch {
      return null;
    }
  }
}
