import * as fs from "node:fs";
import * as path from "node:path";

const ROOT = path.resolve(__dirname, "../../..");

/**
 * The compiled apps, as production and the Docker image run them. `npm test` builds them before any suite runs, and a
 * compiled start costs a fraction of a ts-node one (which transpiles the whole API on every start).
 */
export const COMPILED = {
  root: ROOT,
  apiMain: path.join(ROOT, "dist/apps/api/src/main.js"),
  apiKeyCli: path.join(ROOT, "dist/apps/api/src/cli/api-key.js"),
  workerMain: path.join(ROOT, "dist/apps/merchant-worker/src/main.js"),
};

export function requireCompiled(file: string): string {
  if (!fs.existsSync(file)) throw new Error(`${path.relative(ROOT, file)} is missing: run \`npm run build\` first`);
  return file;
}
