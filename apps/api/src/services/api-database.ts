import * as path from "node:path";
import { DEFAULT_PGLITE_DIR, openDatabase } from "@raffle/db";
import { PlatformError, databaseUrlForLogs } from "@raffle/config";
import type { DataSource } from "typeorm";

import type { ApiConfig } from "../config/api-config";

/** A start-up failure whose message already says what to fix: logged as it is, once; the API does not start. */
export class StartupError extends PlatformError {
  constructor(message: string) {
    super("startupFailed", message, false);
  }
}

/**
 * Opens the API's database (DATABASE_URL, else the embedded PGlite folder) and migrates it. A failure names the
 * setting and where it points (never the password), so the operator knows what to fix rather than reading a bare
 * ECONNREFUSED.
 */
export async function openApiDatabase(config: Pick<ApiConfig, "databaseUrl" | "pgliteDir">): Promise<DataSource> {
  try {
    return await openDatabase({ url: config.databaseUrl, pgliteDir: config.pgliteDir, poolSize: 20 });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const target = config.databaseUrl
      ? `DATABASE_URL (${databaseUrlForLogs(config.databaseUrl)})`
      : `the embedded database in PGLITE_DIR (${path.resolve(config.pgliteDir ?? DEFAULT_PGLITE_DIR)})`;
    throw new StartupError(`cannot open the database at ${target}: ${reason}`);
  }
}
