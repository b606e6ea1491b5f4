export * from "./api-client";
export * from "./buy-ticket";
export * from "./types";
