export * from "./env";
export * from "./settings";
export * from "./read-settings";
export * from "./private-key";
export * from "./url";
export * from "./chains";
export * from "./logger";
export * from "./free-port";
