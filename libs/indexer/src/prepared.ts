import type { PoolClient } from "pg";
import type { EntityManager } from "typeorm";
import { isPostgresServer } from "@raffle/db";

/**
 * The statements the indexer runs once per block or once per step, as named statements: PostgreSQL parses and plans
 * each once per connection, not at every run. In a backfill's statement log a block's purchase statement spent about
 * 1 of its ~5 ms in parse and bind (the plan), and a step's small statements (the undo setting, the cursor, the
 * headers) little else (docs/performance.md, "Indexer backfill").
 *
 * On the embedded PGlite (isPostgresServer), and outside a transaction's query runner, they run unnamed, as any other
 * query.
 */
export interface NamedStatement {
  /** Unique per text: node-postgres refuses one name for two texts on a connection. */
  name: string;
  text: string;
}

/** The pg client under the manager's query runner: the transaction's own connection. */
export async function transactionClient(manager: EntityManager): Promise<PoolClient> {
  return (await (manager.queryRunner as unknown as { connect(): Promise<PoolClient> }).connect()) as PoolClient;
}

/** Runs `statement` with `values` on the manager's connection and answers its rows. */
export async function runNamed<Row = Record<string, unknown>>(manager: EntityManager, statement: NamedStatement, values: unknown[]): Promise<Row[]> {
  if (!manager.queryRunner || !(await isPostgresServer(manager))) return manager.query(statement.text, values);
  const client = await transactionClient(manager);
  return (await client.query({ name: statement.name, text: statement.text, values })).rows as Row[];
}
