import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import * as path from "node:path";
import { promisify } from "node:util";
import { Wallet } from "ethers";
import type { DataSource } from "typeorm";
import { ApiKeyEntity, MerchantEntity, createTestDatabase, openDatabase, type TestDatabase } from "@raffle/db";

import { ApiKeyService } from "../src/app/auth/api-key.service";

const API_DIR = path.resolve(__dirname, "..");
const KEY = /rk_[0-9a-f]{12}_[A-Za-z0-9_-]{43}/g;

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** `npm run api-key -- <args>` without npm: ts-node on src/cli/api-key.ts against the test database. */
async function cli(databaseUrl: string, ...args: string[]): Promise<CliResult> {
  const tsNode = require.resolve("ts-node/dist/bin.js", { paths: [API_DIR] });
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [tsNode, "--transpile-only", "-P", "tsconfig.json", "src/cli/api-key.ts", ...args],
      { cwd: API_DIR, env: { ...process.env, DATABASE_URL: databaseUrl, PGLITE_DIR: "" }, timeout: 60_000 },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof failed.code === "number" ? failed.code : -1, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
  }
}

describe("api-key CLI", () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let keys: ApiKeyService;
  const wallet = Wallet.createRandom().address;

  beforeAll(async () => {
    database = await createTestDatabase("api_key_cli");
    dataSource = await openDatabase({ url: database.url });
    keys = new ApiKeyService(dataSource, { apiKeyCacheSeconds: 0 });
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  it("creates a key for a new merchant wallet, prints it once, stores only its hash, and the key authenticates", async () => {
    const created = await cli(database.url, "create", "--merchant", wallet.toLowerCase(), "--label", "ci");
    expect(created.code).toBe(0);
    const printed = `${created.stdout}${created.stderr}`.match(KEY) ?? [];
    expect(printed).toHaveLength(1);
    const key = printed[0]!;

    const merchant = await dataSource.getRepository(MerchantEntity).findOneByOrFail({ wallet });
    expect(await keys.authenticate(key)).toMatchObject({ merchantId: merchant.id });

    const [, prefix, secret] = /^rk_([0-9a-f]{12})_(.+)$/.exec(key) as unknown as [string, string, string];
    const row = await dataSource.getRepository(ApiKeyEntity).findOneByOrFail({ prefix });
    expect(row).toMatchObject({ merchantId: merchant.id, label: "ci", revokedAt: null });
    expect(row.secretHash).toBe(createHash("sha256").update(secret).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(secret);
  });

  it("creates a key by merchant id, lists keys without their secrets, and revokes one", async () => {
    const merchant = await dataSource.getRepository(MerchantEntity).findOneByOrFail({ wallet });
    const created = await cli(database.url, "create", "--merchant", String(merchant.id));
    expect(created.code).toBe(0);
    const key = created.stdout.match(KEY)![0]!;
    const prefix = key.slice(3, 15);
    expect(await keys.authenticate(key)).toMatchObject({ merchantId: merchant.id });

    const listed = await cli(database.url, "list", "--merchant", wallet);
    expect(listed.code).toBe(0);
    expect(listed.stdout.match(KEY)).toBeNull();
    expect(listed.stdout).toMatch(new RegExp(`\\t${prefix}\\t.*\\tactive`));
    expect(listed.stdout.trim().split("\n")).toHaveLength(2);

    const revoked = await cli(database.url, "revoke", prefix);
    expect(revoked).toMatchObject({ code: 0, stdout: expect.stringContaining(`revoked ${prefix}`) });
    expect(await keys.authenticate(key)).toBeNull();
    expect((await keys.list(wallet)).find((row) => row.prefix === prefix)?.revokedAt).toBeInstanceOf(Date);
    expect((await cli(database.url, "revoke", prefix)).code).toBe(1);
  });

  it("fails with a message and a non-zero code on bad usage, creating nothing", async () => {
    const before = await dataSource.getRepository(ApiKeyEntity).count();
    const [noMerchant, badMerchant, unknownMerchant, unknownCommand] = await Promise.all([
      cli(database.url, "create"),
      cli(database.url, "create", "--merchant", "not-a-wallet"),
      cli(database.url, "create", "--merchant", "999999"),
      cli(database.url, "rotate"),
    ]);
    expect(noMerchant).toMatchObject({ code: 1, stderr: expect.stringContaining("--merchant") });
    expect(badMerchant).toMatchObject({ code: 1, stderr: expect.stringContaining("not-a-wallet") });
    expect(unknownMerchant).toMatchObject({ code: 1, stderr: expect.stringContaining("999999") });
    expect(unknownCommand).toMatchObject({ code: 2, stderr: expect.stringContaining("usage") });
    expect(await dataSource.getRepository(ApiKeyEntity).count()).toBe(before);
  });
});
