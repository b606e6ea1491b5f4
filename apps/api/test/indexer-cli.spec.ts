import { execFile } from "node:child_process";
import * as path from "node:path";
import { promisify } from "node:util";
import { openDatabase } from "@raffle/db";
import { createTestDatabase, type TestDatabase } from "@raffle/db/testing";
import type { DataSource } from "typeorm";

/** The compiled indexer CLI, as the runtime image has it (`npm run indexer` runs its source with ts-node). */
const COMPILED_INDEXER_CLI = path.resolve(__dirname, "../../../dist/apps/api/src/cli/indexer.js");

async function run(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [COMPILED_INDEXER_CLI, ...args], {
      env: { PATH: process.env.PATH ?? "", ...env },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** Issue 31, item 8: `indexer reset --chain <id>`, compiled, resets one chain's index and refuses a bad chain id first. */
describe("the compiled indexer CLI", () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase("indexer_cli");
    dataSource = await openDatabase({ url: database.url });
  }, 60_000);

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  const cursors = async () =>
    (await dataSource.query(`SELECT chain_id FROM indexer_cursor ORDER BY chain_id`)).map((row: { chain_id: number }) => Number(row.chain_id));

  it("resets the chain named, and only that chain", async () => {
    await dataSource.query(`INSERT INTO indexer_cursor (chain_id, block_number, block_hash) VALUES (31337, 900, $1), (31338, 40, $1)`, [
      `0x${"ab".repeat(32)}`,
    ]);
    const result = await run(["reset", "--chain", "31337"], { DATABASE_URL: database.url });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^reset the index of chain 31337: 0 indexed events forgotten/);
    expect(await cursors()).toEqual([31338]);
  }, 60_000);

  it.each([
    [["reset"], /^usage: indexer reset --chain <id>/],
    [["reset", "--chain", "0x10"], /--chain must be a chain id from 1 to 2147483647/],
    [["reset", "--chain", "0"], /--chain must be a chain id from 1 to 2147483647/],
    [["drop", "--chain", "31338"], /^usage: indexer reset --chain <id>/],
  ])("refuses %p with exit code 2 before touching the database", async (args, message) => {
    const result = await run(args, { DATABASE_URL: database.url });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(await cursors()).toEqual([31338]);
  });
});
