import "reflect-metadata";
import * as fs from "node:fs";
import { DataSource, type DataSourceOptions } from "typeorm";
import { PGliteDriver } from "typeorm-pglite";

import { ENTITIES } from "./entities";
import { MIGRATIONS } from "./migrations";
import { SnakeNamingStrategy } from "./naming-strategy";

export interface DatabaseOptions {
  /** A PostgreSQL URL. Without one, an embedded PGlite database is opened in `pgliteDir`. */
  url?: string;
  /** Folder of the embedded PGlite database (one process only). */
  pgliteDir?: string;
  /** Pool size for PostgreSQL. */
  poolSize?: number;
  logging?: boolean;
  /** Tests only: build the schema from the entities instead of the migrations. */
  synchronize?: boolean;
}

export const DEFAULT_PGLITE_DIR = ".local/pglite";

/** A TypeORM data source on PostgreSQL (`url`) or, when no URL is given, on an embedded PGlite folder. */
export function createDataSource(options: DatabaseOptions = {}): DataSource {
  const common = {
    type: "postgres" as const,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: "migrations",
    namingStrategy: new SnakeNamingStrategy(),
    synchronize: options.synchronize ?? false,
    logging: options.logging ?? false,
  };
  if (options.url) {
    return new DataSource({
      ...common,
      url: options.url,
      extra: { max: options.poolSize ?? 10, connectionTimeoutMillis: 5_000 },
    } as DataSourceOptions);
  }
  const dataDir = options.pgliteDir ?? DEFAULT_PGLITE_DIR;
  fs.mkdirSync(dataDir, { recursive: true });
  return new DataSource({ ...common, driver: new PGliteDriver({ dataDir }).driver } as DataSourceOptions);
}

/** Opens the database and brings its schema up to date. */
export async function openDatabase(options: DatabaseOptions = {}): Promise<DataSource> {
  const dataSource = await createDataSource(options).initialize();
  if (!options.synchronize) await dataSource.runMigrations({ transaction: "all" });
  return dataSource;
}
