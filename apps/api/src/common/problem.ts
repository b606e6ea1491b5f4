import { HttpException } from "@nestjs/common";

/** One bad field of a request, as listed in a validation problem. */
export interface FieldError {
  field: string;
  message: string;
}

/**
 * An error the API answers with, as RFC 9457 problem details plus a stable camelCase `code`.
 * Throw it anywhere; the problem filter renders it as `application/problem+json`.
 */
export class ApiProblem extends HttpException {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    readonly detail: string,
    readonly errors?: FieldError[],
    readonly headers: Record<string, string> = {},
  ) {
    super(detail, statusCode);
  }
}

export const problems = {
  // RFC 9110 §15.5.2: a 401 must name the scheme the client should use.
  unauthorized: () =>
    new ApiProblem(401, "unauthorized", "A valid merchant API key is required: Authorization: Bearer <key>.", undefined, {
      "WWW-Authenticate": 'Bearer realm="raffle-api"',
    }),
  validationFailed: (errors: FieldError[]) => new ApiProblem(400, "validationFailed", "The request has invalid fields.", errors),
  contractNotFound: (contractId: number) => new ApiProblem(404, "contractNotFound", `No raffle contract ${contractId} for this merchant.`),
  roundNotFound: (contractId: number) => new ApiProblem(404, "roundNotFound", `Raffle contract ${contractId} has no active round.`),
  roundEnded: (contractId: number) => new ApiProblem(409, "roundEnded", `The latest round of raffle contract ${contractId} has ended.`),
  roundFull: (contractId: number, maxTickets: number) =>
    new ApiProblem(409, "roundFull", `The active round of raffle contract ${contractId} sold all ${maxTickets} tickets.`),
  contractPaused: (contractId: number) => new ApiProblem(409, "contractPaused", `Raffle contract ${contractId} is paused.`),
  contractInactive: (contractId: number) => new ApiProblem(409, "contractInactive", `Raffle contract ${contractId} is not active.`),
  exchangePaused: () =>
    new ApiProblem(409, "exchangePaused", "The platform's Exchange is paused: no purchase or claim goes through until it is unpaused."),
  signerNotAuthorized: (signer: string, exchange: string) =>
    new ApiProblem(
      503,
      "signerNotAuthorized",
      `The API's voucher key ${signer} does not hold SIGNER_ROLE on the Exchange ${exchange}, so no voucher it signs would be accepted.`,
      undefined,
      { "Retry-After": "30" },
    ),
  chainUnavailable: () =>
    new ApiProblem(503, "chainUnavailable", "The chain node has not answered yet, so the voucher key's SIGNER_ROLE is unverified; retry shortly.", undefined, {
      "Retry-After": "5",
    }),
  claimNotFound: (claimId: number) => new ApiProblem(404, "claimNotFound", `No claim ${claimId} for this merchant.`),
  claimNotCancelable: (claimId: number, status: string) =>
    new ApiProblem(409, "claimNotCancelable", `Claim ${claimId} is ${status}: only a NEW voucher can be canceled.`),
  invalidJson: () => new ApiProblem(400, "invalidJson", "The request body is not a JSON object or array."),
  unsupportedMediaType: (detail: string) => new ApiProblem(415, "unsupportedMediaType", detail),
  tooManyRequests: (retryAfterSeconds: number, scope: string) =>
    new ApiProblem(429, "tooManyRequests", `Too many signature requests for this ${scope}; retry later.`, undefined, {
      "Retry-After": String(retryAfterSeconds),
    }),
};
