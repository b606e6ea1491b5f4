// ESLint for every TypeScript and JavaScript file of the repository (`npm run lint`, per project through Nx).
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "**/node_modules/**",
      "**/dist/**",
      ".nx/**",
      "reports/**",
      "coverage/**",
      "tmp/**",
      "contracts/artifacts/**",
      "contracts/cache/**",
      "libs/chain/src/typechain/**",
      "libs/sdk/src/generated/**",
      "libs/sdk/.build/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // `_name` marks an argument a signature needs but the body does not use.
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      // `const crypto = require("node:crypto")` names the module it uses, even where Node has the global too.
      "no-redeclare": ["error", { builtinGlobals: false }],
      // A variable that a closure reads before its single assignment cannot be const.
      "prefer-const": ["error", { ignoreReadBeforeAssign: true }],
    },
  },
  {
    // Plain Node scripts (build, CI, reporters, Jest configs) are CommonJS.
    files: ["**/*.js", "**/*.cjs"],
    languageOptions: { sourceType: "commonjs" },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    // The player app runs in browsers.
    files: ["apps/web/src/**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Contract tests use chai's property assertions (`expect(x).to.be.true`).
    files: ["contracts/test/**/*.ts"],
    rules: { "@typescript-eslint/no-unused-expressions": "off" },
  },
);
