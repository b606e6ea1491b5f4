import type { Claim, ContractWithMerchant, List, Problem, Round, TicketSignature } from "./types";

/** An error answer of the API, with its problem details and stable code. */
export class RaffleApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly problem: Problem | null,
  ) {
    super(`${status} ${code}${problem?.detail ? `: ${problem.detail}` : ""}`);
    this.name = "RaffleApiError";
  }
}

export interface RaffleApiOptions {
  /** Base URL of the API, e.g. http://127.0.0.1:3000 */
  baseUrl: string;
  /** A merchant API key (`rk_...`). */
  apiKey: string;
  /** Injected fetch, for tests and custom agents. */
  fetch?: typeof fetch;
  /** Per-request timeout. */
  timeoutMs?: number;
}

const PAGE_SIZE = 100;

/** Typed client of every endpoint of the raffle API. */
export class RaffleApi {
  private readonly baseUrl: string;
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly options: RaffleApiOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.fetchImpl = options.fetch ?? fetch;
  }

  listRaffleContracts(query: { chainId?: number; skip?: number; take?: number } = {}): Promise<List<ContractWithMerchant>> {
    return this.request("GET", "/raffle/contracts", query);
  }

  /** Every raffle contract of the merchant, following all pages. */
  async listAllRaffleContracts(chainId?: number): Promise<ContractWithMerchant[]> {
    const all: ContractWithMerchant[] = [];
    for (let skip = 0; ; skip += PAGE_SIZE) {
      const page = await this.listRaffleContracts({ chainId, skip, take: PAGE_SIZE });
      all.push(...page.rows);
      if (page.rows.length < PAGE_SIZE || all.length >= page.count) return all;
    }
  }

  currentRound(contractId: number): Promise<Round> {
    return this.request("GET", "/rounds/current", { contractId });
  }

  signTicket(body: { account: string; referrer?: string; contractId: number }): Promise<TicketSignature> {
    return this.request("POST", "/raffle/ticket/sign", undefined, body);
  }

  listClaims(query: { account: string; skip?: number; take?: number; claimStatus?: string }): Promise<List<Claim>> {
    return this.request("GET", "/claims", query);
  }

  health(): Promise<{ status: string }> {
    return this.request("GET", "/health");
  }

  private async request<T>(method: string, path: string, query?: Record<string, unknown>, body?: unknown): Promise<T> {
    const url = new URL(`${this.baseUrl}${path}`);
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const response = await this.fetchImpl(url, {
      method,
      headers: {
        accept: "*/*",
        authorization: `Bearer ${this.options.apiKey}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(this.options.timeoutMs ?? 15_000),
    });
    const text = await response.text();
    if (!response.ok) {
      let problem: Problem | null = null;
      try {
        problem = JSON.parse(text) as Problem;
      } catch {
        problem = null;
      }
      throw new RaffleApiError(response.status, problem?.code ?? "httpError", problem);
    }
    return JSON.parse(text) as T;
  }
}
