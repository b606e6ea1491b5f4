/**
 * What the apps' settings need of the chain library, without ethers or the contracts' bindings
 * (`@raffle/chain/settings`): the API's cluster primary checks every setting before it forks its workers and loads
 * only this, about 17 MiB of RSS less than the whole library (see docs/performance.md, "Memory").
 */
export * from "./deploy/local-chains";
export * from "./deploy/deployment-path";
export { checksumAddress } from "./keccak";
