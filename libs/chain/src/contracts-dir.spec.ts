import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

import { contractsDir } from "./contracts-dir";

describe("contractsDir", () => {
  it("finds the repository's contracts folder from the source tree and from a compiled copy under dist/", () => {
    const fromSource = contractsDir();
    expect(fs.existsSync(path.join(fromSource, "hardhat.config.ts"))).toBe(true);
    const root = path.dirname(fromSource);
    expect(contractsDir(path.join(root, "dist/libs/chain/src/deploy"))).toBe(fromSource);
  });

  it("says where it looked when there is no contracts folder above", () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), "no-contracts-"));
    expect(() => contractsDir(outside)).toThrow(`no contracts/hardhat.config.ts above ${outside}`);
  });
});
