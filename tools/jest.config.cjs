const { jestConfig, freshDist } = require("../tools/jest/base.cjs");

module.exports = jestConfig(__dirname, { testTimeout: 300_000, globalSetup: freshDist });
