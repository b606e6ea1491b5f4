import { randomBytes } from "node:crypto";
import { Wallet } from "ethers";
import type { DataSource } from "typeorm";
import { openDatabase } from "@raffle/db";
import { createTestDatabase, type TestDatabase } from "@raffle/db/testing";
import { eventually } from "@raffle/testing";

import { ApiKeyService, storedIp, storedUserAgent } from "./api-key.service";

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

  it("records who used a key (User-Agent, IP) in the same write as its last use, once a minute, display-safe", async () => {
    const keys = new ApiKeyService(dataSource, { apiKeyCacheSeconds: 60 });
    const issued = await keys.create(Wallet.createRandom().address);
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
      // A hostile client: direction overrides and a newline to fake a second line in the console, 1,000 characters.
      const agent = `game-server/2.1\n\u202eevil\u202c ${"x".repeat(1_000)}`;
      expect(await keys.authenticate(issued.key, { userAgent: agent, ip: "203.0.113.7" })).not.toBeNull();
      for (let call = 0; call < 20; call += 1) await keys.authenticate(issued.key, { userAgent: "other/1.0", ip: "198.51.100.1" });
    } finally {
      jest.restoreAllMocks();
    }
    expect(updates).toEqual([
      { lastUsedAt: expect.any(Date), lastUsedUserAgent: expect.stringMatching(/^game-server\/2\.1 evil /), lastUsedIp: "203.0.113.7" },
    ]);
    const row = await eventually(async () => {
      const [found] = await dataSource.query(`SELECT last_used_user_agent, last_used_ip FROM api_key WHERE id = $1`, [issued.id]);
      if (!found.last_used_ip) throw new Error("use not written yet");
      return found;
    });
    expect(row.last_used_ip).toBe("203.0.113.7");
    expect(row.last_used_user_agent).toHaveLength(200);
    expect(row.last_used_user_agent).not.toMatch(/[\n\u202e\u202c]/);
  });

  it("keeps a User-Agent and an IP only in a form the console can show", () => {
    expect(storedUserAgent(undefined)).toBeNull();
    expect(storedUserAgent(" \t ")).toBeNull();
    expect(storedUserAgent(["curl/8.5.0", "second"])).toBe("curl/8.5.0");
    expect(storedUserAgent("a\u0000b\u2066c")).toBe("a b c");
    expect(storedIp("::ffff:127.0.0.1")).toBe("::ffff:127.0.0.1");
    expect(storedIp("10.0.0.1, 10.0.0.2")).toBeNull();
    expect(storedIp("<script>")).toBeNull();
    expect(storedIp(undefined)).toBeNull();
  });
});
