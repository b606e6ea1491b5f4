#!/usr/bin/env node
/**
 * `npm run build --workspace libs/sdk` (and `prepack`): writes libs/sdk/dist, the files of the SDK's npm package, which
 * installs anywhere: ESM (`index.mjs`) and CommonJS (`index.js`), each with its types, built by tsup; ethers as a peer
 * and no workspace package behind it. `npm pack` in libs/sdk builds it and packs it (scripts/manifest.js).
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
const CHAIN_RULES = path.join(ROOT, "libs/chain/src/rules/index.ts");
const { PEERS: MANIFEST_PEERS } = require("./manifest");
/** What the installed package may require besides its own files: ethers as a peer, and its own dependencies. */
const PEERS = MANIFEST_PEERS;
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

/** Copies the SDK's sources (not its tests), pointing `@raffle/chain` (and its rules) at the copied chain files. */
function copySdkSources(dir, targetDir, chainClient, chainRules) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    const target = path.join(targetDir, entry.name);
    if (entry.isDirectory()) copySdkSources(file, target, chainClient, chainRules);
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".spec.ts")) {
      const source = fs
        .readFileSync(file, "utf8")
        .replace(/from "@raffle\/chain"/g, `from "${relativeImport(target, chainClient)}"`)
        .replace(/from "@raffle\/chain\/rules"/g, `from "${relativeImport(target, chainRules)}"`);
      for (const specifier of specifiersOf(source)) {
        if (!specifier.startsWith(".") && !(specifier in PEERS) && !(specifier in DEPENDENCIES))
          throw new Error(`${path.relative(ROOT, file)} imports ${specifier}, which the package cannot carry`);
      }
      fs.mkdirSync(targetDir, { recursive: true });
      fs.writeFileSync(target, source);
    }
  }
}

fs.rmSync(STAGE, { recursive: true, force: true });
fs.rmSync(DIST, { recursive: true, force: true });
const chainClient = path.join(STAGE, "chain", "client.ts");
const chainRules = path.join(STAGE, "chain", "rules", "index.ts");
copyClosure(CHAIN_CLIENT, path.dirname(chainClient));
copyClosure(CHAIN_RULES, path.dirname(chainRules));
copySdkSources(path.join(SDK, "src"), STAGE, chainClient, chainRules);
// One bundle per format from the staged sources; ethers and the dependencies stay imports of the consumer's copies,
// so an ESM project loads ethers once, as ESM, and its types are the ones it compiles against.
const tsup = require.resolve("tsup/dist/cli-default.js", { paths: [ROOT] });
execFileSync(
  process.execPath,
  [
    tsup,
    path.join(STAGE, "index.ts"),
    "--format",
    "esm,cjs",
    "--dts",
    "--target",
    "node18",
    "--out-dir",
    DIST,
    "--tsconfig",
    path.join(SDK, "tsconfig.build.json"),
    "--no-config",
    "--silent",
    ...[...Object.keys(PEERS), ...Object.keys(DEPENDENCIES)].flatMap((name) => ["--external", name]),
  ],
  { cwd: SDK, stdio: "inherit" },
);
fs.rmSync(STAGE, { recursive: true, force: true });
console.log(`built ${path.relative(ROOT, DIST)}: ${fs.readdirSync(DIST).sort().join(", ")}`);
