/**
 * Runs the pending migrations: `npm run migrate` (DATABASE_URL, or the embedded PGlite folder PGLITE_DIR).
 */
import { openDatabase } from "../data-source";

async function main(): Promise<void> {
  // openDatabase migrates on open; report what it did.
  const dataSource = await openDatabase({ url: process.env.DATABASE_URL || undefined, pgliteDir: process.env.PGLITE_DIR || undefined });
  try {
    const [{ count }] = await dataSource.query(`SELECT count(*)::int AS count FROM migrations`);
    console.log(`migrate: the schema is up to date (${count} migration${count === 1 ? "" : "s"} applied)`);
  } finally {
    await dataSource.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(`migrate: failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
