const path = require("node:path");
const { jestConfig, freshDist } = require("../../tools/jest/base.cjs");

// The browser journeys: one stack and one Chromium for the whole suite (see test/support/web-stack.ts).
module.exports = jestConfig(__dirname, {
  testMatch: ["<rootDir>/test/**/*.spec.ts"],
  transform: { "^.+\\.ts$": ["ts-jest", { tsconfig: path.join(__dirname, "test/tsconfig.json") }] },
  testTimeout: 120_000,
  globalSetup: freshDist,
});
