export * from "./api-client";
export * from "./buy-ticket";
export * from "./types";
export * from "./verify-webhook";
export type { components, operations, paths } from "./generated/openapi";
