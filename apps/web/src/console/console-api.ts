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
export type RaffleSettings = Schemas["RaffleSettingsBody"];

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
    deliveries: (id: number) => get<{ rows: Delivery[] }>(`/webhooks/${id}/deliveries?take=20`).then((body) => body.rows),
    resend: (id: number, delivery: string) => send<Delivery>("POST", `/webhooks/${id}/deliveries/${delivery}/retry`),
    sendTest: (id: number) => send<Delivery>("POST", `/webhooks/${id}/test`),
  };
}

export type ConsoleApi = ReturnType<typeof consoleApi>;
