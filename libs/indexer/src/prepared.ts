import type { PoolClient } from "pg";
import type { DataSource, EntityManager } from "typeorm";

/**
 * The statements the indexer runs once per block or once per step, as named statements: PostgreSQL parses and plans
 * each once per connection, not at every run. In a backfill's statement log a block's purchase statement spent about
 * 1 of its ~5 ms in parse and bind (the plan), and a step's small statements (the undo setting, the cursor, the
 * headers) little else (docs/performance.md, "Indexer backfill", round 5).
 *
 * PGlite's socket server serves every connection from one session, where a name one connection prepared clashes with
 * the next one's: there, and outside a transaction's query runner, they run unnamed, as any other query.
 */
export interface NamedStatement {
  /** Unique per text: node-postgres refuses one name for two texts on a connection. */
  name: string;
  text: string;
}

const fullServer = new WeakMap<DataSource, Promise<boolean>>();

/** Whether the database is a PostgreSQL server (not PGlite, whose version() names it): asked once per data source. */
export function isPostgresServer(manager: EntityManager): Promise<boolean> {
  let known = fullServer.get(manager.connection);
  if (!known) {
    const dataSource = manager.connection;
    known = manager.query(`SELECT version() AS version`).then(([{ version }]: Array<{ version: string }>) => !/pglite/i.test(version));
    // A failed question (a lost session) is asked again next time, not remembered.
    known.catch(() => fullServer.delete(dataSource));
    fullServer.set(dataSource, known);
  }
  return known;
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
