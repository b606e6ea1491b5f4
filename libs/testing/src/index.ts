export * from "./eventually";
// freePort lives in @raffle/config (the apps use it too); tests keep importing it from here.
export { freePort } from "@raffle/config";
export * from "./tcp-gate";
export * from "./prometheus";
export * from "./process-reaper";
export * from "./process-probes";
