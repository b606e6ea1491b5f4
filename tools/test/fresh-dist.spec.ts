import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

// The suites' global setup is plain Node (Jest loads it before anything is transpiled).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { sources } = require("../jest/fresh-dist.cjs");

describe("fresh dist/ for one spec after an edit", () => {
  it("transpiles the compiled folders' sources, never test support, specs or declarations", () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "fresh-dist-"));
    try {
      const files = [
        "src/index.ts",
        "src/nested/service.ts",
        "src/testing/index.ts",
        "src/nested/testing/world.ts",
        "src/service.spec.ts",
        "src/types.d.ts",
      ];
      for (const file of files) {
        fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
        fs.writeFileSync(path.join(root, file), "export {};\n");
      }
      const found = (sources(path.join(root, "src")) as string[]).map((file) => path.relative(root, file).split(path.sep).join("/")).sort();
      expect(found).toEqual(["src/index.ts", "src/nested/service.ts"]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
