export * from "./typechain";
export * from "./token-type";
export * from "./eip712";
export * from "./purchase-args";
export * from "./nonce";
export * from "./deploy";
