export * from "./env";
export * from "./private-key";
export * from "./url";
export * from "./chains";
export * from "./logger";
