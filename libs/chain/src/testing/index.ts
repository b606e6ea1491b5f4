// Test support of @raffle/chain (`@raffle/chain/testing`): local nodes and a scripted local world. Tests, the local
// stack and the tools import it; the production entry point (`@raffle/chain`) does not, so it stays out of dist/.
export * from "./node-process";
export * from "./hardhat-node";
export * from "./anvil-node";
export * from "./local-world";
export * from "./rehearsal";
