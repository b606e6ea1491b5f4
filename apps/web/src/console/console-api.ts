import type { components } from "@raffle/sdk";

import type { PlayerApi } from "../lib/api";

type Schemas = components["schemas"];
export type Raffle = Schemas["ContractWithMerchantDto"];
export type Contract = Schemas["ContractDto"];
export type RoundHistory = Schemas["RoundHistoryDto"];
export type SalesRow = Schemas["SalesRowDto"];
export type Overview = Schemas["OverviewDto"];
export type Attention = Schemas["AttentionDto"];
export type ApiKey = Schemas["ApiKeyDto"];
export type CreatedApiKey = Schemas["CreatedApiKeyDto"];
export type RolledApiKey = Schemas["RolledApiKeyDto"];
export type Webhook = Schemas["WebhookDto"];
export type WebhookWithSecret = Schemas["WebhookWithSecretDto"];
export type Delivery = Schemas["DeliveryDto"];
export type DeliveryDetail = Schemas["DeliveryDetailDto"];
export type Attempt = Schemas["AttemptDto"];
export type WebhookEventType = Webhook["events"][number];
export type DeliveryFilter = { type?: Delivery["type"]; status?: Delivery["status"] };

/**
 * What each message type tells, in the order of a raffle's life. A Record over the API's type: a type added to the
 * catalogue fails the typecheck until it is named here.
 */
export const WEBHOOK_EVENT_LABELS: Record<WebhookEventType, string> = {
  "raffle.deployed": "a raffle is deployed",
  "round.started": "a round starts",
  "ticket.purchased": "a ticket is bought",
  "round.ended": "a round ends",
  "round.drawn": "winners are drawn",
  "round.refundable": "a round becomes refundable",
  "ticket.refunded": "a ticket is refunded",
  "prize.claimed": "a prize is claimed",
  "prize.released": "a prize is released",
  "claim.redeemed": "a claim voucher is redeemed",
  "raffle.paused": "a raffle is paused",
  "raffle.unpaused": "a raffle is resumed",
  "item.claimed": "a winner receives an item prize",
  "item.returned": "an item prize goes back to the merchant",
  "item.transferFailed": "an item prize could not be sent",
  "gasless.sent": "a relayer sends a purchase without gas",
  "gasless.mined": "a purchase without gas is mined",
  "gasless.failed": "a purchase without gas fails",
};
export const WEBHOOK_EVENT_TYPES = Object.keys(WEBHOOK_EVENT_LABELS) as WebhookEventType[];
export type RaffleSettings = Schemas["RaffleSettingsBody"];

/** `PUT /merchant/gasless`: whether the merchant's relayer buys for players, and the limits it keeps. */
export type GaslessSettings = Schemas["GaslessSettingsBody"];
/** `GET /merchant/gasless`: the settings, today's spending and when a relayer last asked for work. */
export type GaslessSettingsView = Schemas["GaslessSettingsDto"];

/** The console's calls to the API, all with the merchant's session token (same client as the player pages). */
export function consoleApi(api: PlayerApi, token: string) {
  const get = <T>(path: string) => api.request<T>("GET", path, { token });
  const send = <T>(method: string, path: string, body?: unknown) => api.request<T>(method, path, { token, body });
  return {
    overview: () => get<Overview>("/merchant/overview"),
    sales: (days = 30) => get<{ rows: SalesRow[] }>(`/raffle/sales?days=${days}`).then((body) => body.rows),
    raffles: () => get<{ rows: Raffle[] }>("/raffle/contracts?take=100").then((body) => body.rows),
    rounds: (id: number) => get<{ rows: RoundHistory[]; count: number }>(`/raffle/contracts/${id}/rounds?take=10`),
    updateRaffle: (id: number, settings: RaffleSettings) => send<Contract>("PATCH", `/raffle/contracts/${id}`, settings),
    previewSchedule: (schedule: string) => send<{ nextRuns: string[] }>("POST", "/raffle/schedule/preview", { schedule }),
    apiKeys: () => get<{ rows: ApiKey[] }>("/merchant/api-keys").then((body) => body.rows),
    createApiKey: (label: string) => send<CreatedApiKey>("POST", "/merchant/api-keys", { label }),
    revokeApiKey: (id: number) => send<ApiKey>("DELETE", `/merchant/api-keys/${id}`),
    rollApiKey: (id: number, graceSeconds: number) => send<RolledApiKey>("POST", `/merchant/api-keys/${id}/roll`, { graceSeconds }),
    webhooks: () => get<{ rows: Webhook[] }>("/webhooks?take=100").then((body) => body.rows),
    /** Every event type unless `events` names some. */
    createWebhook: (url: string, events?: string[]) => send<WebhookWithSecret>("POST", "/webhooks", events ? { url, events } : { url }),
    deleteWebhook: (id: number) => send<Webhook>("DELETE", `/webhooks/${id}`),
    rotateSecret: (id: number) => send<WebhookWithSecret>("POST", `/webhooks/${id}/secret`),
    updateWebhookEvents: (id: number, events: WebhookEventType[]) => send<Webhook>("PATCH", `/webhooks/${id}`, { events }),
    /** The newest 20 deliveries, of one type and in one state when the filter names them. */
    deliveries: (id: number, filter: DeliveryFilter = {}) => {
      const query = new URLSearchParams({ take: "20" });
      if (filter.type) query.set("type", filter.type);
      if (filter.status) query.set("status", filter.status);
      return get<{ rows: Delivery[]; count: number }>(`/webhooks/${id}/deliveries?${query}`);
    },
    delivery: (id: number, delivery: string) => get<DeliveryDetail>(`/webhooks/${id}/deliveries/${delivery}`),
    resend: (id: number, delivery: string) => send<Delivery>("POST", `/webhooks/${id}/deliveries/${delivery}/retry`),
    sendTest: (id: number) => send<Delivery>("POST", `/webhooks/${id}/test`),
    gasless: () => get<GaslessSettingsView>("/merchant/gasless"),
    updateGasless: (settings: GaslessSettings) => send<GaslessSettingsView>("PUT", "/merchant/gasless", settings),
  };
}

export type ConsoleApi = ReturnType<typeof consoleApi>;
