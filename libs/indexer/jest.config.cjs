const { jestConfig, freshDist } = require("../../tools/jest/base.cjs");

// freshDist: the crash test runs the compiled indexer (test/support/run-indexer.cjs) in the processes it kills.
module.exports = jestConfig(__dirname, { testTimeout: 120_000, globalSetup: freshDist });
