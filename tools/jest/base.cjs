// Shared Jest settings: ts-jest with each project's own tsconfig; project aliases from tsconfig.base.json.
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "../..");
// Each project's test script writes `--outputFile=../../reports/<project>.jest.json`, and Jest does not create that
// folder: a fresh clone has none, so the first project run alone (`nx test api`) would fail after its tests passed.
fs.mkdirSync(path.join(root, "reports"), { recursive: true });
const { compilerOptions } = require(path.join(root, "tsconfig.base.json"));
const aliases = Object.fromEntries(Object.entries(compilerOptions.paths).map(([alias, [target]]) => [`^${alias}$`, path.join(root, target)]));

function jestConfig(projectDir, overrides = {}) {
  return {
    rootDir: projectDir,
    testEnvironment: "node",
    testMatch: ["<rootDir>/src/**/*.spec.ts", "<rootDir>/test/**/*.spec.ts"],
    transform: {
      // Transpile only: every project's `typecheck` target type-checks its tests, so ts-jest checking them again
      // (a language service per worker, over NestJS and ethers) only added minutes to each suite. An object here is
      // layered over the project's own tsconfig.json (ts-jest finds it in rootDir).
      "^.+\\.ts$": ["ts-jest", { tsconfig: { isolatedModules: true } }],
    },
    moduleFileExtensions: ["ts", "js", "json"],
    moduleNameMapper: aliases,
    ...overrides,
  };
}

// Global setup of the suites that run the compiled apps: dist/ brought up to date with the sources first.
const freshDist = path.join(__dirname, "fresh-dist.cjs");

module.exports = { jestConfig, freshDist };
