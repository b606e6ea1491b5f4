import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

const ROOT = path.resolve(__dirname, "../../..");

describe("the generated API types", () => {
  // `--default-non-nullable false`: a request field with a default (ttlSeconds, skip, take) stays optional.
  it("are what openapi-typescript makes of the committed OpenAPI document (else run `npm run sdk:generate`)", () => {
    const cli = path.join(ROOT, "node_modules/openapi-typescript/bin/cli.js");
    const generated = execFileSync(process.execPath, [cli, "apps/api/openapi.json", "--default-non-nullable", "false"], {
      cwd: ROOT,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
    expect(fs.readFileSync(path.join(__dirname, "generated/openapi.ts"), "utf8")).toBe(generated);
  });
});
