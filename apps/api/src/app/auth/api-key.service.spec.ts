import { randomBytes } from "node:crypto";
import { Wallet } from "ethers";
import type { DataSource } from "typeorm";
import { openDatabase } from "@raffle/db";
import { createTestDatabase, type TestDatabase } from "@raffle/db/testing";
import { eventually } from "@raffle/testing";

import { ApiKeyService } from "./api-key.service";

describe("ApiKeyService's cache", () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase("api_key_cache");
    dataSource = await openDatabase({ url: database.url });
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  it("keeps nothing for malformed, unknown or wrong tokens", async () => {
    const keys = new ApiKeyService(dataSource, { apiKeyCacheSeconds: 60 });
    const issued = await keys.create(Wallet.createRandom().address);
    const tokens = [
      ...Array.from({ length: 300 }, () => `x${randomBytes(2_000).toString("hex")}`),
      ...Array.from({ length: 100 }, () => `rk_${randomBytes(6).toString("hex")}_${randomBytes(32).toString("base64url")}`),
      `rk_${issued.prefix}_${randomBytes(32).toString("base64url")}`,
    ];
    for (const token of tokens) expect(await keys.authenticate(token)).toBeNull();
    expect(keys.cachedKeys).toBe(0);
    expect(await keys.authenticate(issued.key)).toMatchObject({ merchantId: issued.merchantId, apiKeyId: issued.id });
    expect(keys.cachedKeys).toBe(1);
  });

  it("when full, lets the key cached longest ago go and keeps the others", async () => {
    const keys = new ApiKeyService(dataSource, { apiKeyCacheSeconds: 60, apiKeyCacheMaxEntries: 3 });
    const issued = [];
    for (let index = 0; index < 4; index += 1) issued.push(await keys.create(Wallet.createRandom().address));
    for (const key of issued) expect(await keys.authenticate(key.key)).not.toBeNull();
    expect(keys.cachedKeys).toBe(3);
    // Revoked behind the cache's back: only a key that is no longer cached sees it at once.
    await dataSource.query("UPDATE api_key SET revoked_at = now()");
    expect(await keys.authenticate(issued[0].key)).toBeNull();
    for (const key of issued.slice(1)) expect(await keys.authenticate(key.key)).toMatchObject({ apiKeyId: key.id });
  });

  it("records a revoked key's refused use with one write a minute, however many calls come", async () => {
    const keys = new ApiKeyService(dataSource, { apiKeyCacheSeconds: 60 });
    const issued = await keys.create(Wallet.createRandom().address);
    await keys.revoke(String(issued.id));
    const updates: unknown[] = [];
    const repository = dataSource.getRepository("ApiKeyEntity");
    const update = repository.update.bind(repository);
    jest.spyOn(dataSource, "getRepository").mockReturnValue(
      Object.assign(Object.create(repository), {
        update: (...args: Parameters<typeof update>) => {
          updates.push(args[1]);
          return update(...args);
        },
      }),
    );
    try {
      for (let call = 0; call < 50; call += 1) expect(await keys.authenticate(issued.key)).toBeNull();
    } finally {
      jest.restoreAllMocks();
    }
    expect(updates).toEqual([{ lastRejectedAt: expect.any(Date) }]);
    const row = await eventually(async () => {
      const [found] = await dataSource.query(`SELECT last_rejected_at, last_used_at FROM api_key WHERE id = $1`, [issued.id]);
      if (!found.last_rejected_at) throw new Error("refused use not written yet");
      return found;
    });
    expect(row.last_used_at).toBeNull();
  });
});
