import type { DataSource, EntityManager } from "typeorm";

const answers = new WeakMap<DataSource, Promise<boolean>>();

/**
 * Whether the database is a PostgreSQL server rather than the embedded PGlite (its `version()` names it), asked once
 * per data source, through `manager` (inside a transaction, on its own connection: no second one is taken from the
 * pool). PGlite's socket server serves every connection from one session, where a statement name one connection
 * prepared clashes with the next one's, and it does not speak COPY's sub-protocol: callers that use either ask here.
 */
export function isPostgresServer(manager: EntityManager): Promise<boolean> {
  const dataSource = manager.connection;
  let known = answers.get(dataSource);
  if (!known) {
    known = manager.query(`SELECT version() AS version`).then(([{ version }]: Array<{ version: string }>) => !/pglite/i.test(version));
    // A failed question (a lost session) is asked again next time, not remembered.
    known.catch(() => answers.delete(dataSource));
    answers.set(dataSource, known);
  }
  return known;
}
