import "reflect-metadata";
import { DataSource } from "typeorm";

import { startEmbeddedPglite } from "./embedded-pglite";
import { ENTITIES } from "./entities";
import { MIGRATIONS } from "./migrations";
import { SnakeNamingStrategy } from "./naming-strategy";

export interface DatabaseOptions {
  /** A PostgreSQL URL. Without one, the embedded PGlite folder `pgliteDir` is opened and served locally. */
  url?: string;
  /** Folder of the embedded PGlite database (one process owns it). */
  pgliteDir?: string;
  /** Pool size for PostgreSQL. */
  poolSize?: number;
  logging?: boolean;
  /** Tests only: build the schema from the entities instead of the migrations. */
  synchronize?: boolean;
}

export const DEFAULT_PGLITE_DIR = ".local/pglite";

/** A TypeORM data source on a PostgreSQL URL (not yet initialized). */
export function createDataSource(url: string, options: Omit<DatabaseOptions, "url" | "pgliteDir"> = {}): DataSource {
  return new DataSource({
    type: "postgres",
    url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: "migrations",
    namingStrategy: new SnakeNamingStrategy(),
    synchronize: options.synchronize ?? false,
    logging: options.logging ?? false,
    extra: { max: options.poolSize ?? 10, connectionTimeoutMillis: 5_000 },
  });
}

/**
 * Opens the database and brings its schema up to date. With a URL it connects to PostgreSQL; without one it opens
 * the embedded PGlite folder and serves it on 127.0.0.1, so there is one code path; destroying the data source stops
 * the embedded server.
 */
export async function openDatabase(options: DatabaseOptions = {}): Promise<DataSource> {
  let url = options.url;
  let stopEmbedded: (() => Promise<void>) | undefined;
  if (!url) {
    const embedded = await startEmbeddedPglite(options.pgliteDir ?? DEFAULT_PGLITE_DIR);
    url = embedded.url;
    stopEmbedded = embedded.stop;
  }
  const dataSource = createDataSource(url, options);
  try {
    await dataSource.initialize();
    if (!options.synchronize) await dataSource.runMigrations({ transaction: "all" });
  } catch (error) {
    if (dataSource.isInitialized) await dataSource.destroy();
    await stopEmbedded?.();
    throw error;
  }
  if (stopEmbedded) {
    const destroy = dataSource.destroy.bind(dataSource);
    dataSource.destroy = async () => {
      await destroy();
      await stopEmbedded!();
    };
  }
  return dataSource;
}
