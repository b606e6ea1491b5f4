import { databaseUrlForLogs, urlOrigin } from "./url";

describe("URLs in logs", () => {
  it("keep only the scheme and host of an RPC URL, whose path or query may hold an API key", () => {
    expect(urlOrigin("https://eth.example.com/v3/0123456789abcdef?key=secret")).toBe("https://eth.example.com");
    expect(urlOrigin("http://user:pw@127.0.0.1:8545")).toBe("http://127.0.0.1:8545");
    expect(urlOrigin("not a url secret")).toBe("(not a URL)");
  });

  it("keep the user, host and database of a database URL, never its password", () => {
    expect(databaseUrlForLogs("postgres://raffle:s3cret@db.internal:5432/raffle?sslmode=require")).toBe("postgres://raffle@db.internal:5432/raffle");
    expect(databaseUrlForLogs("postgres://127.0.0.1:1/none")).toBe("postgres://127.0.0.1:1/none");
  });

  it("never show what follows a scheme without // (a path that holds user:password@host)", () => {
    expect(databaseUrlForLogs("postgres:/raffle:s3cret@db.internal/raffle")).toBe("(not a URL)");
    expect(databaseUrlForLogs("postgresql:raffle:s3cret@db/raffle")).toBe("(not a URL)");
    expect(urlOrigin("redis:/default:s3cret@cache:6379")).toBe("(not a URL)");
  });
});
