import { ConfigError } from "./env";
import { PlatformError, isRetryable } from "./errors";

describe("PlatformError and isRetryable", () => {
  it("carries a code and answers retryable from its own flag", () => {
    const busy = new PlatformError("chainUnavailable", "the node does not answer", true);
    const wrong = new PlatformError("chainNotServed", "chain 5 is not served", false);
    expect(busy).toBeInstanceOf(Error);
    expect([busy.code, busy.message]).toEqual(["chainUnavailable", "the node does not answer"]);
    expect(isRetryable(busy)).toBe(true);
    expect(isRetryable(wrong)).toBe(false);
  });

  it("says a configuration error is not retryable: the same settings fail the same way", () => {
    const error = new ConfigError(["RPC_URL is missing", "PORT is not a number"]);
    expect(error).toBeInstanceOf(PlatformError);
    expect(error.code).toBe("invalidConfiguration");
    expect(error.message).toBe("RPC_URL is missing; PORT is not a number");
    expect(isRetryable(error)).toBe(false);
  });

  it("reads the same flag on errors of the same shape that cannot extend it (the SDK's RaffleApiError)", () => {
    class ShapedError extends Error {
      constructor(readonly retryable: boolean) {
        super("shaped");
      }
    }
    expect(isRetryable(new ShapedError(false))).toBe(false);
    expect(isRetryable(new ShapedError(true))).toBe(true);
  });

  it("lets any other failure be tried again (a dropped connection, a timeout)", () => {
    expect(isRetryable(new Error("ECONNREFUSED"))).toBe(true);
    expect(isRetryable("a string")).toBe(true);
  });
});
