export * from "./eventually";
export * from "./free-port";
