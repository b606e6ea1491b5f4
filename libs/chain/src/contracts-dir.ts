import * as fs from "node:fs";
import * as path from "node:path";

/**
 * The repository's `contracts` folder, found by walking up from this file, so the answer is the same whether this
 * code runs from its TypeScript source or from the compiled copy under `dist/`.
 */
export function contractsDir(from: string = __dirname): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "contracts");
    if (fs.existsSync(path.join(candidate, "hardhat.config.ts"))) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`no contracts/hardhat.config.ts above ${from}`);
  }
}
