import * as fs from "node:fs";
import * as path from "node:path";
import { subtask } from "hardhat/config";
import { TASK_COMPILE_SOLIDITY } from "hardhat/builtin-tasks/task-names";

/**
 * Hardhat keys its compile cache (cache/solidity-files-cache.json) by absolute path, so a cache restored in another
 * place (Nx's cache of `contracts:compile` in a fresh checkout, a moved folder, a CI runner) matches nothing and every
 * file compiles again. On disk the keys are kept relative to the project root; they are made absolute only while the
 * Solidity compile (the cache's one reader and writer) runs.
 */
function rewriteKeys(file: string, rewrite: (key: string) => string): void {
  let cache: { files?: Record<string, unknown> };
  try {
    cache = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return; // no cache yet, or one Hardhat will discard anyway
  }
  if (!cache.files) return;
  cache.files = Object.fromEntries(Object.entries(cache.files).map(([key, entry]) => [rewrite(key), entry]));
  fs.writeFileSync(file, `${JSON.stringify(cache, null, 2)}\n`);
}

subtask(TASK_COMPILE_SOLIDITY, async (args: Record<string, unknown>, hre, runSuper) => {
  const { root, cache } = hre.config.paths;
  const file = path.join(cache, "solidity-files-cache.json");
  rewriteKeys(file, (key) => path.resolve(root, key));
  try {
    return await runSuper(args);
  } finally {
    rewriteKeys(file, (key) => (path.isAbsolute(key) ? path.relative(root, key) : key));
  }
});
