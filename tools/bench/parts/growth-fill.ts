/**
 * The data of part "growth", written by SQL alone (INSERT ... SELECT over generate_series, not through the chain):
 * at scale 1, 1,000 merchants with 10 raffles each (10,000), 100 rounds per raffle (1M), 10 tickets per round (10M)
 * and one claim per round (1M: the drawn rounds' prizes, a voucher per active round), with every row the schema asks
 * for beside them (each raffle's ticket contract, each merchant's price token, template and price, each drawn round's
 * winner). Every shape stays the same at any scale; only the number of merchants follows BENCH_GROWTH_SCALE.
 */
import type { Client } from "pg";

/** Marks the generated merchants; every generated row hangs off one of them. */
const GROWTH_TITLE = "bench growth";
export const RAFFLES_PER_MERCHANT = 10;
export const ROUNDS_PER_RAFFLE = 100;
export const TICKETS_PER_ROUND = 10;
/** Distinct ticket buyers, so that an account holds a few tickets in many rounds, as players do. */
const ACCOUNTS = 100_000;

/** A digits-only address (its EIP-55 checksum is itself) in a namespace of its own per kind of row. */
const address = (kind: number, n: string) => `'0x${kind}' || lpad((${n})::text, 39, '0')`;

/** The statements, in order; `$1` is the number of merchants. */
const FILL: Array<[what: string, sql: string]> = [
  ["merchants", `INSERT INTO merchant (wallet, title) SELECT ${address(1, "m")}, '${GROWTH_TITLE}' FROM generate_series(1, $1::int) m`],
  [
    "API keys (one per merchant)",
    `INSERT INTO api_key (prefix, secret_hash, label, merchant_id)
     SELECT 'g' || lpad(m.id::text, 11, '0'), md5(m.id::text) || md5(m.wallet), 'growth', m.id FROM merchant m WHERE m.title = '${GROWTH_TITLE}'`,
  ],
  [
    "price tokens (one ERC20 per merchant)",
    `INSERT INTO contract (address, chain_id, title, name, symbol, decimals, merchant_id, contract_type, contract_module)
     SELECT ${address(2, "m.id")}, 31337, 'Growth Gold', 'Growth Gold', 'GROW', 18, m.id, 'ERC20', 'HIERARCHY'
       FROM merchant m WHERE m.title = '${GROWTH_TITLE}'`,
  ],
  [
    "templates",
    `INSERT INTO template (title, contract_id)
     SELECT c.title, c.id FROM contract c JOIN merchant m ON m.id = c.merchant_id
      WHERE m.title = '${GROWTH_TITLE}' AND c.contract_module = 'HIERARCHY'`,
  ],
  [
    "prices and their components",
    `WITH tokens AS (
       SELECT t.contract_id, t.id AS template_id, row_number() OVER (ORDER BY t.id) AS n
         FROM template t JOIN contract c ON c.id = t.contract_id JOIN merchant m ON m.id = c.merchant_id
        WHERE m.title = '${GROWTH_TITLE}'),
     prices AS (INSERT INTO price (id) SELECT nextval(pg_get_serial_sequence('price', 'id')) FROM tokens RETURNING id),
     numbered AS (SELECT id, row_number() OVER (ORDER BY id) AS n FROM prices)
     INSERT INTO price_component (token_type, contract_id, template_id, token_id, amount, price_id)
     SELECT 'ERC20', t.contract_id, t.template_id, 0, 10000000000000000000, p.id FROM tokens t JOIN numbered p USING (n)`,
  ],
  [
    "raffles",
    `INSERT INTO contract (address, chain_id, title, name, merchant_id, contract_module, contract_features, parameters)
     SELECT ${address(3, `m.id * ${RAFFLES_PER_MERCHANT} + k`)}, 31337, 'Growth raffle', 'Raffle', m.id, 'RAFFLE', '{RANDOM,PAUSABLE}',
            '{"timeLagBeforeRelease": "604800", "commission": "500", "roundId": ${ROUNDS_PER_RAFFLE}}'
       FROM merchant m CROSS JOIN generate_series(1, ${RAFFLES_PER_MERCHANT}) k WHERE m.title = '${GROWTH_TITLE}'`,
  ],
  [
    "ticket contracts",
    `INSERT INTO contract (address, chain_id, title, name, symbol, merchant_id, contract_type, contract_module, raffle_contract_id)
     SELECT ${address(4, "r.id")}, 31337, 'Growth ticket', 'Growth ticket', 'GTIX', r.merchant_id, 'ERC721', 'RAFFLE', r.id
       FROM contract r JOIN merchant m ON m.id = r.merchant_id
      WHERE m.title = '${GROWTH_TITLE}' AND r.contract_module = 'RAFFLE' AND r.contract_type IS NULL`,
  ],
  [
    "rounds (every one drawn and claimed but the last, which is active)",
    `INSERT INTO round (number, round_id, contract_id, ticket_contract_id, price_id, max_tickets, start_timestamp, end_timestamp,
                        ticket_count, round_status, first_ticket_id, winning_ticket_id, drawn_at, indexed_block, pot, random_word)
     SELECT n, n, r.id, t.id, pc.price_id, 1000, now() - (${ROUNDS_PER_RAFFLE + 1} - n) * interval '1 day',
            CASE WHEN n < ${ROUNDS_PER_RAFFLE} THEN now() - (${ROUNDS_PER_RAFFLE} - n) * interval '1 day' END,
            ${TICKETS_PER_ROUND}, CASE WHEN n < ${ROUNDS_PER_RAFFLE} THEN 'CLAIMED' ELSE 'ACTIVE' END::round_round_status_enum,
            (n - 1) * ${TICKETS_PER_ROUND} + 1,
            CASE WHEN n < ${ROUNDS_PER_RAFFLE} THEN (n - 1) * ${TICKETS_PER_ROUND} + 1 + (r.id + n) % ${TICKETS_PER_ROUND} END,
            CASE WHEN n < ${ROUNDS_PER_RAFFLE} THEN now() - (${ROUNDS_PER_RAFFLE} - n) * interval '1 day' END,
            0, 100000000000000000000, CASE WHEN n < ${ROUNDS_PER_RAFFLE} THEN r.id::bigint * 1000003 + n END
       FROM contract r
       JOIN merchant m ON m.id = r.merchant_id
       JOIN contract t ON t.raffle_contract_id = r.id
       JOIN contract token ON token.merchant_id = r.merchant_id AND token.contract_module = 'HIERARCHY'
       JOIN price_component pc ON pc.contract_id = token.id
      CROSS JOIN generate_series(1, ${ROUNDS_PER_RAFFLE}) n
      WHERE m.title = '${GROWTH_TITLE}' AND r.contract_module = 'RAFFLE' AND r.contract_type IS NULL`,
  ],
  [
    "tickets",
    `INSERT INTO ticket (contract_id, round_id, token_id, serial, account, buyer, external_id, tx_hash, indexed_block, paid_amount,
                         created_at, updated_at, ticket_status)
     SELECT r.ticket_contract_id, r.id, r.first_ticket_id + k, k + 1,
            ${address(5, `(r.id * ${TICKETS_PER_ROUND} + k) % ${ACCOUNTS}`)}, ${address(5, `(r.id * ${TICKETS_PER_ROUND} + k) % ${ACCOUNTS}`)},
            r.id, '0x' || lpad(to_hex(r.id), 56, '0') || lpad(to_hex(k), 8, '0'), 0, 10000000000000000000,
            r.start_timestamp, r.start_timestamp, CASE WHEN r.first_ticket_id + k = r.winning_ticket_id THEN 'PRIZE_CLAIMED' ELSE 'ACTIVE' END::ticket_ticket_status_enum
       FROM round r JOIN contract c ON c.id = r.contract_id JOIN merchant m ON m.id = c.merchant_id
      CROSS JOIN generate_series(0, ${TICKETS_PER_ROUND - 1}) k
      WHERE m.title = '${GROWTH_TITLE}'`,
  ],
  [
    "round winners",
    `INSERT INTO round_winner (round_id, position, ticket_id, account, share, amount, claim_status, indexed_block)
     SELECT r.id, 0, r.winning_ticket_id, ${address(5, `(r.id * ${TICKETS_PER_ROUND} + r.winning_ticket_id - r.first_ticket_id) % ${ACCOUNTS}`)},
            10000, 95000000000000000000, 'CLAIMED', 0
       FROM round r JOIN contract c ON c.id = r.contract_id JOIN merchant m ON m.id = c.merchant_id
      WHERE m.title = '${GROWTH_TITLE}' AND r.winning_ticket_id IS NOT NULL`,
  ],
  [
    "prize claims (redeemed)",
    `INSERT INTO claim (account, merchant_id, claim_type, claim_status, items, end_timestamp, contract_id, round_id, token_id,
                        parameters, indexed_block, created_at, updated_at, redeemed_tx_hash)
     SELECT w.account, c.merchant_id, 'RAFFLE_PRIZE', 'REDEEMED',
            jsonb_build_array(jsonb_build_object('tokenType', 'ERC20', 'token', token.address, 'tokenId', '0', 'amount', '95000000000000000000')),
            r.drawn_at + interval '7 days', c.id, r.id, r.winning_ticket_id,
            jsonb_build_object('raffle', c.address, 'roundId', r.round_id::text, 'ticketId', r.winning_ticket_id::text, 'position', 0),
            0, r.drawn_at, r.drawn_at, '0x' || lpad(to_hex(r.id), 64, 'f')
       FROM round_winner w JOIN round r ON r.id = w.round_id JOIN contract c ON c.id = r.contract_id
       JOIN merchant m ON m.id = c.merchant_id
       JOIN contract token ON token.merchant_id = c.merchant_id AND token.contract_module = 'HIERARCHY'
      WHERE m.title = '${GROWTH_TITLE}'`,
  ],
  [
    "vouchers (one per active round)",
    `INSERT INTO claim (account, merchant_id, claim_type, claim_status, items, end_timestamp, nonce, signature, expires_at, parameters)
     SELECT ${address(5, `r.id % ${ACCOUNTS}`)}, c.merchant_id, 'VOUCHER', 'NEW',
            jsonb_build_array(jsonb_build_object('tokenType', 'ERC20', 'token', token.address, 'tokenId', '0', 'amount', '1000')),
            now() + interval '1 day', '0x' || lpad(to_hex(r.id), 64, 'e'), '0x' || repeat('ab', 65),
            extract(epoch FROM now() + interval '1 day')::bigint, jsonb_build_object('chainId', 31337)
       FROM round r JOIN contract c ON c.id = r.contract_id JOIN merchant m ON m.id = c.merchant_id
       JOIN contract token ON token.merchant_id = c.merchant_id AND token.contract_module = 'HIERARCHY'
      WHERE m.title = '${GROWTH_TITLE}' AND r.round_status = 'ACTIVE'`,
  ],
];

/**
 * Every foreign key of the filled tables, checked in one anti-join each: the fill skips the per-row FK triggers (and
 * the indexer's undo trigger, which does nothing outside the indexer), so it proves the rows satisfy them instead.
 */
const FOREIGN_KEYS: Array<[table: string, column: string, parent: string]> = [
  ["api_key", "merchant_id", "merchant"],
  ["contract", "merchant_id", "merchant"],
  ["template", "contract_id", "contract"],
  ["price_component", "contract_id", "contract"],
  ["price_component", "template_id", "template"],
  ["price_component", "price_id", "price"],
  ["round", "contract_id", "contract"],
  ["round", "ticket_contract_id", "contract"],
  ["round", "price_id", "price"],
  ["round_winner", "round_id", "round"],
  ["ticket", "contract_id", "contract"],
  ["ticket", "round_id", "round"],
  ["claim", "merchant_id", "merchant"],
];

export interface FillStep {
  what: string;
  rows: number;
  seconds: number;
}

/** Fills the database `client` is connected to; `merchants` sets the scale. Returns each step's rows and time. */
export async function fillGrowthData(client: Client, merchants: number, say: (line: string) => void): Promise<FillStep[]> {
  // Bulk load settings for this session only: no wait for each commit's flush, and no per-row triggers (FK checks
  // and the undo log's no-op), which would cost more than the inserts themselves; the keys are checked after.
  await client.query("SET synchronous_commit = off");
  let triggersSkipped = true;
  await client.query("SET session_replication_role = replica").catch(() => (triggersSkipped = false));
  await client.query("SET maintenance_work_mem = '256MB'");
  const steps: FillStep[] = [];
  for (const [what, sql] of FILL) {
    const started = process.hrtime.bigint();
    const result = await client.query(sql, sql.includes("$1") ? [merchants] : []);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    steps.push({ what, rows: result.rowCount ?? 0, seconds });
    say(`   ${what}: ${result.rowCount} rows in ${seconds.toFixed(1)} s`);
  }
  await client.query("SET session_replication_role = DEFAULT");
  if (triggersSkipped) {
    const started = process.hrtime.bigint();
    for (const [table, column, parent] of FOREIGN_KEYS) {
      const { rows } = await client.query(
        `SELECT count(*)::int AS orphans FROM ${table} x WHERE x.${column} IS NOT NULL AND NOT EXISTS (SELECT 1 FROM ${parent} p WHERE p.id = x.${column})`,
      );
      if (rows[0].orphans > 0) throw new Error(`growth fill: ${rows[0].orphans} rows of ${table}.${column} have no ${parent}`);
    }
    steps.push({ what: "foreign keys checked", rows: 0, seconds: Number(process.hrtime.bigint() - started) / 1e9 });
  }
  // The statistics autovacuum would gather on its own after such a load, taken now so the planner sees the sizes.
  const started = process.hrtime.bigint();
  await client.query("ANALYZE");
  steps.push({ what: "ANALYZE", rows: 0, seconds: Number(process.hrtime.bigint() - started) / 1e9 });
  return steps;
}

/** Rows of the tables the issue names, counted. */
export async function namedTableRows(client: Client): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of ["merchant", "contract", "round", "ticket", "claim"]) {
    counts[table] = Number((await client.query(`SELECT count(*) AS n FROM ${table}`)).rows[0].n);
  }
  return counts;
}

/** Each table's rows (as the statistics count them) and its size on disk, heap and indexes apart, largest first. */
export async function tableSizes(client: Client): Promise<Array<{ table: string; rows: number; tableMiB: number; indexesMiB: number }>> {
  const { rows } = await client.query(
    `SELECT c.relname AS table, c.reltuples::bigint AS rows,
            pg_table_size(c.oid) / 1048576.0 AS table_mib, pg_indexes_size(c.oid) / 1048576.0 AS indexes_mib
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind = 'r' AND pg_total_relation_size(c.oid) > 1048576
      ORDER BY pg_total_relation_size(c.oid) DESC`,
  );
  return rows.map((row) => ({
    table: row.table,
    rows: Number(row.rows),
    tableMiB: Math.round(Number(row.table_mib)),
    indexesMiB: Math.round(Number(row.indexes_mib)),
  }));
}
