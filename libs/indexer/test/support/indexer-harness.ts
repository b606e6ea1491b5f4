import { openDatabase } from "@raffle/db";
import { createTestDatabase, type TestDatabase } from "@raffle/db/testing";
import type { DataSource } from "typeorm";
import type { PlatformDeployment } from "@raffle/chain";
import type { JsonRpcProvider } from "ethers";

import { Indexer, type IndexerOptions } from "../../src/indexer";
import { silentLogger } from "../../src/logger";

export interface IndexedDatabase {
  database: TestDatabase;
  dataSource: DataSource;
  indexer: Indexer;
  close(): Promise<void>;
}

/** A fresh database with an indexer on it, for one chain. */
export async function indexedDatabase(
  label: string,
  provider: JsonRpcProvider,
  deployment: PlatformDeployment,
  options: Partial<IndexerOptions> = {},
): Promise<IndexedDatabase> {
  const database = await createTestDatabase(label);
  const dataSource = await openDatabase({ url: database.url, poolSize: 4 });
  const indexer = new Indexer(dataSource, provider, { deployment, logger: silentLogger, ...options });
  return {
    database,
    dataSource,
    indexer,
    close: async () => {
      await indexer.stop();
      await dataSource.destroy();
      await database.drop();
    },
  };
}
