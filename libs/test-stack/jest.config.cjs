const { jestConfig, freshDist } = require("../../tools/jest/base.cjs");

module.exports = jestConfig(__dirname, { testTimeout: 120_000, globalSetup: freshDist });
