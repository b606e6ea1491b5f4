const { jestConfig } = require("../../tools/jest/base.cjs");

module.exports = jestConfig(__dirname, { testTimeout: 120_000 });
