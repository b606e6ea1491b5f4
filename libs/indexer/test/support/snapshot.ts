import type { DataSource } from "typeorm";

/**
 * Every projected row, keyed by natural keys instead of surrogate ids (sequences are not transactional, so ids
 * may differ after a crash), in a stable order. Two databases that index the same chain must give equal snapshots.
 * With `chainId`, only that chain's rows (and the merchants owning its contracts): a database indexing several chains
 * against a clean database that indexed that one chain alone. Orphans are counted across all chains either way.
 */
export async function projectionSnapshot(dataSource: DataSource, chainId?: number): Promise<Record<string, unknown[]>> {
  // PostgreSQL refuses a parameter that a statement does not use (its type is unknown): only those naming $1 get it.
  const q = (sql: string) => (sql.includes("$1") ? dataSource.query(sql, [chainId ?? null]) : dataSource.query(sql));
  /** True for rows of the chain asked for, or for every row without one; `column` holds the row's chain id. */
  const onChain = (column: string) => `($1::int IS NULL OR ${column} = $1::int)`;
  return {
    merchants: await q(
      `SELECT wallet, title FROM merchant m
        WHERE $1::int IS NULL OR EXISTS (SELECT 1 FROM contract c WHERE c.merchant_id = m.id AND c.chain_id = $1::int)
        ORDER BY wallet`,
    ),
    contracts: await q(
      `SELECT c.address, c.chain_id, c.title, c.description, m.wallet AS merchant, c.name, c.symbol, c.decimals, c.from_block,
              c.parameters, c.is_paused, c.contract_status, c.contract_type, c.contract_features::text[] AS contract_features, c.contract_module,
              raffle.address AS raffle, c.indexed_block,
              CASE WHEN c.contract_module = 'SYSTEM' THEN NULL ELSE c.created_at END AS created_at,
              CASE WHEN c.contract_module = 'SYSTEM' THEN NULL ELSE c.updated_at END AS updated_at
         FROM contract c JOIN merchant m ON m.id = c.merchant_id LEFT JOIN contract raffle ON raffle.id = c.raffle_contract_id
        WHERE ${onChain("c.chain_id")}
        ORDER BY c.address`,
    ),
    templates: await q(
      `SELECT c.address, t.title, t.template_status, t.created_at, array_agg(k.token_id ORDER BY k.token_id) AS tokens
         FROM template t JOIN contract c ON c.id = t.contract_id LEFT JOIN token k ON k.template_id = t.id
        WHERE ${onChain("c.chain_id")}
        GROUP BY c.address, t.id ORDER BY c.address`,
    ),
    rounds: await q(
      `SELECT raffle.address AS raffle, r.number, r.round_id, ticket.address AS ticket, r.max_tickets, r.start_timestamp,
              r.end_timestamp, r.ticket_count, r.round_status, r.first_ticket_id, r.winning_ticket_id, r.drawn_at,
              r.vrf_request_id, r.indexed_block, r.created_at, r.updated_at, r.pot, r.random_word, r.refund_reason,
              r.rules_version, r.prize_shares, r.min_tickets, r.max_tickets_per_wallet, r.bundles,
              (SELECT json_agg(json_build_object('tokenType', pc.token_type, 'token', tc.address, 'amount', pc.amount, 'tokenId', pc.token_id))
                 FROM price_component pc JOIN contract tc ON tc.id = pc.contract_id WHERE pc.price_id = r.price_id) AS price
         FROM round r JOIN contract raffle ON raffle.id = r.contract_id JOIN contract ticket ON ticket.id = r.ticket_contract_id
        WHERE ${onChain("raffle.chain_id")}
        ORDER BY raffle.address, r.round_id`,
    ),
    tickets: await q(
      `SELECT c.address AS ticket, t.token_id, r.round_id, t.serial, t.account, t.buyer, t.external_id, t.is_prize,
              t.ticket_status, t.tx_hash, t.tier, t.paid_amount, t.indexed_block, t.created_at, t.updated_at
         FROM ticket t JOIN contract c ON c.id = t.contract_id JOIN round r ON r.id = t.round_id
        WHERE ${onChain("c.chain_id")}
        ORDER BY c.address, t.token_id`,
    ),
    winners: await q(
      `SELECT raffle.address AS raffle, r.round_id, w.position, w.ticket_id, w.account, w.share, w.amount, w.claim_status,
              w.indexed_block, w.created_at, w.updated_at
         FROM round_winner w JOIN round r ON r.id = w.round_id JOIN contract raffle ON raffle.id = r.contract_id
        WHERE ${onChain("raffle.chain_id")}
        ORDER BY raffle.address, r.round_id, w.position`,
    ),
    items: await q(
      `SELECT raffle.address AS raffle, r.round_id, i.position, i.token_type, i.token, i.token_id, i.amount, i.merchant, i.status, i.ticket_id,
              i.claimed_by, i.tx_hash, i.failed_to, i.failed_reason, i.failed_tx_hash, i.indexed_block, i.created_at, i.updated_at
         FROM round_item i JOIN round r ON r.id = i.round_id JOIN contract raffle ON raffle.id = r.contract_id
        WHERE ${onChain("raffle.chain_id")}
        ORDER BY raffle.address, r.round_id, i.position`,
    ),
    claims: await q(
      `SELECT m.wallet AS merchant, c.address AS raffle, r.round_id, cl.account, cl.claim_type, cl.claim_status, cl.items,
              cl.end_timestamp, cl.token_id, cl.parameters, cl.redeemed_tx_hash, cl.indexed_block, cl.created_at, cl.updated_at
         FROM claim cl JOIN merchant m ON m.id = cl.merchant_id LEFT JOIN contract c ON c.id = cl.contract_id
         LEFT JOIN round r ON r.id = cl.round_id
        WHERE ${onChain("c.chain_id")}
        ORDER BY c.address, r.round_id, cl.claim_type, cl.token_id`,
    ),
    events: await q(
      `SELECT chain_id, block_number, block_hash, block_timestamp, tx_hash, log_index, address, name, args, status
         FROM indexer_event WHERE ${onChain("chain_id")} ORDER BY block_number, log_index`,
    ),
    cursor: await q(`SELECT chain_id, block_number, block_hash FROM indexer_cursor WHERE ${onChain("chain_id")}`),
    orphans: await q(
      `SELECT (SELECT count(*) FROM price WHERE id NOT IN (SELECT price_id FROM round))::int AS prices,
              (SELECT count(*) FROM price_component WHERE price_id NOT IN (SELECT id FROM price))::int AS components,
              (SELECT count(*) FROM ticket WHERE round_id NOT IN (SELECT id FROM round))::int AS tickets,
              (SELECT count(*) FROM round_winner WHERE round_id NOT IN (SELECT id FROM round))::int AS winners,
              (SELECT count(*) FROM claim WHERE contract_id IS NOT NULL AND contract_id NOT IN (SELECT id FROM contract))::int AS claims`,
    ),
  };
}
