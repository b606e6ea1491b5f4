import type { components } from "@raffle/sdk";

export type PublicRaffle = components["schemas"]["PublicRaffleDto"];
export type PlayerTicket = components["schemas"]["PlayerTicketDto"];
export type PlayerVoucher = components["schemas"]["PlayerVoucherDto"];
export type PlayerSignIn = components["schemas"]["PlayerSignInDto"];
export type PublicRound = components["schemas"]["PublicRoundDto"];

/** A raffle's gasless offer: whether its merchant relays and how the price token signs. */
export type RaffleGasless = components["schemas"]["GaslessAvailabilityDto"];
/** A signed purchase, claim or refund in the API's mailbox, as a relayer moves it along. */
export type GaslessRequest = components["schemas"]["GaslessRequestDto"];
/** `POST /player/gasless/purchases`: the voucher echoed whole, with the ERC-3009 authorization or the permit path's parts. */
export type GaslessPurchaseBody = components["schemas"]["GaslessPurchaseBody"];
/** `POST /player/gasless/claims` and `/refunds`: the holder's ClaimIntent or RefundIntent signature. */
export type GaslessHolderBody = components["schemas"]["GaslessTicketsBody"];

/** The raffle's gasless offer; absent from an older API, which reads as not available. */
export function gaslessOf(raffle: PublicRaffle): RaffleGasless | null {
  return (raffle as Partial<PublicRaffle>).gasless ?? null;
}

/** One bad field of a validationFailed problem: its path (`title`, `description.blocks[2].text`) and the API's sentence. */
export interface FieldError {
  field: string;
  message: string;
}

/** A refusal of the API: its stable `code` (problem+json), which the page turns into a sentence, and any bad fields. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    detail: string,
    readonly fields: FieldError[] = [],
    /** The problem's other members (a gaslessDuplicate names the request already in the mailbox). */
    readonly problem: Record<string, unknown> = {},
  ) {
    super(detail);
  }
}

function fieldErrorsIn(body: unknown): FieldError[] {
  const errors = (body as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(errors)) return [];
  return errors.filter((error): error is FieldError => typeof error?.field === "string" && typeof error?.message === "string");
}

/** The API's client for the page: JSON in and out, problems as ApiError, the session token when given. */
export class PlayerApi {
  constructor(private readonly baseUrl: string) {}

  async request<T>(method: string, path: string, options: { token?: string | null; body?: unknown } = {}): Promise<T> {
    const headers: Record<string, string> = {};
    if (options.token) headers.Authorization = `Bearer ${options.token}`;
    if (options.body !== undefined) headers["Content-Type"] = "application/json";
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
      });
    } catch {
      throw new ApiError(0, "networkError", "The raffle service cannot be reached.");
    }
    if (response.status === 204) return undefined as T;
    const body = await response.json().catch(() => null);
    if (!response.ok)
      throw new ApiError(response.status, body?.code ?? "unknown", body?.detail ?? response.statusText, fieldErrorsIn(body), body ?? {});
    return body as T;
  }

  raffles = () => this.request<{ rows: PublicRaffle[] }>("GET", "/player/raffles").then((body) => body.rows);
  raffle = (id: number) => this.request<PublicRaffle>("GET", `/player/raffles/${id}`);
  /** One page of a public-sale raffle's rounds, newest first, with their winners and draw records. */
  rounds = (id: number, skip: number, take: number) =>
    this.request<{ rows: PublicRound[]; count: number }>("GET", `/player/raffles/${id}/rounds?skip=${skip}&take=${take}`);
  // Sign-In with Ethereum, for a player or (the console) a merchant: the same steps under /player or /merchant.
  nonce = (kind: "player" | "merchant" = "player") => this.request<{ nonce: string }>("POST", `/${kind}/siwe/nonce`);
  verify = (message: string, signature: string, kind: "player" | "merchant" = "player") =>
    this.request<PlayerSignIn>("POST", `/${kind}/siwe/verify`, { body: { message, signature } });
  logout = (token: string, kind: "player" | "merchant" = "player") => this.request<void>("POST", `/${kind}/logout`, { token });
  /** A voucher for `quantity` tickets (raffle v2); the body is the one-ticket body of old without it. */
  voucher = (token: string, contractId: number, quantity = 1) =>
    this.request<PlayerVoucher>("POST", "/player/vouchers", { token, body: quantity === 1 ? { contractId } : { contractId, quantity } });
  gaslessPurchase = (token: string, body: GaslessPurchaseBody) => this.request<GaslessRequest>("POST", "/player/gasless/purchases", { token, body });
  gaslessHolder = (token: string, kind: "claim" | "refund", body: GaslessHolderBody) =>
    this.request<GaslessRequest>("POST", `/player/gasless/${kind === "claim" ? "claims" : "refunds"}`, { token, body });
  gaslessRequest = (token: string, id: string) => this.request<GaslessRequest>("GET", `/player/gasless/${encodeURIComponent(id)}`, { token });
  tickets = (token: string) => this.request<{ rows: PlayerTicket[] }>("GET", "/player/tickets", { token }).then((body) => body.rows);
}
