import type {
  Claim,
  ClaimsQuery,
  ContractWithMerchant,
  CreateClaimRequest,
  CreateWebhookRequest,
  GaslessPurchaseRequest,
  GaslessRequest,
  GaslessSettings,
  GaslessSettingsRequest,
  Health,
  List,
  Problem,
  ProblemCode,
  RaffleContractsQuery,
  Readiness,
  RelayClaimRequest,
  RelayJob,
  RelayOutcomeReport,
  RelaySentReport,
  Round,
  RoundWithDraw,
  RoundsQuery,
  SignTicketRequest,
  RotatedWebhookSecret,
  TicketSignature,
  UpdateWebhookRequest,
  Webhook,
  WebhookDeliveriesQuery,
  WebhookDelivery,
  WebhookDeliveryDetail,
  WebhookWithSecret,
} from "./types";
import { buyWithoutGas, type BuyWithoutGasOptions } from "./gasless-buy";

/** The part of `fetch` the client uses: the global one of Node 18+ and browsers fits, and so does a test double. */
export type FetchLike = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string; signal?: AbortSignal },
) => Promise<{ ok: boolean; status: number; text(): Promise<string> }>;

/** An error answer of the API, with its problem details and stable code. */
export class RaffleApiError extends Error {
  constructor(
    readonly status: number,
    /** The problem's code; `httpError` when the answer was not a problem, `invalidResponse` when a 2xx body was unusable. */
    readonly code: ProblemCode | "httpError" | "invalidResponse",
    readonly problem: Problem | null,
  ) {
    super(`${status} ${code}${problem?.detail ? `: ${problem.detail}` : ""}`);
    this.name = "RaffleApiError";
  }

  /**
   * Whether the same request may succeed later: a timeout (408), a rate limit (429, after `Retry-After`) or the
   * server's trouble (5xx). Any other 4xx means the request itself is wrong (a bad key, a bad query).
   */
  get retryable(): boolean {
    return this.status === 408 || this.status === 429 || this.status >= 500;
  }
}

export interface RaffleApiOptions {
  /** Base URL of the API, e.g. http://127.0.0.1:3000 */
  baseUrl: string;
  /** A merchant API key (`rk_<prefix>_<secret>`). */
  apiKey: string;
  /** Injected fetch, for tests and custom agents; the global fetch by default. */
  fetch?: FetchLike;
  /** Per-request timeout in milliseconds (default 15 s); an expired request rejects with a TimeoutError. */
  timeoutMs?: number;
}

const PAGE_SIZE = 100;
const DEFAULT_TIMEOUT_MS = 15_000;

/** Typed client of every endpoint of the raffle API (operation ids of the OpenAPI document in brackets). */
export class RaffleApi {
  private readonly baseUrl: string;
  private readonly fetchImpl: FetchLike;

  constructor(private readonly options: RaffleApiOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.fetchImpl = options.fetch ?? (globalThis.fetch as unknown as FetchLike);
  }

  // Raffle contracts and tickets.

  /** One page of the merchant's raffle contracts [listRaffleContracts]. */
  listRaffleContracts(query: RaffleContractsQuery = {}): Promise<List<ContractWithMerchant>> {
    return this.request("GET", "/raffle/contracts", query);
  }

  /**
   * Every raffle contract of the merchant, following all pages. A raffle added while the pages are read can shift a
   * row into the next page: each contract is answered once.
   */
  async listAllRaffleContracts(chainId?: number): Promise<ContractWithMerchant[]> {
    const byId = new Map<number, ContractWithMerchant>();
    for (let skip = 0; ; skip += PAGE_SIZE) {
      const page = await this.listRaffleContracts({ chainId, skip, take: PAGE_SIZE });
      if (!Array.isArray(page?.rows) || typeof page.count !== "number") throw new RaffleApiError(502, "invalidResponse", null);
      for (const row of page.rows) byId.set(row.id, row);
      if (page.rows.length < PAGE_SIZE || skip + PAGE_SIZE >= page.count) return [...byId.values()];
    }
  }

  /** The raffle's active round [getCurrentRound]; 404 roundNotFound without one. */
  currentRound(contractId: number): Promise<Round> {
    return this.request("GET", "/rounds/current", { contractId });
  }

  /** One page of a raffle's rounds, newest first, with their rules, winners and draw record [listRounds]. */
  listRounds(query: RoundsQuery): Promise<List<RoundWithDraw>> {
    return this.request("GET", "/rounds", query);
  }

  /** One round by its id (the API's `id`, not the on-chain round number) [getRound]. */
  getRound(id: number): Promise<RoundWithDraw> {
    return this.request("GET", `/rounds/${encodeURIComponent(id)}`);
  }

  /** A purchase voucher and the exact purchaseRaffle arguments [signTicket]. */
  signTicket(body: SignTicketRequest): Promise<TicketSignature> {
    return this.request("POST", "/raffle/ticket/sign", undefined, body);
  }

  // Claims.

  /** One page of an account's claims with the merchant, newest first [listClaims]. */
  listClaims(query: ClaimsQuery): Promise<List<Claim>> {
    return this.request("GET", "/claims", query);
  }

  /** One claim [getClaim]. */
  getClaim(id: number): Promise<Claim> {
    return this.request("GET", `/claims/${encodeURIComponent(id)}`);
  }

  /** Grants items to an account as a signed voucher, redeemable with Exchange.claim [createClaim]. */
  createClaim(body: CreateClaimRequest): Promise<Claim> {
    return this.request("POST", "/claims", undefined, body);
  }

  /** Cancels a NEW voucher: the API stops handing out its signature [cancelClaim]. */
  cancelClaim(id: number): Promise<Claim> {
    return this.request("DELETE", `/claims/${encodeURIComponent(id)}`);
  }

  // Webhooks. Verify what arrives at the endpoint with `verifyWebhook` (verify-webhook.ts).

  /** Registers an endpoint; the answer's `secret` is shown only here [createWebhook]. */
  createWebhook(body: CreateWebhookRequest): Promise<WebhookWithSecret> {
    return this.request("POST", "/webhooks", undefined, body);
  }

  /** One page of the merchant's endpoints, without secrets [listWebhooks]. */
  listWebhooks(query: { skip?: number; take?: number } = {}): Promise<List<Webhook>> {
    return this.request("GET", "/webhooks", query);
  }

  /** One endpoint [getWebhook]. */
  getWebhook(id: number): Promise<Webhook> {
    return this.request("GET", `/webhooks/${encodeURIComponent(id)}`);
  }

  /** Chooses the message types an endpoint receives, or its description; omitted fields stay [updateWebhook]. */
  updateWebhook(id: number, body: UpdateWebhookRequest): Promise<Webhook> {
    return this.request("PATCH", `/webhooks/${encodeURIComponent(id)}`, undefined, body);
  }

  /** Deletes an endpoint and its pending deliveries [deleteWebhook]. */
  deleteWebhook(id: number): Promise<Webhook> {
    return this.request("DELETE", `/webhooks/${encodeURIComponent(id)}`);
  }

  /** A new signing secret; the previous one signs alongside until `previousSecretExpiresAt` [rotateWebhookSecret]. */
  rotateWebhookSecret(id: number): Promise<RotatedWebhookSecret> {
    return this.request("POST", `/webhooks/${encodeURIComponent(id)}/secret`);
  }

  /** One page of an endpoint's deliveries, newest first, of one message type or state when asked [listWebhookDeliveries]. */
  listWebhookDeliveries(id: number, query: WebhookDeliveriesQuery = {}): Promise<List<WebhookDelivery>> {
    return this.request("GET", `/webhooks/${encodeURIComponent(id)}/deliveries`, query);
  }

  /** One delivery with its attempts (status, the answer's start or the network error) and its payload [getWebhookDelivery]. */
  getWebhookDelivery(id: number, deliveryId: string): Promise<WebhookDeliveryDetail> {
    return this.request("GET", `/webhooks/${encodeURIComponent(id)}/deliveries/${encodeURIComponent(deliveryId)}`);
  }

  /** Sends one delivery again now and answers it after the attempt [retryWebhookDelivery]. */
  retryWebhookDelivery(id: number, deliveryId: string): Promise<WebhookDelivery> {
    return this.request("POST", `/webhooks/${encodeURIComponent(id)}/deliveries/${encodeURIComponent(deliveryId)}/retry`);
  }

  // Gasless purchases (issue #52): the player signs, the merchant's relayer submits and pays.

  /**
   * Buys without gas for the signer: signs the voucher's purchase (one ERC-3009 signature, or a permit and an intent)
   * and queues it with the API; with `wait`, answers once it is mined (with its `ticketIds`) or failed.
   */
  buyWithoutGas(options: BuyWithoutGasOptions): Promise<GaslessRequest> {
    return buyWithoutGas(this, options);
  }

  /** Queues a player's signed purchase for the merchant's relayer [submitMerchantGaslessPurchase]. */
  submitGaslessPurchase(body: GaslessPurchaseRequest): Promise<GaslessRequest> {
    return this.request("POST", "/gasless/purchases", undefined, body);
  }

  /** One gasless request of the merchant's raffles [getMerchantGasless]. */
  getGaslessRequest(id: string): Promise<GaslessRequest> {
    return this.request("GET", `/gasless/${encodeURIComponent(id)}`);
  }

  /** The merchant's relaying settings and today's spending [getGaslessSettings]. */
  getGaslessSettings(): Promise<GaslessSettings> {
    return this.request("GET", "/merchant/gasless");
  }

  /** Turns relaying on or off, with its daily gas budget and per-player limit [setGaslessSettings]. */
  setGaslessSettings(body: GaslessSettingsRequest): Promise<GaslessSettings> {
    return this.request("PUT", "/merchant/gasless", undefined, body);
  }

  // The relayer (the merchant worker): leases, what it sent, what came of it.

  /** Jobs this relayerId holds (leases renewed) and queued ones newly leased to it [claimRelayJobs]. */
  async claimRelayJobs(body: RelayClaimRequest): Promise<RelayJob[]> {
    return (await this.request<{ jobs: RelayJob[] }>("POST", "/relayer/claim", undefined, body)).jobs;
  }

  /** Records a transaction sent for a job; a resend (same nonce, higher fee) adds one [reportRelayJobSent]. */
  async reportRelayJobSent(id: string, body: RelaySentReport): Promise<void> {
    await this.request("POST", `/relayer/jobs/${encodeURIComponent(id)}/sent`, undefined, body);
  }

  /** Reports a job mined (the API verifies the receipt) or failed with a camelCase code [reportRelayJobOutcome]. */
  async reportRelayJobOutcome(id: string, body: RelayOutcomeReport): Promise<void> {
    await this.request("POST", `/relayer/jobs/${encodeURIComponent(id)}/outcome`, undefined, body);
  }

  // Operations.

  /** Liveness [getHealth]; needs no key. */
  health(): Promise<Health> {
    return this.request("GET", "/health");
  }

  /**
   * Readiness [getReadiness] of the whole API, or of one served chain: `chains` shows each chain's head, index lag and
   * signer. 503 notReady names each dependency that does not hold; one chain down only makes the API `degraded`.
   */
  ready(chainId?: number): Promise<Readiness> {
    return this.request("GET", "/ready", { chainId });
  }

  private async request<T>(method: string, path: string, query?: object, body?: unknown): Promise<T> {
    const url = new URL(`${this.baseUrl}${path}`);
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const response = await this.fetchImpl(url.toString(), {
      method,
      headers: {
        accept: "*/*",
        authorization: `Bearer ${this.options.apiKey}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    });
    const text = await response.text();
    if (!response.ok) throw new RaffleApiError(response.status, problemOf(text)?.code ?? "httpError", problemOf(text));
    // 204 No Content (the relayer's reports) has no body to read.
    return (text === "" ? undefined : JSON.parse(text)) as T;
  }
}

function problemOf(text: string): Problem | null {
  try {
    const parsed = JSON.parse(text) as Problem | null;
    return parsed !== null && typeof parsed === "object" && typeof parsed.code === "string" ? parsed : null;
  } catch {
    return null;
  }
}
