/**
 * The Raffle's pure rules in TypeScript, one implementation each, for every part that must agree with the contract:
 * importable on their own (`@raffle/chain/rules`), with nothing behind them but ethers' keccak256, so the player app
 * and the published SDK carry them. Their shared test cases are `@raffle/chain/rules/vectors`.
 */
export type { Integer } from "./integer";
export { BASIS_POINTS, commissionOf, netPrize, prizeAmounts } from "./prize-split";
export { bundlePrice, priceForQuantity, type BundleRule } from "./bundle-price";
export { drawWinners } from "./draw-rule";
