export * from "./chain-source";
export * from "./decode";
export * from "./indexed-event";
export * from "./indexer";
export * from "./logger";
export * from "./projector";
export * from "./registry";
export * from "./rollback";
