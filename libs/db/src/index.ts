export * from "./data-source";
export * from "./entities";
export * from "./enums";
export * from "./naming-strategy";
export * from "./transformers";
export * from "./rich-text";
export * from "./embedded-pglite";
export * from "./migrations";
