export * from "./api-client";
export * from "./buy-ticket";
export * from "./draw";
export * from "./raffle-calls";
export * from "./ticket-state";
export * from "./types";
export * from "./verify-webhook";
export { RAFFLE_CLIENT_ABI, RoundStatus, PrizeStatus, TicketStatus } from "@raffle/chain";
export type { components, operations, paths } from "./generated/openapi";
