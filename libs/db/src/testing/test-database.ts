import { Client } from "pg";

/** Server that tests create their databases on: DATABASE_URL, or the machine's PostgreSQL with trust auth. */
export const TEST_SERVER_URL = process.env.TEST_DATABASE_SERVER_URL || "postgres://postgres@127.0.0.1:5432/postgres";

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

async function withServer<T>(run: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: TEST_SERVER_URL, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** A fresh, uniquely named database, so parallel suites and reruns never see each other's rows. */
export async function createTestDatabase(label: string): Promise<TestDatabase> {
  const safeLabel = label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .slice(0, 20);
  const name = `raffle_${safeLabel}_${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  await withServer((client) => client.query(`CREATE DATABASE "${name}"`));
  const url = new URL(TEST_SERVER_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: () => withServer((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}
