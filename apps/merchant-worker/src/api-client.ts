/** What the worker needs of one raffle listed by `GET /raffle/contracts`. */
export interface RaffleListing {
  id: number;
  address: string;
  chainId: number;
  /** `parameters.schedule`; undefined when the listing carries none. */
  schedule: string | undefined;
}

/** Where the scheduler gets the merchant's raffles: the API, or a stub in tests. */
export interface RaffleSource {
  listRaffles(): Promise<RaffleListing[]>;
}

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }

  /** 4xx other than 408/429: the request itself is wrong (bad key, bad query); retrying cannot help. */
  get fatal(): boolean {
    return this.status >= 400 && this.status < 500 && this.status !== 408 && this.status !== 429;
  }
}

export interface ApiClientOptions {
  baseUrl: string;
  apiKey: string;
  chainId: number;
  pageSize?: number;
  timeoutMs?: number;
}

interface ContractRow {
  id: number;
  address: string;
  chainId: number;
  parameters?: { schedule?: unknown } | null;
}

/** The public API, used exactly as a third-party merchant would: bearer key, paged lists. */
export class ApiClient implements RaffleSource {
  private readonly pageSize: number;

  constructor(private readonly options: ApiClientOptions) {
    this.pageSize = options.pageSize ?? 100;
  }

  /** Every raffle of the key's merchant on the configured chain, following all pages. */
  async listRaffles(): Promise<RaffleListing[]> {
    const byAddress = new Map<string, RaffleListing>();
    for (let skip = 0; ; skip += this.pageSize) {
      const page = await this.get<{ rows: ContractRow[]; count: number }>("/raffle/contracts", {
        chainId: String(this.options.chainId),
        skip: String(skip),
        take: String(this.pageSize),
      });
      if (!Array.isArray(page.rows) || typeof page.count !== "number") throw new ApiError("GET /raffle/contracts: unexpected body", 502);
      // Keyed by address: a raffle added between two pages may shift a row into the next page twice.
      for (const row of page.rows) byAddress.set(row.address.toLowerCase(), toListing(row));
      if (page.rows.length < this.pageSize || skip + this.pageSize >= page.count) break;
    }
    return [...byAddress.values()];
  }

  private async get<T>(path: string, query: Record<string, string>): Promise<T> {
    const url = `${this.options.baseUrl}${path}?${new URLSearchParams(query).toString()}`;
    const response = await fetch(url, {
      headers: { accept: "*/*", authorization: `Bearer ${this.options.apiKey}` },
      signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
    });
    if (!response.ok) {
      const body = await response.text().catch(() => "");
      throw new ApiError(`GET ${path}: HTTP ${response.status} ${body.slice(0, 200)}`.trim(), response.status);
    }
    return (await response.json()) as T;
  }
}

function toListing(row: ContractRow): RaffleListing {
  const schedule = row.parameters?.schedule;
  return {
    id: row.id,
    address: row.address,
    chainId: row.chainId,
    schedule: typeof schedule === "string" ? schedule : undefined,
  };
}
