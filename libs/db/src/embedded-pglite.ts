import * as fs from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { freePort } from "@raffle/config";

import { keepQueriesTogether } from "./pglite-query-order";
import { refuseMalformedConnections } from "./pglite-wire-guard";

export interface EmbeddedPglite {
  /** A PostgreSQL URL served by the embedded database on 127.0.0.1. */
  url: string;
  stop(): Promise<void>;
}

/**
 * Opens a PGlite folder and serves it over the PostgreSQL wire protocol on 127.0.0.1, so everything connects with a
 * plain URL as in production. PGlite is a single session: the server runs one query, and one transaction, at a time
 * and queues the other connections' meanwhile (see keepQueriesTogether), which gives them the isolation they expect.
 * One process owns the folder.
 */
export async function startEmbeddedPglite(dataDir: string, port?: number): Promise<EmbeddedPglite> {
  fs.mkdirSync(dataDir, { recursive: true });
  refuseMalformedConnections();
  const db = await PGlite.create({ dataDir });
  const listenPort = port ?? (await freePort());
  const server = new PGLiteSocketServer({ db, host: "127.0.0.1", port: listenPort, maxConnections: 100 });
  keepQueriesTogether(server);
  await server.start();
  return {
    url: `postgres://postgres@127.0.0.1:${listenPort}/postgres?sslmode=disable`,
    stop: async () => {
      await server.stop();
      await db.close();
    },
  };
}
