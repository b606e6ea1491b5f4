export * from "./eventually";
export * from "./free-port";
export * from "./tcp-gate";
export * from "./prometheus";
