import { isRetryable } from "@raffle/config";

import {
  ChainNotServedError,
  ChainUnavailableError,
  DependencyUnavailableError,
  ExchangePausedError,
  SignerNotAuthorizedError,
} from "../services/errors";
import { infrastructureProblem } from "./infrastructure-problems";

const SIGNER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const EXCHANGE = "0x5FbDB2315678afecb367f032d93F642f64180aa3";

describe("infrastructureProblem: the services' errors at the HTTP edge", () => {
  it.each([
    [new ChainNotServedError(137, [31337, 8453]), 422, "chainNotServed", "Chain 137 is not served by this API; it serves chain 31337, 8453.", false],
    [new SignerNotAuthorizedError(SIGNER, EXCHANGE), 503, "signerNotAuthorized", `The API's voucher key ${SIGNER} does not hold`, true],
    [new ChainUnavailableError(), 503, "chainUnavailable", "The chain node has not answered yet", true],
    [new ExchangePausedError(), 409, "exchangePaused", "The platform's Exchange is paused", true],
    [new DependencyUnavailableError("rateLimiter"), 503, "serviceUnavailable", "Rate limiting is unavailable; retry shortly.", true],
  ])("%s becomes the catalogue's problem of the same code", (error, status, code, detail, retryable) => {
    const problem = infrastructureProblem(error);
    expect(problem?.statusCode).toBe(status);
    expect(problem?.code).toBe(code);
    expect(error.code).toBe(code);
    expect(problem?.detail.startsWith(detail)).toBe(true);
    expect(isRetryable(error)).toBe(retryable);
  });

  it("keeps the Retry-After of the unavailable dependencies", () => {
    expect(infrastructureProblem(new ChainUnavailableError())?.headers).toEqual({ "Retry-After": "5" });
    expect(infrastructureProblem(new SignerNotAuthorizedError(SIGNER, EXCHANGE))?.headers).toEqual({ "Retry-After": "30" });
  });

  it("leaves any other error to the filter", () => {
    expect(infrastructureProblem(new Error("boom"))).toBeUndefined();
  });
});
