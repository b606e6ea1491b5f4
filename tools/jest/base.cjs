// Shared Jest settings: ts-jest with each project's own tsconfig, and a JSON report that .ci/run adds up.
const path = require("node:path");

function jestConfig(projectDir, overrides = {}) {
  const name = path.basename(projectDir);
  return {
    rootDir: projectDir,
    testEnvironment: "node",
    testMatch: ["<rootDir>/src/**/*.spec.ts", "<rootDir>/test/**/*.spec.ts"],
    transform: {
      "^.+\\.ts$": ["ts-jest", { tsconfig: path.join(projectDir, "tsconfig.json") }],
    },
    moduleFileExtensions: ["ts", "js", "json"],
    ...overrides,
  };
}

module.exports = { jestConfig };
