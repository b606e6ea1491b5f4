/**
 * The chain facts a client of the API needs, in files that import nothing but ethers: the SDK's build copies exactly
 * these into its package (libs/sdk/scripts/build.js), so a published SDK carries them without the rest of this
 * library, and they stay written once.
 */
export * from "./token-type";
export { RAFFLE_PURCHASE_EXTRA } from "./eip712";
export * from "./purchase-args";
export * from "./struct-json";
export * from "./exchange-abi";
export * from "./raffle-abi";
export { ERC20_CLIENT_ABI } from "./generated/client-abis";
// Gasless purchases: what a buyer signs (the SDK's buyWithoutGas).
export * from "./gasless";
