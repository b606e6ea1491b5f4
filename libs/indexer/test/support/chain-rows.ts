import type { DataSource } from "typeorm";

/** The ids of one chain's contract rows, as SQL: the key through which projected rows belong to a chain. */
const CONTRACTS = `SELECT id FROM contract WHERE chain_id = $1`;
const ROUNDS = `SELECT id FROM round WHERE contract_id IN (${CONTRACTS})`;
const TEMPLATES = `SELECT id FROM template WHERE contract_id IN (${CONTRACTS})`;

/** Every table the indexer writes, with the condition that picks one chain's rows in it. */
const CHAIN_TABLES: Record<string, string> = {
  contract: `chain_id = $1`,
  template: `contract_id IN (${CONTRACTS})`,
  token: `template_id IN (${TEMPLATES})`,
  round: `contract_id IN (${CONTRACTS})`,
  price: `id IN (SELECT price_id FROM round WHERE id IN (${ROUNDS}))`,
  price_component: `price_id IN (SELECT price_id FROM round WHERE id IN (${ROUNDS}))`,
  ticket: `contract_id IN (${CONTRACTS})`,
  round_winner: `round_id IN (${ROUNDS})`,
  claim: `contract_id IN (${CONTRACTS})`,
  indexer_event: `chain_id = $1`,
  indexer_block: `chain_id = $1`,
  indexer_cursor: `chain_id = $1`,
  indexer_undo: `chain_id = $1`,
};

/**
 * One chain's rows in every table the indexer writes, ids and timestamps included, each as PostgreSQL's own JSON text
 * of the whole row: two snapshots are equal only if not one byte of that chain's data changed in between.
 */
export async function chainRows(dataSource: DataSource, chainId: number): Promise<Record<string, string[]>> {
  const rows: Record<string, string[]> = {};
  for (const [table, condition] of Object.entries(CHAIN_TABLES)) {
    const result: Array<{ row: string }> = await dataSource.query(
      `SELECT row_to_json(t)::text AS row FROM ${table} t WHERE ${condition} ORDER BY 1`,
      [chainId],
    );
    rows[table] = result.map((entry) => entry.row);
  }
  return rows;
}
