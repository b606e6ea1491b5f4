import { spawnSync } from "node:child_process";
import { Client } from "pg";

import { TEST_SERVER_URL, createTestDatabase, dropLeftoverDatabases } from "./test-database";

async function onServer<T>(run: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: TEST_SERVER_URL });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

const exists = (name: string) =>
  onServer(async (client) => (await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name])).rowCount === 1);
const create = (name: string) => onServer((client) => client.query(`CREATE DATABASE "${name}"`));
const drop = (name: string) => onServer((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));

describe("dropping the databases a killed run left behind", () => {
  const suffix = Math.floor(Math.random() * 1e6);
  // A process that ran and is gone: its pid names the leftover.
  const deadPid = spawnSync(process.execPath, ["-e", "process.pid"]).pid!;
  const leftover = `raffle_leakcheck_${deadPid}_${Date.now()}_${suffix}`;
  const leftoverOfLongerLabel = `raffle_leakcheck_backfill_${deadPid}_${Date.now()}_${suffix}`;
  // Made "in 2020" by a pid that runs now: the pid was reused, the owner is gone.
  const reusedPid = `raffle_leakcheck_${process.ppid}_1577836800000_${suffix}`;
  const notOurs = `raffle_leakcheckother_${deadPid}_${Date.now()}_${suffix}`;
  const noPid = `raffle_leakcheck_by_hand_${suffix}`;
  const all = [leftover, leftoverOfLongerLabel, reusedPid, notOurs, noPid];

  afterAll(async () => {
    for (const name of all) await drop(name);
  });

  it("drops those of a gone or reused owner, keeps a running owner's, another label's and names with no owner", async () => {
    for (const name of all) await create(name);
    const running = await createTestDatabase("leakcheck");
    try {
      const dropped = await dropLeftoverDatabases(["leakcheck"]);
      expect(dropped.sort()).toEqual([leftover, leftoverOfLongerLabel, reusedPid].sort());
      expect(await Promise.all(all.map(exists))).toEqual([false, false, false, true, true]);
      expect(await exists(running.name)).toBe(true);

      // At this process's own (interrupted) exit, its own go too.
      expect(await dropLeftoverDatabases(["leakcheck"], { includingOwn: true })).toEqual([running.name]);
      expect(await exists(running.name)).toBe(false);
    } finally {
      await running.drop();
    }
  });
});
