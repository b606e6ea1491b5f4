import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { Wallet } from "ethers";
import type { DataSource } from "typeorm";
import { ApiKeyEntity, MerchantEntity, openDatabase, startEmbeddedPglite } from "@raffle/db";
import { createTestDatabase, type TestDatabase } from "@raffle/db/testing";

import { ApiKeyService } from "../src/app/auth/api-key.service";
import { COMPILED_API_KEY_CLI } from "./support/compiled-main";

const API_DIR = path.resolve(__dirname, "..");
const KEY = /rk_[0-9a-f]{12}_[A-Za-z0-9_-]{43}/g;

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The CLI against the test database. */
function cli(databaseUrl: string, ...args: string[]): Promise<CliResult> {
  return cliWith({ DATABASE_URL: databaseUrl, PGLITE_DIR: "" }, ...args);
}

/**
 * The CLI with these settings, run as npm runs it: in apps/api, called from the repository root (INIT_CWD). Compiled
 * (`npm test` builds dist/ first), as each ts-node start costs seconds; `viaTsNode` runs the source exactly as
 * `npm run api-key` does.
 */
async function cliWith(env: Record<string, string>, ...args: string[]): Promise<CliResult> {
  return runCli([COMPILED_API_KEY_CLI], env, args);
}

async function viaTsNode(env: Record<string, string>, ...args: string[]): Promise<CliResult> {
  const tsNode = require.resolve("ts-node/dist/bin.js", { paths: [API_DIR] });
  return runCli([tsNode, "--transpile-only", "-P", "tsconfig.json", "src/cli/api-key.ts"], env, args);
}

async function runCli(command: string[], env: Record<string, string>, args: string[]): Promise<CliResult> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [...command, ...args], {
      cwd: API_DIR,
      env: { ...process.env, INIT_CWD: path.resolve(API_DIR, "../.."), ...env },
      // A first run migrates a new embedded database: over a minute on a loaded 2-core machine.
      timeout: 150_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof failed.code === "number" ? failed.code : -1, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
  }
}

// Each test waits for a CLI run of up to 150 s (runCli).
jest.setTimeout(200_000);

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
    // As `npm run api-key` runs it: the source, through ts-node.
    const created = await viaTsNode({ DATABASE_URL: database.url, PGLITE_DIR: "" }, "create", "--merchant", wallet.toLowerCase(), "--label", "ci");
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
    // Rolled in the console: it works through its grace period, and the list says until when.
    const { issued } = (await keys.rollOwn(merchant.id, (await keys.list(wallet)).find((row) => row.prefix === prefix)!.id, 3_600))!;
    expect(await keys.authenticate(key)).toMatchObject({ merchantId: merchant.id });

    const listed = await cli(database.url, "list", "--merchant", wallet);
    expect(listed.code).toBe(0);
    expect(listed.stdout.match(KEY)).toBeNull();
    expect(listed.stdout).toMatch(new RegExp(`\\t${prefix}\\t.*\\trolled, works until \\d{4}-`));
    expect(listed.stdout).toMatch(new RegExp(`\\t${issued.prefix}\\t.*\\tactive`));
    expect(listed.stdout.trim().split("\n")).toHaveLength(3);

    // Revoking a rolled key ends its grace period now.
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

  it("refuses the zero-address merchant and an out-of-range id with a sentence, creating nothing", async () => {
    const before = await dataSource.getRepository(ApiKeyEntity).count();
    const merchantsBefore = await dataSource.getRepository(MerchantEntity).count();
    const [zero, huge, hugeRevoke] = await Promise.all([
      cli(database.url, "create", "--merchant", "0x0000000000000000000000000000000000000000"),
      cli(database.url, "create", "--merchant", "99999999999"),
      cli(database.url, "revoke", "99999999999"),
    ]);
    expect(zero).toMatchObject({ code: 1, stderr: expect.stringContaining("--merchant must not be the zero address") });
    expect(huge).toMatchObject({ code: 1, stderr: expect.stringContaining("--merchant must be an id from 1 to 2147483647, got 99999999999") });
    expect(hugeRevoke).toMatchObject({ code: 1, stderr: expect.stringContaining("must be an id from 1 to 2147483647") });
    for (const result of [zero, huge, hugeRevoke]) expect(result.stderr).not.toMatch(/out of range|QueryFailedError|\n\s+at /);
    expect(await dataSource.getRepository(ApiKeyEntity).count()).toBe(before);
    expect(await dataSource.getRepository(MerchantEntity).count()).toBe(merchantsBefore);
  });

  it("refuses a DATABASE_URL that is not a postgres:// URL with a host, never printing its password", async () => {
    const [noSlashes, mysql, schemeless] = await Promise.all([
      cliWith({ DATABASE_URL: "postgres:/raffle:s3cret@127.0.0.1/raffle", PGLITE_DIR: "" }, "list", "--merchant", "1"),
      cliWith({ DATABASE_URL: "mysql://raffle:s3cret@127.0.0.1/raffle", PGLITE_DIR: "" }, "list", "--merchant", "1"),
      cliWith({ DATABASE_URL: "raffle:s3cret@127.0.0.1/raffle", PGLITE_DIR: "" }, "list", "--merchant", "1"),
    ]);
    expect(noSlashes).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('DATABASE_URL must be a postgres:// or postgresql:// URL with a host after "//"'),
    });
    expect(mysql).toMatchObject({
      code: 1,
      stderr: expect.stringContaining("DATABASE_URL must be a postgres:// or postgresql:// URL, got a mysql:// URL"),
    });
    expect(schemeless).toMatchObject({ code: 1, stderr: expect.stringContaining("DATABASE_URL must be a postgres:// or postgresql:// URL") });
    for (const result of [noSlashes, mysql, schemeless]) expect(`${result.stdout}${result.stderr}`).not.toContain("s3cret");
  });

  describe("with the local stack (no DATABASE_URL)", () => {
    const stackDir = fs.mkdtempSync(path.join(os.tmpdir(), "raffle-cli-stack-"));
    const stackEnv = { DATABASE_URL: "", PGLITE_DIR: "", STACK_DIR: stackDir };
    const merchant = Wallet.createRandom().address;

    afterAll(() => fs.rmSync(stackDir, { recursive: true, force: true }));

    const writeStack = (facts: Record<string, unknown>) => fs.writeFileSync(path.join(stackDir, "stack.json"), JSON.stringify(facts));

    it("creates the key in the running stack's database, through the URL the stack serves it on", async () => {
      // The stack's embedded database as `npm start` serves it; this process stands in for the stack's.
      const served = await startEmbeddedPglite(path.join(stackDir, "served"));
      try {
        const stackDataSource = await openDatabase({ url: served.url });
        try {
          writeStack({ databaseUrl: served.url, pgliteDir: path.join(stackDir, "served"), pid: process.pid });
          const created = await cliWith(stackEnv, "create", "--merchant", merchant);
          expect(created).toMatchObject({ code: 0, stderr: expect.stringContaining("the running local stack's database") });
          const key = created.stdout.match(KEY)![0]!;
          expect(await new ApiKeyService(stackDataSource, { apiKeyCacheSeconds: 0 }).authenticate(key)).not.toBeNull();
        } finally {
          await stackDataSource.destroy();
        }
      } finally {
        await served.stop();
      }
      expect(fs.existsSync(path.join(API_DIR, ".local"))).toBe(false);
    });

    it("refuses, saying what to do, while the stack runs but its database does not answer", async () => {
      writeStack({ databaseUrl: "postgres://postgres@127.0.0.1:1/postgres", pgliteDir: path.join(stackDir, "pglite"), pid: process.pid });
      const refused = await cliWith(stackEnv, "create", "--merchant", merchant);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/cannot open the running local stack's database .*wait until `npm start` prints ready, or stop the stack/);
      expect(fs.existsSync(path.join(stackDir, "pglite"))).toBe(false);
    });

    it("uses the stack's own folder (not one under apps/api) when the stack is not running", async () => {
      // A stack file left by a stack that is gone: its process no longer exists.
      writeStack({ databaseUrl: "postgres://postgres@127.0.0.1:1/postgres", pgliteDir: path.join(stackDir, "pglite"), pid: 2 ** 22 + 12_345 });
      const created = await cliWith(stackEnv, "create", "--merchant", merchant);
      expect(created).toMatchObject({
        code: 0,
        stderr: expect.stringContaining(`the embedded database in ${path.join(stackDir, "pglite")} (the local stack's`),
      });
      const key = created.stdout.match(KEY)![0]!;
      const embedded = await openDatabase({ pgliteDir: path.join(stackDir, "pglite") });
      try {
        expect(await new ApiKeyService(embedded, { apiKeyCacheSeconds: 0 }).authenticate(key)).not.toBeNull();
      } finally {
        await embedded.destroy();
      }
      expect(fs.existsSync(path.join(API_DIR, ".local"))).toBe(false);
    });
  });
});
