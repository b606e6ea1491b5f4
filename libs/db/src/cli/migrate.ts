/**
 * Runs the pending migrations: `npm run migrate` (DATABASE_URL, or the embedded PGlite folder PGLITE_DIR).
 */
import { createDataSource } from "../data-source";

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL || undefined;
  const dataSource = await createDataSource({ url, pgliteDir: process.env.PGLITE_DIR || undefined }).initialize();
  try {
    const applied = await dataSource.runMigrations({ transaction: "all" });
    console.log(
      applied.length === 0
        ? "migrate: the schema is up to date"
        : `migrate: applied ${applied.map((migration) => migration.name).join(", ")}`,
    );
  } finally {
    await dataSource.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(`migrate: failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
