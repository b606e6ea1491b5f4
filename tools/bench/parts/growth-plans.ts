/**
 * The queries behind the four hot reads and the sign path, as the API's services send them (TypeORM's aliases and
 * column lists left out; the WHERE, ORDER BY and LIMIT are theirs), and their plans on the grown database.
 */
import type { Client } from "pg";

import { RAFFLES_PER_MERCHANT } from "./growth-fill";

interface HotQuery {
  name: string;
  sql: string;
  params: unknown[];
}

export interface QueryPlan {
  name: string;
  sql: string;
  params: unknown[];
  /** The plan's lines, EXPLAIN (ANALYZE, BUFFERS) in text. */
  plan: string[];
  executionMs: number;
  /** No sequential scan anywhere in the plan. */
  usesIndexes: boolean;
}

/** The claims' chain, as ClaimsService filters by it (apps/api/src/app/claims/claims.service.ts, CLAIM_CHAIN_SQL). */
const CLAIM_CHAIN = `COALESCE((claim.parameters->>'chainId')::int, (SELECT contract.chain_id FROM contract WHERE contract.id = claim.contract_id))`;

function hotQueries(at: { merchantId: number; contractId: number; roundRowId: number; account: string; prefix: string }): HotQuery[] {
  const { merchantId, contractId, roundRowId, account, prefix } = at;
  return [
    // Every request: the API key (ApiKeyService.authenticate, cached per key).
    { name: "api key by prefix", sql: `SELECT * FROM api_key WHERE prefix = $1 LIMIT 1`, params: [prefix] },
    // GET /rounds/current, GET /rounds and the sign path: the caller's raffle (RaffleContractsService.findOwnRaffle).
    {
      name: "own raffle",
      sql: `SELECT * FROM contract WHERE id = $1 AND merchant_id = $2 AND contract_module = 'RAFFLE' AND contract_type IS NULL LIMIT 1`,
      params: [contractId, merchantId],
    },
    // GET /rounds/current and the sign path: the latest round's refresh (RoundsService.latest).
    { name: "latest round", sql: `SELECT * FROM round WHERE contract_id = $1 ORDER BY round_id DESC LIMIT 1`, params: [contractId] },
    { name: "round's contracts", sql: `SELECT * FROM contract WHERE id = ANY($1::int[])`, params: [[contractId]] },
    {
      name: "round winners",
      sql: `SELECT * FROM round_winner WHERE round_id = ANY($1::int[]) ORDER BY round_id ASC, position ASC`,
      params: [[roundRowId]],
    },
    // GET /raffle/contracts (RaffleContractsService.list): the page and its count.
    {
      name: "raffle contracts page",
      sql: `SELECT * FROM contract JOIN merchant ON merchant.id = contract.merchant_id
             WHERE contract.merchant_id = $1 AND contract.contract_module = 'RAFFLE' AND contract.contract_type IS NULL
               AND contract.contract_status = 'ACTIVE' AND contract.chain_id = 31337
             ORDER BY contract.id ASC LIMIT 25 OFFSET 0`,
      params: [merchantId],
    },
    {
      name: "raffle contracts count",
      sql: `SELECT count(*) FROM contract WHERE merchant_id = $1 AND contract_module = 'RAFFLE' AND contract_type IS NULL
               AND contract_status = 'ACTIVE' AND chain_id = 31337`,
      params: [merchantId],
    },
    // GET /rounds (RoundsService.page): the page and its count.
    { name: "rounds page", sql: `SELECT * FROM round WHERE contract_id = $1 ORDER BY round_id DESC LIMIT 25 OFFSET 0`, params: [contractId] },
    { name: "rounds count", sql: `SELECT count(*) FROM round WHERE contract_id = $1`, params: [contractId] },
    // GET /claims (ClaimsService.list): the page and its count.
    {
      name: "claims page",
      sql: `SELECT * FROM claim WHERE claim.merchant_id = $1 AND claim.account = $2 AND ${CLAIM_CHAIN} = ANY($3::int[])
             ORDER BY claim.created_at DESC, claim.id DESC LIMIT 25 OFFSET 0`,
      params: [merchantId, account, [31337]],
    },
    {
      name: "claims count",
      sql: `SELECT count(*) FROM claim WHERE claim.merchant_id = $1 AND claim.account = $2 AND ${CLAIM_CHAIN} = ANY($3::int[])`,
      params: [merchantId, account, [31337]],
    },
    // The sign path, for rounds with a per-wallet cap (RoundsService.ticketsBought).
    {
      name: "tickets bought",
      sql: `SELECT count(*)::int AS count FROM ticket WHERE round_id = $1 AND buyer = $2`,
      params: [roundRowId, account],
    },
  ];
}

/**
 * The plans of the hot queries twice over: for the bench's own merchant (what the load asked for) and for a merchant
 * of the generated data (a raffle with a full history, an account with tickets and a claim in many rounds).
 */
export async function explainHotQueries(
  client: Client,
  bench: { merchantWallet: string; contractId: number; account: string },
): Promise<QueryPlan[]> {
  const { rows: benchRows } = await client.query(
    `SELECT m.id AS merchant_id, (SELECT prefix FROM api_key WHERE merchant_id = m.id LIMIT 1) AS prefix,
            (SELECT id FROM round WHERE contract_id = $2 ORDER BY round_id DESC LIMIT 1) AS round_row_id
       FROM merchant m WHERE m.wallet = $1`,
    [bench.merchantWallet, bench.contractId],
  );
  // A generated merchant in the middle of the id range, its first raffle, that raffle's latest round and the winner
  // of its latest drawn round (who holds tickets, in rounds of other raffles too, and a prize claim).
  const { rows: generated } = await client.query(
    `SELECT r.merchant_id, r.id AS contract_id, round.id AS round_row_id, cl.account
       FROM contract r
       JOIN round ON round.contract_id = r.id
       JOIN claim cl ON cl.contract_id = r.id AND cl.claim_type = 'RAFFLE_PRIZE'
      WHERE r.id = (SELECT min(id) + ${RAFFLES_PER_MERCHANT} * (count(*) / ${RAFFLES_PER_MERCHANT} / 2) FROM contract WHERE title = 'Growth raffle')
      ORDER BY round.round_id DESC, cl.round_id DESC LIMIT 1`,
  );
  const sides = [
    {
      label: "bench merchant",
      at: {
        merchantId: benchRows[0].merchant_id,
        contractId: bench.contractId,
        roundRowId: benchRows[0].round_row_id,
        account: bench.account,
        prefix: benchRows[0].prefix,
      },
    },
    ...(generated[0]
      ? [
          {
            label: "generated merchant",
            at: {
              merchantId: generated[0].merchant_id,
              contractId: generated[0].contract_id,
              roundRowId: generated[0].round_row_id,
              account: generated[0].account,
              prefix: benchRows[0].prefix,
            },
          },
        ]
      : []),
  ];
  const plans: QueryPlan[] = [];
  for (const { label, at } of sides) {
    for (const query of hotQueries(at)) {
      const { rows } = await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${query.sql}`, query.params);
      const plan = rows.map((row) => String(row["QUERY PLAN"]));
      const execution = plan.map((line) => /Execution Time: ([\d.]+) ms/.exec(line)).find(Boolean);
      plans.push({
        name: `${query.name} (${label})`,
        sql: query.sql.replace(/\s+/g, " "),
        params: query.params,
        plan,
        executionMs: execution ? Number(execution[1]) : NaN,
        usesIndexes: !plan.some((line) => line.includes("Seq Scan")),
      });
    }
  }
  return plans;
}
