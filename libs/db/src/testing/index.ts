// Test support of @raffle/db (`@raffle/db/testing`): throwaway databases. Kept out of the production entry point.
export * from "./test-database";
export * from "./streaming-replica";
