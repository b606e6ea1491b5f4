/** One bad field of a request (or, for `notReady`, one dependency that does not hold). */
export interface FieldError {
  field: string;
  message: string;
}

/** What a catalogue entry makes of its arguments: the problem's text, and its field errors and headers if any. */
export interface ProblemContent {
  detail: string;
  errors?: FieldError[];
  headers?: Record<string, string>;
  /** Members the problem adds beside RFC 9457's (gaslessDuplicate's `existingId`). */
  extensions?: Record<string, string>;
}

interface ProblemDefinition<Args extends unknown[]> {
  status: number;
  /** When the API answers it: the OpenAPI document lists this under the status of every route that can answer it. */
  description: string;
  content: (...args: Args) => ProblemContent;
  /** Arguments of the example in the OpenAPI document. */
  example: Args;
}

function define<Args extends unknown[]>(definition: ProblemDefinition<Args>): ProblemDefinition<Args> {
  return definition;
}

const RETRY_SHORTLY = { "Retry-After": "1" };

/**
 * Every error the API answers, by its stable camelCase code. Nothing else builds a problem: `problems.<code>(...)`
 * makes one from here, and the OpenAPI document takes each route's statuses, codes and examples from here, so a new
 * code cannot be answered without being documented.
 */
export const PROBLEM_CATALOGUE = {
  validationFailed: define({
    status: 400,
    description: "a query parameter or body field is invalid; `errors` lists each bad field",
    content: (errors: FieldError[]) => ({ detail: "The request has invalid fields.", errors }),
    example: [[{ field: "take", message: "take must not be greater than 100" }]],
  }),
  invalidJson: define({
    status: 400,
    description: "the body is not a JSON object or array, nests objects or arrays deeper than 32 levels, or holds a `__proto__` or `constructor` key",
    content: (detail = "The request body is not a JSON object or array.") => ({ detail }),
    example: [],
  }),
  badRequest: define({
    status: 400,
    description: "the request URL or framing cannot be read (a broken percent-encoding in the path, for one)",
    content: (reason: string) => ({ detail: reason }),
    example: ["The request URL could not be read: '/claims/%E0%A4%A' is not a valid url component"],
  }),
  unauthorized: define({
    status: 401,
    description: "no valid `Authorization: Bearer <merchant API key>` (missing, unknown, revoked, or another scheme)",
    // RFC 9110 §15.5.2: a 401 must name the scheme the client should use.
    content: () => ({
      detail: "A valid merchant API key is required: Authorization: Bearer <key>.",
      headers: { "WWW-Authenticate": 'Bearer realm="raffle-api"' },
    }),
    example: [],
  }),
  notFound: define({
    status: 404,
    description: "no route answers this method and path",
    content: (method: string, path: string) => ({ detail: `Cannot ${method} ${path}.` }),
    example: ["GET", "/raffle/contract"],
  }),
  contractNotFound: define({
    status: 404,
    description: "the raffle contract is unknown or another merchant's",
    content: (contractId: number) => ({ detail: `No raffle contract ${contractId} for this merchant.` }),
    example: [3],
  }),
  roundNotFound: define({
    status: 404,
    description: "the raffle has no round yet",
    content: (contractId: number) => ({ detail: `Raffle contract ${contractId} has no round yet.` }),
    example: [3],
  }),
  claimNotFound: define({
    status: 404,
    description: "the claim is unknown or another merchant's (an id that is not a positive 32-bit integer too)",
    content: (claimId?: number) => ({
      detail: claimId === undefined ? "No such claim for this merchant." : `No claim ${claimId} for this merchant.`,
    }),
    example: [42],
  }),
  webhookNotFound: define({
    status: 404,
    description: "the webhook endpoint is unknown or another merchant's",
    content: (webhookId?: number) => ({
      detail: webhookId === undefined ? "No such webhook for this merchant." : `No webhook ${webhookId} for this merchant.`,
    }),
    example: [7],
  }),
  deliveryNotFound: define({
    status: 404,
    description: "the delivery is unknown or not of this webhook",
    content: (webhookId: number, deliveryId?: string) => ({
      detail: deliveryId === undefined ? `No such delivery of webhook ${webhookId}.` : `No delivery ${deliveryId} of webhook ${webhookId}.`,
    }),
    example: [7, "42"],
  }),
  webhookLimitReached: define({
    status: 409,
    description: "the merchant already has the most webhook endpoints allowed (16, as Stripe allows per account); delete one first",
    content: (limit: number) => ({ detail: `A merchant may register at most ${limit} webhook endpoints; delete one to add another.` }),
    example: [16],
  }),
  retryLimited: define({
    status: 429,
    description:
      "a manual retry came too soon: the same delivery was retried by hand within the last minute, or its endpoint had 10 manual retries this minute; wait `Retry-After` seconds",
    content: (retryAfterSeconds: number, reason: string) => ({
      detail: `Manual retry refused: ${reason}.`,
      headers: { "Retry-After": String(retryAfterSeconds) },
    }),
    example: [42, "this delivery was retried by hand less than 60 s ago"],
  }),
  webhookUrlInvalid: define({
    status: 400,
    description: "the webhook URL is not an absolute https:// URL (http:// only where private URLs are allowed), or carries credentials",
    content: (reason: string) => ({ detail: `The webhook URL is not accepted: ${reason}.`, errors: [{ field: "url", message: reason }] }),
    example: ["url must be an https:// URL"],
  }),
  webhookUrlRefused: define({
    status: 400,
    description:
      "the webhook URL's host does not resolve, or resolves to a loopback, private, link-local, metadata, reserved or IPv6 transition (NAT64, 6to4, Teredo) address; one answer for all, so it tells nothing of which internal names exist",
    content: (reason: string) => ({ detail: `The webhook URL is refused: ${reason}.`, errors: [{ field: "url", message: reason }] }),
    example: ["the url's host must resolve, and only to public addresses"],
  }),
  roundEnded: define({
    status: 409,
    description: "the raffle's latest round has ended and the next one has not started",
    content: (contractId: number) => ({ detail: `The latest round of raffle contract ${contractId} has ended.` }),
    example: [3],
  }),
  roundFull: define({
    status: 409,
    description: "the active round has fewer tickets left than asked (none when it sold all its tickets); the detail says how many are left",
    content: (contractId: number, maxTickets: number, left = 0, quantity = 1) => ({
      detail:
        left === 0
          ? `The active round of raffle contract ${contractId} sold all ${maxTickets} tickets.`
          : `The active round of raffle contract ${contractId} has ${left} of its ${maxTickets} tickets left, fewer than the ${quantity} asked.`,
    }),
    example: [3, 1000, 3, 5],
  }),
  walletLimitReached: define({
    status: 409,
    description: "the buyer's tickets in the active round plus the quantity asked would pass the round's tickets-per-wallet cap",
    content: (contractId: number, account: string, held: number, quantity: number, max: number) => ({
      detail: `${account} bought ${held} tickets of the active round of raffle contract ${contractId}; ${quantity} more would pass its cap of ${max} per wallet.`,
    }),
    example: [3, "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc", 8, 5, 10],
  }),
  roundIdNotFound: define({
    status: 404,
    description: "the round is unknown or of another merchant's raffle (an id that is not a positive 32-bit integer too)",
    content: (id?: number) => ({ detail: id === undefined ? "No such round for this merchant." : `No round ${id} for this merchant.` }),
    example: [7],
  }),
  contractPaused: define({
    status: 409,
    description: "the raffle contract is paused",
    content: (contractId: number) => ({ detail: `Raffle contract ${contractId} is paused.` }),
    example: [3],
  }),
  contractInactive: define({
    status: 409,
    description: "the raffle contract is not ACTIVE",
    content: (contractId: number) => ({ detail: `Raffle contract ${contractId} is not active.` }),
    example: [3],
  }),
  exchangePaused: define({
    status: 409,
    description: "the platform's Exchange is paused, so no voucher would go through",
    content: () => ({ detail: "The platform's Exchange is paused: no purchase or claim goes through until it is unpaused." }),
    example: [],
  }),
  claimNotCancelable: define({
    status: 409,
    description: "only a NEW voucher can be canceled",
    content: (claimId: number, status: string) => ({ detail: `Claim ${claimId} is ${status}: only a NEW voucher can be canceled.` }),
    example: [42, "REDEEMED"],
  }),
  chainNotServed: define({
    status: 422,
    description:
      "the raffle or claim, or the `chainId` asked for, is on a chain this API deployment does not serve: only a deployment of that chain can sign for it or read it",
    content: (chainId: number, served: number[]) => ({ detail: `Chain ${chainId} is not served by this API; it serves chain ${served.join(", ")}.` }),
    example: [137, [31337, 8453]],
  }),
  payloadTooLarge: define({
    status: 413,
    description: "the body is over 16 kB",
    content: (reason: string) => ({ detail: reason }),
    example: ["Request body is too large"],
  }),
  unsupportedMediaType: define({
    status: 415,
    description: "the body is not UTF-8 `application/json`, or is compressed (`Content-Encoding`)",
    content: (reason: string) => ({ detail: reason }),
    example: ["Content-Encoding gzip is not accepted; send the body uncompressed."],
  }),
  tooManyRequests: define({
    status: 429,
    description:
      "too many requests in the window: signatures for this API key or this account, or from this client IP player requests, console sign-ins or public reads (RATE_LIMIT_* settings); wait `Retry-After` seconds",
    content: (retryAfterSeconds: number, scope: string) => ({
      detail: `Too many requests for this ${scope}; retry later.`,
      headers: { "Retry-After": String(retryAfterSeconds) },
    }),
    example: [12, "account"],
  }),
  internalError: define({
    status: 500,
    description: "an unexpected error; the details are logged, never answered",
    content: () => ({ detail: "An unexpected error occurred." }),
    example: [],
  }),
  serviceUnavailable: define({
    status: 503,
    description:
      "the database (or, for signing, the rate limiter's Redis; for a merchant's first console sign-in, the chain node) does not answer; retry after `Retry-After`",
    content: (dependency: "database" | "rateLimiter" | "chain") => ({
      detail: {
        database: "The database is unavailable; retry shortly.",
        rateLimiter: "Rate limiting is unavailable; retry shortly.",
        chain: "The chain node does not answer; retry shortly.",
      }[dependency],
      headers: RETRY_SHORTLY,
    }),
    example: ["database"],
  }),
  notReady: define({
    status: 503,
    description: "a dependency does not hold; `errors` names each (`database`, `redis`, `chain`, `deployment`, `signer`, `indexer`) and what to fix",
    content: (dependencies: FieldError[]) => ({
      detail: `Not ready: ${dependencies.map((dependency) => dependency.message).join("; ")}.`,
      errors: dependencies,
      headers: RETRY_SHORTLY,
    }),
    example: [[{ field: "indexer", message: "the index is 14 blocks behind the chain (READY_MAX_LAG_BLOCKS is 10)" }]],
  }),
  signerNotAuthorized: define({
    status: 503,
    description: "the API's voucher key lacks SIGNER_ROLE on the Exchange, so no voucher it signs would be accepted",
    content: (signer: string, exchange: string) => ({
      detail: `The API's voucher key ${signer} does not hold SIGNER_ROLE on the Exchange ${exchange}, so no voucher it signs would be accepted.`,
      headers: { "Retry-After": "30" },
    }),
    example: ["0x70997970C51812dc3A010C7d01b50e0d17dc79C8", "0x5FbDB2315678afecb367f032d93F642f64180aa3"],
  }),
  chainUnavailable: define({
    status: 503,
    description: "the chain node has not answered yet, so the voucher key's SIGNER_ROLE is unverified",
    content: () => ({
      detail: "The chain node has not answered yet, so the voucher key's SIGNER_ROLE is unverified; retry shortly.",
      headers: { "Retry-After": "5" },
    }),
    example: [],
  }),
  // Public sale and Sign-In with Ethereum (issue #29): what a player's browser is told, and shows as a sentence.
  sessionRequired: define({
    status: 401,
    description: "no valid player session: `Authorization: Bearer <session token>` is missing, unknown, expired or logged out",
    content: () => ({
      detail: "Sign in with Ethereum first: a valid player session is required (Authorization: Bearer <session token>).",
      headers: { "WWW-Authenticate": 'Bearer realm="raffle-player"' },
    }),
    example: [],
  }),
  siweMessageInvalid: define({
    status: 400,
    description:
      "the Sign-In with Ethereum message cannot be read, lacks a field the API requires (nonce, issuedAt, expirationTime), or is for the other sign-in: a console sign-in lists `urn:raffle:merchant-console` under Resources and names the console in its statement, a player's does not list it",
    content: (reason: string) => ({ detail: `The sign-in message is refused: ${reason}.`, errors: [{ field: "message", message: reason }] }),
    example: ["expirationTime is required"],
  }),
  siweDomainMismatch: define({
    status: 403,
    description: "the sign-in message's domain or URI is not one of the player app's origins (WEB_ORIGINS)",
    content: (domain: string) => ({ detail: `Sign-in messages for ${domain} are not accepted by this API.` }),
    example: ["evil.example"],
  }),
  siweExpired: define({
    status: 401,
    description: "the sign-in message has expired, is not valid yet, or asks for a session longer than the API grants",
    content: (reason: string) => ({ detail: `The sign-in message is no longer valid: ${reason}.` }),
    example: ["it expired at 2026-11-25T01:00:00.000Z"],
  }),
  siweNonceInvalid: define({
    status: 401,
    description:
      "the sign-in message's nonce was not issued by this API for this sign-in (the player's and the console's routes each issue their own), was already used, or expired; ask for a new one",
    content: () => ({ detail: "The sign-in nonce is unknown, used or expired; ask for a new one." }),
    example: [],
  }),
  siweSignatureInvalid: define({
    status: 401,
    description: "the signature was not made by the message's address",
    content: () => ({ detail: "The signature does not match the sign-in message's address." }),
    example: [],
  }),
  publicRaffleNotFound: define({
    status: 404,
    description: "no raffle with this id is on public sale on a chain this API serves",
    content: (contractId: number) => ({ detail: `No raffle ${contractId} is on public sale.` }),
    example: [3],
  }),
  // The merchant console (issue #30): a merchant's own Sign-In with Ethereum session and its self-service routes.
  merchantSessionRequired: define({
    status: 401,
    description:
      "no valid merchant console session: `Authorization: Bearer <ms_ session token>` is missing, unknown, expired or logged out (API keys cannot manage keys)",
    content: () => ({
      detail: "Sign in to the merchant console with the merchant's wallet first (Authorization: Bearer <session token>).",
      headers: { "WWW-Authenticate": 'Bearer realm="raffle-console"' },
    }),
    example: [],
  }),
  notAMerchant: define({
    status: 403,
    description: "the address that signed in is not the wallet of any merchant of this platform",
    content: (address: string) => ({ detail: `${address} is not the wallet of a merchant of this platform.` }),
    example: ["0x70997970C51812dc3A010C7d01b50e0d17dc79C8"],
  }),
  apiKeyLimitReached: define({
    status: 409,
    description: "the merchant already has the most active API keys allowed (20); revoke one first",
    content: (limit: number) => ({ detail: `A merchant may hold at most ${limit} active API keys; revoke one to make another.` }),
    example: [20],
  }),
  apiKeyNotFound: define({
    status: 404,
    description: "no API key with this id belongs to the calling merchant",
    content: (id: number) => ({ detail: `No API key ${id} of this merchant.` }),
    example: [4],
  }),
  apiKeyRevoked: define({
    status: 409,
    description: "the API key is revoked, or already rolled (its successor exists and its grace period is running)",
    content: (id: number) => ({ detail: `API key ${id} is revoked or already rolled; roll a key that still works.` }),
    example: [4],
  }),
  // Gasless purchases, claims and refunds (issue #52): the mailbox's refusals at submission, and the relayer's routes.
  voucherUnknown: define({
    status: 422,
    description:
      "the voucher was not issued by this API (its nonce is not in the voucher log, or its signature, raffle, buyer, price or quantity is not what the API signed), or is for another buyer than the session",
    content: (reason: string) => ({ detail: `The voucher is refused: ${reason}.` }),
    example: ["this API issued no voucher with this nonce"],
  }),
  voucherExpired: define({
    status: 422,
    description: "the voucher (or the buyer's intent) expires too soon for a relayer to submit it; ask for a new voucher and sign again",
    content: (expiresAt: number) => ({
      detail: `The voucher expires at ${new Date(expiresAt * 1000).toISOString()}, too soon to relay; ask for a new one.`,
    }),
    example: [1_900_000_000],
  }),
  buyerSignatureInvalid: define({
    status: 422,
    description:
      "the buyer's (or holder's) signature is not one the account made for this very request: another account's, another purpose's (an intent sent as an authorization), or over other terms (price, quantity, spender)",
    content: (account: string, what: string) => ({ detail: `The ${what} is not signed by ${account} for this request.` }),
    example: ["0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc", "ERC-3009 authorization"],
  }),
  authorizationMismatch: define({
    status: 422,
    description:
      "the authorization or permit does not fit the purchase: its validity window does not cover the time to relay it, the permit is for less than the price or its deadline has passed, or the body gives both or neither of `authorization` and `intent`",
    content: (reason: string) => ({ detail: `The signed authorization does not fit the purchase: ${reason}.` }),
    example: ["validBefore has passed"],
  }),
  insufficientBalance: define({
    status: 422,
    description: "the buyer's balance of the price token is below the price",
    content: (account: string, balance: string, price: string) => ({
      detail: `${account} holds ${balance} of the price token, less than the price ${price} (smallest units).`,
    }),
    example: ["0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc", "5000000000000000000", "10000000000000000000"],
  }),
  gaslessUnavailable: define({
    status: 409,
    description:
      "the raffle's merchant does not relay (its gasless setting is off), or the price token supports neither ERC-3009 nor EIP-2612, or the price is not an ERC20",
    content: (reason: string) => ({ detail: `Buying without gas is not available here: ${reason}.` }),
    example: ["the merchant does not relay purchases"],
  }),
  gaslessBudgetExhausted: define({
    status: 409,
    description: "the merchant's daily gas budget for relaying is spent (UTC day); buy with gas, or again tomorrow",
    content: () => ({ detail: "The merchant's gas budget for today is spent; buy with your own gas, or try again tomorrow (UTC)." }),
    example: [],
  }),
  gaslessPlayerLimitReached: define({
    status: 429,
    description: "the player reached the merchant's limit of gasless requests per UTC day",
    content: (limit: number) => ({ detail: `You reached this merchant's limit of ${limit} purchases without gas today (UTC).` }),
    example: [20],
  }),
  roundClosed: define({
    status: 409,
    description: "the voucher's round is no longer the raffle's open round (it ended, or another round started)",
    content: (contractId: number) => ({ detail: `The round of this voucher of raffle contract ${contractId} is closed; ask for a new voucher.` }),
    example: [3],
  }),
  gaslessDuplicate: define({
    status: 409,
    description: "this voucher (or this signed claim or refund) is already in the mailbox; `existingId` is its request",
    content: (existingId: string) => ({ detail: `This request is already in the mailbox as ${existingId}.`, extensions: { existingId } }),
    example: ["0b3f7a56-8c1d-4e2f-9a0b-1c2d3e4f5a6b"],
  }),
  notTicketHolder: define({
    status: 422,
    description: "the signer does not hold one of the tickets (as indexed), or a ticket is not of the raffle's round",
    content: (holder: string, ticketId: string) => ({ detail: `${holder} does not hold ticket ${ticketId} of this raffle's round.` }),
    example: ["0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc", "12"],
  }),
  gaslessRequestNotFound: define({
    status: 404,
    description: "no gasless request with this id is the caller's (a malformed id too)",
    content: () => ({ detail: "No such gasless request." }),
    example: [],
  }),
  relayJobNotHeld: define({
    status: 409,
    description:
      "the relay job's lease is not held by this relayerId (never leased to it, expired and taken by another), or the job is already final",
    content: (reason: string) => ({ detail: `The relay job is refused: ${reason}.` }),
    example: ["its lease is held by another relayer"],
  }),
  outcomeUnverified: define({
    status: 409,
    description:
      "the reported outcome does not match the chain: no successful receipt of the job's transaction, another target or calldata, or the purchase's or claim's events missing; or a failure reported for a job one of whose transactions succeeded",
    content: (reason: string) => ({ detail: `The outcome cannot be verified: ${reason}.` }),
    example: ["the transaction has no receipt"],
  }),
};

export type ProblemCode = keyof typeof PROBLEM_CATALOGUE;

export const PROBLEM_CODES = Object.keys(PROBLEM_CATALOGUE) as ProblemCode[];

/** The arguments each code's problem is built from. */
export type ProblemArgs<Code extends ProblemCode> = Parameters<(typeof PROBLEM_CATALOGUE)[Code]["content"]>;
