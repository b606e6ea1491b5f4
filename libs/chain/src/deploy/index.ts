export * from "./deployment";
export * from "./dev-accounts";
export * from "./deploy-platform";
export * from "./deploy-raffle";
export * from "./platform-plan";
export * from "./platform-settings";
