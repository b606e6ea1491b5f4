import { chainEnvs } from "./chains";
import { ConfigError } from "./env";
import { readChainSettings, readSettings } from "./read-settings";
import { setting } from "./settings";

/** The ConfigError `read` throws (fails the test when it throws none, or another error). */
function refusal(read: () => unknown): ConfigError {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error("no ConfigError thrown");
}

describe("readSettings", () => {
  const shape = {
    PORT: setting.integer().default(3000),
    WORKERS: setting.integer({ min: 1 }).default(1),
    FEE_BUMP_PERCENT: setting.decimal({ min: 12.5 }).default(25),
    METRICS_ENABLED: setting.flag().default(true),
    API_KEY: setting.text(),
    TIME_ZONE: setting.text().default("UTC"),
    RPC_URL: setting.httpUrl().optional(),
  };

  it("parses each named variable, and falls back on its default when it is unset or empty", () => {
    expect(readSettings({ API_KEY: "k" }, shape)).toEqual({
      PORT: 3000,
      WORKERS: 1,
      FEE_BUMP_PERCENT: 25,
      METRICS_ENABLED: true,
      API_KEY: "k",
      TIME_ZONE: "UTC",
    });
    const empty = { PORT: "", WORKERS: "", FEE_BUMP_PERCENT: "", METRICS_ENABLED: "", TIME_ZONE: "", RPC_URL: "" };
    expect(readSettings({ ...empty, API_KEY: "k" }, shape)).toMatchObject({
      PORT: 3000,
      METRICS_ENABLED: true,
      TIME_ZONE: "UTC",
      RPC_URL: undefined,
    });
    expect(
      readSettings(
        {
          PORT: "8080",
          WORKERS: "4",
          FEE_BUMP_PERCENT: "12.5",
          METRICS_ENABLED: "NO",
          API_KEY: "k",
          TIME_ZONE: "Europe/Paris",
          RPC_URL: "https://node",
        },
        shape,
      ),
    ).toEqual({
      PORT: 8080,
      WORKERS: 4,
      FEE_BUMP_PERCENT: 12.5,
      METRICS_ENABLED: false,
      API_KEY: "k",
      TIME_ZONE: "Europe/Paris",
      RPC_URL: "https://node",
    });
  });

  it("reports every bad variable at once, each by name, in the order of the shape", () => {
    const error = refusal(() => readSettings({ PORT: "80.5", WORKERS: "0", FEE_BUMP_PERCENT: "10", METRICS_ENABLED: "maybe", API_KEY: "" }, shape));
    expect(error.problems).toEqual([
      'PORT must be an integer >= 0, got "80.5"',
      'WORKERS must be an integer >= 1, got "0"',
      'FEE_BUMP_PERCENT must be a number >= 12.5, got "10"',
      'METRICS_ENABLED must be true or false, got "maybe"',
      "API_KEY is required",
    ]);
    expect(error.message).toBe(error.problems.join("; "));
  });

  it("reads a flag as 1, true or yes and 0, false or no, in any case", () => {
    const flag = { ON: setting.flag() };
    for (const on of ["1", "true", "TRUE", "yes", "Yes"]) expect(readSettings({ ON: on }, flag).ON).toBe(true);
    for (const off of ["0", "false", "False", "no", "NO"]) expect(readSettings({ ON: off }, flag).ON).toBe(false);
    expect(refusal(() => readSettings({ ON: "on" }, flag)).message).toBe('ON must be true or false, got "on"');
  });

  it("says why a required variable is needed when told", () => {
    const rpc = { CHAIN_8453_RPC_URL: setting.httpUrl({ why: "for chain 8453" }) };
    expect(refusal(() => readSettings({}, rpc)).message).toBe("CHAIN_8453_RPC_URL is required for chain 8453");
  });

  describe("URLs", () => {
    const urls = {
      RPC_URL: setting.httpUrl().optional(),
      WS_URL: setting.wsUrl().optional(),
      DATABASE_URL: setting.postgresUrl().optional(),
      REDIS_URL: setting.redisUrl().optional(),
    };

    it("accept their schemes and answer the URL as written", () => {
      const good = {
        RPC_URL: "https://user:pw@eth.example.com/v3/0123456789abcdef?x=1",
        WS_URL: "wss://eth.example.com/ws/v3/0123456789abcdef",
        DATABASE_URL: "postgres://raffle:s3cret@db.internal:5432/raffle?sslmode=require",
        REDIS_URL: "rediss://default:s3cret@cache.internal:6380",
      };
      expect(readSettings(good, urls)).toEqual(good);
      expect(readSettings({ RPC_URL: "http://127.0.0.1:8545", WS_URL: "ws://node", DATABASE_URL: "postgresql://db/raffle" }, urls)).toMatchObject({
        RPC_URL: "http://127.0.0.1:8545",
      });
    });

    it("refuse another scheme or something that is not a URL by name, and never echo it", () => {
      const secret = "0123456789abcdef";
      const bad = {
        RPC_URL: `ws://eth.example.com/v3/${secret}`,
        WS_URL: `eth.example.com/v3/${secret}`,
        DATABASE_URL: `mysql://raffle:${secret}@db/raffle`,
        REDIS_URL: `http:/${secret}`,
      };
      const error = refusal(() => readSettings(bad, urls));
      expect(error.problems).toEqual([
        "RPC_URL must be an http:// or https:// URL, got a ws:// URL",
        "WS_URL must be a ws:// or wss:// URL, got something that is not a URL",
        "DATABASE_URL must be a postgres:// or postgresql:// URL, got a mysql:// URL",
        "REDIS_URL must be a redis:// or rediss:// URL, got a http:// URL",
      ]);
      expect(error.message).not.toContain(secret);
      expect(error.message).not.toContain("example.com");
      // A scheme is named only when it is a known one: what parses as a scheme may be a user name or a key.
      expect(refusal(() => readSettings({ DATABASE_URL: `raffle:${secret}@db/raffle`, REDIS_URL: `key${secret}://cache` }, urls)).problems).toEqual([
        "DATABASE_URL must be a postgres:// or postgresql:// URL, got something that is not a URL",
        "REDIS_URL must be a redis:// or rediss:// URL, got a URL of another scheme",
      ]);
      // zod's own guard: an http URL missing its "//" is malformed, not another scheme.
      expect(refusal(() => readSettings({ RPC_URL: `http:/${secret}` }, urls)).message).toBe(
        "RPC_URL must be an http:// or https:// URL, got something that is not a URL",
      );
    });
  });

  it("refuses a URL without // before its host, whose path would hold the password, and never echoes it", () => {
    const urls = { DATABASE_URL: setting.postgresUrl().optional(), REDIS_URL: setting.redisUrl().optional(), RPC_URL: setting.httpUrl().optional() };
    const error = refusal(() =>
      readSettings(
        { DATABASE_URL: "postgres:/raffle:s3cret@db.internal/raffle", REDIS_URL: "redis:/default:s3cret@cache:6379", RPC_URL: "https:/x" },
        urls,
      ),
    );
    expect(error.problems).toEqual([
      'DATABASE_URL must be a postgres:// or postgresql:// URL with a host after "//", got something that is not a URL',
      'REDIS_URL must be a redis:// or rediss:// URL with a host after "//", got something that is not a URL',
      "RPC_URL must be an http:// or https:// URL, got something that is not a URL",
    ]);
    expect(error.message).not.toContain("s3cret");
    expect(refusal(() => readSettings({ DATABASE_URL: "postgresql:raffle:s3cret@db/raffle" }, urls)).message).not.toContain("s3cret");
    expect(refusal(() => readSettings({ REDIS_URL: "redis:///s3cret" }, urls)).message).toMatch(/^REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/);
  });

  it("reads integers and ports as decimal digits only, and ports up to 65535", () => {
    const shape = { PORT: setting.port().default(3000), COUNT: setting.integer({ min: 1 }).optional() };
    expect(readSettings({ PORT: "8080", COUNT: " 12 " }, shape)).toEqual({ PORT: 8080, COUNT: 12 });
    expect(readSettings({ PORT: "0" }, shape).PORT).toBe(0);
    expect(readSettings({ PORT: "65535" }, shape).PORT).toBe(65_535);
    expect(refusal(() => readSettings({ PORT: "1e3", COUNT: "0x10" }, shape)).problems).toEqual([
      'PORT must be an integer from 0 to 65535, got "1e3"',
      'COUNT must be an integer >= 1, got "0x10"',
    ]);
    expect(refusal(() => readSettings({ PORT: "0x10" }, shape)).message).toBe('PORT must be an integer from 0 to 65535, got "0x10"');
    expect(refusal(() => readSettings({ PORT: "99999" }, shape)).message).toBe('PORT must be an integer from 0 to 65535, got "99999"');
    expect(refusal(() => readSettings({ COUNT: "1.0" }, shape)).message).toBe('COUNT must be an integer >= 1, got "1.0"');
  });

  it("reads a listening address: an IP address or a host name, never a URL or host:port (issue 31: HOST, HEALTH_HOST)", () => {
    const shape = { HOST: setting.host().default("0.0.0.0") };
    expect(readSettings({}, shape).HOST).toBe("0.0.0.0");
    expect(readSettings({ HOST: " 127.0.0.1 " }, shape).HOST).toBe("127.0.0.1");
    expect(readSettings({ HOST: "::" }, shape).HOST).toBe("::");
    expect(readSettings({ HOST: "::1" }, shape).HOST).toBe("::1");
    expect(readSettings({ HOST: "api.internal" }, shape).HOST).toBe("api.internal");
    for (const bad of ["http://127.0.0.1", "127.0.0.1:3000", "0.0.0.0/0", "my host", "-bad.example"]) {
      expect(refusal(() => readSettings({ HOST: bad }, shape)).message).toBe(
        `HOST must be an IP address (like 0.0.0.0, 127.0.0.1 or ::) or a host name, without a scheme or port, got "${bad}"`,
      );
    }
  });

  it("reads a choice trimmed and in lower case, and lists the choices when it refuses one", () => {
    const levels = { LEVEL: setting.oneOf(["error", "info"]).default("info") };
    expect(readSettings({ LEVEL: " ERROR " }, levels).LEVEL).toBe("error");
    expect(readSettings({}, levels).LEVEL).toBe("info");
    expect(refusal(() => readSettings({ LEVEL: "verbose" }, levels)).message).toBe('LEVEL must be one of error, info, got "verbose"');
  });

  it("reads an app's own kind of value through its parser", () => {
    const cents = (raw: string) => (/^\d+(\.\d\d)?$/.test(raw) ? Math.round(Number(raw) * 100) : undefined);
    const shape = { PRICE: setting.parsed(cents, "an amount like 1.50").default(100) };
    expect(readSettings({ PRICE: "2.50" }, shape).PRICE).toBe(250);
    expect(readSettings({}, shape).PRICE).toBe(100);
    expect(refusal(() => readSettings({ PRICE: "2.5" }, shape)).message).toBe('PRICE must be an amount like 1.50, got "2.5"');
  });
});

describe("readChainSettings", () => {
  const options = { defaultChainId: 31337, unshared: ["RPC_URL"] };
  const shape = { RPC_URL: setting.httpUrl(), CONFIRMATIONS: setting.integer({ min: 1 }).default(2) };

  it("reads each chain's own variables, by setting, and names them in messages", () => {
    const env = { CHAIN_IDS: "1,8453", CHAIN_1_RPC_URL: "https://one", CHAIN_8453_RPC_URL: "https://base", CHAIN_8453_CONFIRMATIONS: "5" };
    const [one, base] = chainEnvs(env, options);
    expect(readChainSettings(env, one, shape)).toEqual({ RPC_URL: "https://one", CONFIRMATIONS: 2 });
    expect(readChainSettings(env, base, shape)).toEqual({ RPC_URL: "https://base", CONFIRMATIONS: 5 });
    const bad = { ...env, CHAIN_8453_RPC_URL: "", CHAIN_8453_CONFIRMATIONS: "0" };
    expect(refusal(() => readChainSettings(bad, base, shape)).problems).toEqual([
      "CHAIN_8453_RPC_URL is required",
      'CHAIN_8453_CONFIRMATIONS must be an integer >= 1, got "0"',
    ]);
  });

  it("reads the plain names of a one-chain environment", () => {
    const env = { RPC_URL: "http://node", CONFIRMATIONS: "x" };
    const [chain] = chainEnvs(env, options);
    expect(refusal(() => readChainSettings(env, chain, shape)).message).toBe('CONFIRMATIONS must be an integer >= 1, got "x"');
  });
});
