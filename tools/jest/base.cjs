// Shared Jest settings: ts-jest with each project's own tsconfig; project aliases from tsconfig.base.json.
const path = require("node:path");

const root = path.resolve(__dirname, "../..");
const { compilerOptions } = require(path.join(root, "tsconfig.base.json"));
const aliases = Object.fromEntries(
  Object.entries(compilerOptions.paths).map(([alias, [target]]) => [`^${alias}$`, path.join(root, target)]),
);

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
    moduleNameMapper: aliases,
    ...overrides,
  };
}

module.exports = { jestConfig };
