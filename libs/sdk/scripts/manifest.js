#!/usr/bin/env node
/**
 * The SDK's package.json serves two masters. In the monorepo, `main` is `src/index.ts` (ts-node, Jest and Vite read
 * the sources); published, the package is `dist/` (scripts/build.js). npm has no per-publish manifest, so `npm pack`
 * and `npm publish` in libs/sdk swap it: `prepack` builds, keeps the workspace manifest aside and writes the published
 * one; `postpack` puts the workspace manifest back.
 *   node scripts/manifest.js publish | restore
 */
const fs = require("node:fs");
const path = require("node:path");

const SDK = path.resolve(__dirname, "..");
const MANIFEST = path.join(SDK, "package.json");
const KEPT = path.join(SDK, ".package.workspace.json");
/** The peers the package's code imports: the consumer's own ethers. */
const PEERS = { ethers: "^6.17.0" };

/** The published manifest: the workspace's name, version and dependencies, with dist/'s entry points. */
function publishedManifest(workspace) {
  return {
    name: workspace.name,
    version: workspace.version,
    description: workspace.description,
    license: workspace.license,
    main: "./dist/index.js",
    module: "./dist/index.mjs",
    types: "./dist/index.d.ts",
    exports: {
      ".": {
        import: { types: "./dist/index.d.mts", default: "./dist/index.mjs" },
        require: { types: "./dist/index.d.ts", default: "./dist/index.js" },
      },
      "./package.json": "./package.json",
    },
    files: ["dist", "README.md"],
    sideEffects: false,
    engines: { node: ">=18" },
    peerDependencies: PEERS,
    dependencies: workspace.dependencies ?? {},
  };
}

function publish() {
  if (fs.existsSync(KEPT)) throw new Error(`${KEPT} exists: a pack was interrupted; run "node scripts/manifest.js restore" first`);
  const workspace = JSON.parse(fs.readFileSync(MANIFEST, "utf8"));
  fs.copyFileSync(MANIFEST, KEPT);
  fs.writeFileSync(MANIFEST, `${JSON.stringify(publishedManifest(workspace), null, 2)}\n`);
}

function restore() {
  if (fs.existsSync(KEPT)) fs.renameSync(KEPT, MANIFEST);
}

if (require.main === module) {
  const command = process.argv[2];
  if (command === "publish") publish();
  else if (command === "restore") restore();
  else throw new Error(`usage: node scripts/manifest.js publish|restore, not ${command}`);
}

module.exports = { PEERS, publishedManifest };
