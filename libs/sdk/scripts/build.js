#!/usr/bin/env node
/**
 * `npm run build --workspace libs/sdk`: writes libs/sdk/dist, the SDK as a package of its own that installs anywhere
 * (`npm pack libs/sdk/dist`): CommonJS with .d.ts, ethers as a peer, and no workspace package behind it.
 *
 * Inside the monorepo the SDK imports `@raffle/chain`; a published package cannot. So the build copies the files that
 * libs/chain/src/client.ts reaches (token types, the purchase-args mapping, the Exchange client ABI) into the package
 * and points the import there: the facts stay written once, in libs/chain. A copied file that imports anything but
 * ethers stops the build, and so does an SDK import of a chain export outside client.ts (tsc cannot find it).
 */
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const SDK = path.resolve(__dirname, "..");
const ROOT = path.resolve(SDK, "../..");
const STAGE = path.join(SDK, ".build");
const DIST = path.join(SDK, "dist");
const CHAIN_CLIENT = path.join(ROOT, "libs/chain/src/client.ts");
/** What the installed package may require besides its own files: ethers as a peer, and its own dependencies. */
const PEERS = { ethers: "^6.17.0" };
/** Runtime dependencies installed with the package (`standardwebhooks` for verifyWebhook), from package.json. */
const DEPENDENCIES = JSON.parse(fs.readFileSync(path.join(SDK, "package.json"), "utf8")).dependencies ?? {};

const specifiersOf = (source) => [...source.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s+"([^"]+)"/gm)].map((match) => match[1]);
const relativeImport = (fromFile, toFile) => {
  const relative = path.relative(path.dirname(fromFile), toFile).split(path.sep).join("/").replace(/\.ts$/, "");
  return relative.startsWith(".") ? relative : `./${relative}`;
};

/** Copies `entry` and every file it reaches by relative imports into `targetDir`; only PEERS may be imported bare. */
function copyClosure(entry, targetDir) {
  const sourceDir = path.dirname(entry);
  const pending = [entry];
  const seen = new Set();
  while (pending.length > 0) {
    const file = pending.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    const source = fs.readFileSync(file, "utf8");
    for (const specifier of specifiersOf(source)) {
      if (specifier.startsWith(".")) pending.push(path.resolve(path.dirname(file), `${specifier}.ts`));
      else if (!(specifier in PEERS))
        throw new Error(`${path.relative(ROOT, file)} imports ${specifier}: the SDK package ships only ${Object.keys(PEERS)}`);
    }
    const target = path.join(targetDir, path.relative(sourceDir, file));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, source);
  }
}

/** Copies the SDK's sources (not its tests), pointing `@raffle/chain` at the copied chain files. */
function copySdkSources(dir, targetDir, chainClient) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    const target = path.join(targetDir, entry.name);
    if (entry.isDirectory()) copySdkSources(file, target, chainClient);
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".spec.ts")) {
      const source = fs.readFileSync(file, "utf8").replace(/from "@raffle\/chain"/g, `from "${relativeImport(target, chainClient)}"`);
      for (const specifier of specifiersOf(source)) {
        if (!specifier.startsWith(".") && !(specifier in PEERS) && !(specifier in DEPENDENCIES))
          throw new Error(`${path.relative(ROOT, file)} imports ${specifier}, which the package cannot carry`);
      }
      fs.mkdirSync(targetDir, { recursive: true });
      fs.writeFileSync(target, source);
    }
  }
}

function manifest() {
  const workspace = JSON.parse(fs.readFileSync(path.join(SDK, "package.json"), "utf8"));
  return {
    name: workspace.name,
    version: workspace.version,
    description: workspace.description,
    license: workspace.license,
    main: "index.js",
    types: "index.d.ts",
    exports: { ".": { types: "./index.d.ts", require: "./index.js", default: "./index.js" }, "./package.json": "./package.json" },
    sideEffects: false,
    engines: { node: ">=18" },
    peerDependencies: PEERS,
    dependencies: DEPENDENCIES,
  };
}

fs.rmSync(STAGE, { recursive: true, force: true });
fs.rmSync(DIST, { recursive: true, force: true });
const chainClient = path.join(STAGE, "chain", "client.ts");
copyClosure(CHAIN_CLIENT, path.dirname(chainClient));
copySdkSources(path.join(SDK, "src"), STAGE, chainClient);
const tsc = require.resolve("typescript/bin/tsc", { paths: [ROOT] });
execFileSync(process.execPath, [tsc, "-p", path.join(SDK, "tsconfig.build.json")], { stdio: "inherit" });
fs.writeFileSync(path.join(DIST, "package.json"), `${JSON.stringify(manifest(), null, 2)}\n`);
fs.copyFileSync(path.join(SDK, "README.md"), path.join(DIST, "README.md"));
fs.rmSync(STAGE, { recursive: true, force: true });
console.log(`built ${path.relative(ROOT, DIST)}: npm pack ${path.relative(ROOT, DIST)}`);
