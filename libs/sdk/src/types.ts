/**
 * The API's resources as a client sees them, named for use: every type here is the OpenAPI document's own
 * (generated/openapi.ts, from apps/api/openapi.json by `npm run sdk:generate`), never restated by hand. Amounts, token
 * ids and on-chain round ids are decimal strings; timestamps are ISO 8601 UTC strings.
 */
import type { components, operations } from "./generated/openapi";

type Schemas = components["schemas"];

export type MerchantRef = Schemas["MerchantRefDto"];
export type Contract = Schemas["ContractDto"];
export type ContractWithMerchant = Schemas["ContractWithMerchantDto"];
export type Token = Schemas["TokenDto"];
export type Template = Schemas["TemplateDto"];
export type PriceComponent = Schemas["PriceComponentDto"];
export type Price = Schemas["PriceDto"];
export type Round = Schemas["RoundDto"];
export type AssetJson = Schemas["AssetDto"];
export type PurchaseParamsJson = Schemas["PurchaseParamsDto"];
export type TicketSignature = Schemas["TicketSignatureDto"];
export type ClaimItem = Schemas["ClaimItemDto"];
export type Claim = Schemas["ClaimDto"];
export type ClaimStatus = Claim["claimStatus"];
export type Health = Schemas["HealthDto"];
export type Readiness = Schemas["ReadinessDto"];
export type ChainReadiness = Schemas["ChainReadinessDto"];
export type Webhook = Schemas["WebhookDto"];
export type WebhookWithSecret = Schemas["WebhookWithSecretDto"];
export type RotatedWebhookSecret = Schemas["RotatedSecretDto"];
export type WebhookDelivery = Schemas["DeliveryDto"];
/** A delivery with its attempts, newest first, and the message it carries. */
export type WebhookDeliveryDetail = Schemas["DeliveryDetailDto"];
export type WebhookAttempt = Schemas["AttemptDto"];
/** One of the message types (`ticket.purchased`, `round.drawn`, ...). */
export type WebhookEventType = Schemas["WebhookMessageDto"]["type"];
/** The JSON body of a webhook request; its `id` equals the `webhook-id` header. */
export type WebhookMessage = Schemas["WebhookMessageDto"];
/** RFC 9457 problem details with the API's stable code. */
export type Problem = Schemas["ProblemDto"];
export type ProblemCode = Schemas["ProblemCode"];

/** Round rules of raffle v2: prize shares, minimum tickets, cap per wallet, bundle prices. */
export type RoundRulesJson = Schemas["RoundRulesDto"];
/** One winner position of a drawn round. */
export type RoundWinner = Schemas["RoundWinnerDto"];
/** A round with raffle v2's status, rules, pot, winners and draw record (every Round has them now). */
export type RoundWithDraw = Round;

/** `parameters` of a raffle contract (typed as a free object in the document, as token contracts have none). */
export interface RaffleParameters {
  timeLagBeforeRelease: string;
  commission: string;
  schedule: string;
  roundId: number;
  /** The item prizes the next rounds escrow, once the merchant set some (`setItemPrizes`); position 1 = first prize. */
  itemPrizes?: {
    merchant: string;
    items: Array<{ position: number; tokenType: "ERC721" | "ERC1155" | "ERC20"; token: string; tokenId: string; amount: string }>;
  };
}

/** List responses: one page of `rows` and the `count` of all matches. */
export interface List<T> {
  rows: T[];
  count: number;
}

type QueryOf<Operation extends keyof operations> = NonNullable<operations[Operation]["parameters"]["query"]>;
type JsonBodyOf<Operation extends keyof operations> = operations[Operation] extends {
  requestBody: { content: { "application/json": infer Body } };
}
  ? Body
  : never;

export type RaffleContractsQuery = QueryOf<"listRaffleContracts">;
export type CurrentRoundQuery = QueryOf<"getCurrentRound">;
export type RoundsQuery = QueryOf<"listRounds">;
export type ClaimsQuery = QueryOf<"listClaims">;
export type SignTicketRequest = JsonBodyOf<"signTicket">;
export type CreateClaimRequest = JsonBodyOf<"createClaim">;
export type CreateWebhookRequest = JsonBodyOf<"createWebhook">;
export type UpdateWebhookRequest = JsonBodyOf<"updateWebhook">;
export type WebhookDeliveriesQuery = QueryOf<"listWebhookDeliveries">;

/** Gasless purchases, claims and refunds (issue #52): a request in the API's mailbox, as players and game backends follow it. */
export type GaslessRequest = Schemas["GaslessRequestDto"];
export type GaslessState = GaslessRequest["state"];
/** A game backend's gasless purchase: the voucher of `signTicket` with the buyer's signature(s), and its raffle and chain. */
export type GaslessPurchaseRequest = Schemas["MerchantGaslessPurchaseBody"];
/** Whether a raffle's tickets can be bought without gas, and how to sign (the `gasless` block of the player raffle reads). */
export type GaslessAvailability = Schemas["GaslessAvailabilityDto"];
export type GaslessSettings = Schemas["GaslessSettingsDto"];
export type GaslessSettingsRequest = Schemas["GaslessSettingsBody"];
/** A relayer's job: the transaction to send (`to`, `data`), its deadline and what was sent so far. */
export type RelayJob = Schemas["RelayJobDto"];
export type RelayClaimRequest = Schemas["RelayClaimBody"];
export type RelaySentReport = Schemas["RelaySentBody"];
export type RelayOutcomeReport = Schemas["RelayOutcomeBody"];
