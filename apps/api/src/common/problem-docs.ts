import type { ProblemCode } from "./problem-catalogue";

/**
 * Where each problem is explained: its entry in the generated problem reference (docs/reference/problems.md, written
 * by `npm run docs:generate` from the catalogue and PROBLEM_ADVICE). A problem's `type` URI links there (RFC 9457:
 * a URI that documents the problem type). Change this base when the repository moves.
 */
export const PROBLEM_REFERENCE_URL = "https://github.com/raffle-platform/raffle-platform/blob/main/docs/reference/problems.md";

/** The `type` of a problem of `code`: its entry in the reference (GitHub's anchor of the heading `code`). */
export function problemTypeUri(code: ProblemCode): string {
  return `${PROBLEM_REFERENCE_URL}#${code.toLowerCase()}`;
}

/**
 * What a caller does about each problem, for the reference page. The catalogue says when the API answers it; this
 * says what to do next. Every code needs an entry: the type makes a new code without one fail to compile.
 */
export const PROBLEM_ADVICE: Record<ProblemCode, string> = {
  validationFailed: "Fix each field `errors` lists (its `field` and `message`) and send the request again.",
  invalidJson: "Send one JSON object or array, nested at most 32 levels, without `__proto__` or `constructor` keys.",
  badRequest: "Fix the URL (percent-encode path segments correctly) and send the request again.",
  unauthorized:
    "Send `Authorization: Bearer <merchant API key>` with a key that is not revoked (`npm run api-key -- create --merchant <wallet>` makes one). Keys go in the header only, never in the query string.",
  notFound: "Check the method and path against the OpenAPI document (`/docs`).",
  contractNotFound: "Use a raffle id from `GET /raffle/contracts` of the same API key: another merchant's raffle is never shown.",
  roundNotFound: "Wait for the merchant to start the raffle's first round (`npm run deploy:raffle` starts one), then ask again.",
  claimNotFound: "Use a claim id from `GET /claims` of the same API key.",
  webhookNotFound: "Use a webhook id from `GET /webhooks` of the same API key.",
  deliveryNotFound: "Use a delivery id from `GET /webhooks/:id/deliveries` of that webhook.",
  apiKeyRevoked: "Roll the key that replaced it (the newest key with the same label), or create a new key.",
  apiKeyLimitReached: "Revoke a key you no longer use in the console (`DELETE /merchant/api-keys/:id`), then make the new one.",
  webhookLimitReached: "Delete an endpoint you no longer use (`DELETE /webhooks/:id`), or subscribe one endpoint to more event types.",
  retryLimited: "Wait `Retry-After` seconds: a delivery may be retried once a minute, an endpoint 10 times a minute.",
  webhookUrlInvalid: "Register an absolute `https://` URL without user name or password in it.",
  webhookUrlRefused:
    "Register a URL whose host resolves to a public address: loopback, private, link-local and reserved addresses are refused, as are hosts that do not resolve.",
  roundEnded: "Wait for the next round to start (the merchant worker starts it on the raffle's schedule), then ask for a new voucher.",
  roundFull: "Ask for at most the tickets the detail says are left, or wait for the next round if none are.",
  walletLimitReached: "Ask for fewer tickets (the detail says how many this buyer holds of the cap), or wait for the next round.",
  roundIdNotFound: "Use a round id from `GET /rounds?contractId=…` of the same API key.",
  contractPaused: "The merchant paused this raffle: wait until it is unpaused (the `raffle.unpaused` webhook says when).",
  contractInactive: "This raffle is not active: choose another from `GET /raffle/contracts`.",
  exchangePaused: "The platform paused purchases and claims on this chain: retry later; the platform admin unpauses it.",
  claimNotCancelable: "Only a `NEW` voucher can be canceled; read its current status with `GET /claims/:id`.",
  chainNotServed: "Send a `chainId` this API serves (`GET /ready` lists them), or call the deployment that serves that chain.",
  payloadTooLarge: "Send a body of at most 16 kB.",
  unsupportedMediaType: "Send `Content-Type: application/json` in UTF-8, without `Content-Encoding`.",
  tooManyRequests:
    "Wait `Retry-After` seconds before asking again; spread signature requests over time or across accounts, and poll the public reads no faster than the page needs.",
  internalError: "Retry later; if it persists, report the response's `x-request-id` to the platform's operators, whose log holds the details.",
  serviceUnavailable: "Retry after `Retry-After` seconds; operators: check `GET /ready` and the database and Redis it names.",
  notReady: "Operators: fix each dependency `errors` names (the message says which setting to check); callers: retry later.",
  signerNotAuthorized:
    "Operators: grant the API's voucher key `SIGNER_ROLE` on the Exchange, or configure the key that holds it (see the signer rotation runbook). Callers: retry later.",
  chainUnavailable: "Retry after `Retry-After` seconds; operators: check the chain's node (`RPC_URL`) and `GET /ready?chainId=<id>`.",
  sessionRequired:
    "Sign in again with Sign-In with Ethereum (`POST /player/siwe/nonce`, then `POST /player/siwe/verify`) and send the new session token.",
  siweMessageInvalid:
    "Build the message with a SIWE library and include `nonce`, `issuedAt` and `expirationTime`; for the console, list `urn:raffle:merchant-console` under Resources and name the console in the statement, and send it to `POST /merchant/siwe/verify` only.",
  siweDomainMismatch: "Sign in from the player app's own origin: the message's domain and URI must be one of `WEB_ORIGINS`.",
  siweExpired: "Build a new message that is valid now and expires within the session lifetime (`PLAYER_SESSION_TTL_SECONDS`), and sign it again.",
  siweNonceInvalid:
    "Ask the route you sign in with for a fresh nonce (`POST /player/siwe/nonce` for a player, `POST /merchant/siwe/nonce` for the console): each is single-use, lasts 5 minutes and serves that route only.",
  siweSignatureInvalid: "Sign the exact message with the wallet of the address it names (EOA signatures only).",
  publicRaffleNotFound: "Use a raffle id from `GET /player/raffles`: only raffles their merchant put on public sale are listed.",
  merchantSessionRequired:
    "Sign in to the merchant console again (`POST /merchant/siwe/nonce`, then `POST /merchant/siwe/verify` signed by the merchant's wallet) and send the new `ms_` token. API keys cannot manage keys.",
  notAMerchant:
    "Sign in with the wallet your raffles were deployed with, or ask the platform's admin to grant your wallet MERCHANT_ROLE on the chain's RaffleFactory.",
  apiKeyNotFound: "Use a key id from `GET /merchant/api-keys`: only the signed-in merchant's keys are listed.",
  voucherUnknown: "Send the voucher exactly as `POST /player/vouchers` (or `POST /ticket/sign`) answered it, for the signed-in buyer.",
  voucherExpired: "Ask for a new voucher and sign again: a relayer needs time to submit it before it expires.",
  buyerSignatureInvalid:
    "Sign the typed data the SDK's `buyWithoutGas` signs (libs/chain gasless helpers) with the voucher's account, for this voucher, price and Exchange.",
  authorizationMismatch:
    "Sign an authorization valid from now until at least the voucher's expiry, or a permit of at least the price for the Exchange.",
  insufficientBalance: "Top up the buyer's balance of the price token, then sign again.",
  gaslessUnavailable: "Buy with gas (`purchaseRaffle`), or ask the merchant to turn relaying on (`PUT /merchant/gasless`).",
  gaslessBudgetExhausted: "Buy with gas, or wait for the next UTC day; the merchant can raise its budget (`PUT /merchant/gasless`).",
  gaslessPlayerLimitReached: "Buy with gas, or wait for the next UTC day.",
  roundClosed: "Ask for a new voucher for the raffle's open round, then sign again.",
  gaslessDuplicate: "Follow the existing request (`existingId`, `GET /player/gasless/:id`) instead of sending it again.",
  notTicketHolder: "Sign for tickets the signing account holds (`GET /player/tickets`), of the raffle named by `contractId`.",
  gaslessRequestNotFound: "Use an id this session (or API key's merchant) created: `GET /player/gasless` lists them.",
  relayJobNotHeld: "Claim jobs again (`POST /relayer/claim`) and work only on those it returns for your relayerId.",
  outcomeUnverified:
    "Report `mined` only with the hash of the job's own transaction once its receipt is successful; report `failed` only when none succeeded.",
};
