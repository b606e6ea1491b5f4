import { RaffleApi } from "@raffle/sdk";

/** What the worker needs of one raffle listed by `GET /raffle/contracts`. */
export interface RaffleListing {
  id: number;
  address: string;
  chainId: number;
  /** `parameters.schedule`; undefined when the listing carries none. */
  schedule: string | undefined;
}

/** The identity of a listed raffle: CREATE2 gives a raffle the same address on every chain, so the address alone is not one. */
export function raffleKey(raffle: Pick<RaffleListing, "chainId" | "address">): string {
  return `${raffle.chainId}:${raffle.address.toLowerCase()}`;
}

/** Where the scheduler gets the merchant's raffles: the API, or a stub in tests. */
export interface RaffleSource {
  listRaffles(): Promise<RaffleListing[]>;
}

/** The API's own requests time out sooner than the SDK's default: a refresh is retried with backoff anyway. */
const API_TIMEOUT_MS = 10_000;

/** The merchant's raffles on one chain, read through the SDK exactly as a third-party merchant would. */
export class ApiRaffleSource implements RaffleSource {
  private readonly api: RaffleApi;
  private readonly chainId: number;

  constructor(options: { baseUrl: string; apiKey: string; chainId: number }) {
    this.api = new RaffleApi({ baseUrl: options.baseUrl, apiKey: options.apiKey, timeoutMs: API_TIMEOUT_MS });
    this.chainId = options.chainId;
  }

  async listRaffles(): Promise<RaffleListing[]> {
    const rows = await this.api.listAllRaffleContracts(this.chainId);
    return rows.map((row) => {
      const schedule = (row.parameters as { schedule?: unknown } | null)?.schedule;
      return { id: row.id, address: row.address, chainId: row.chainId, schedule: typeof schedule === "string" ? schedule : undefined };
    });
  }
}
