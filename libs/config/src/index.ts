export * from "./env";
export * from "./private-key";
