import { expect } from "chai";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const CONTRACTS_DIR = path.join(__dirname, "..");
const ROOT = path.join(CONTRACTS_DIR, "..");
const HARDHAT_BIN = path.join(ROOT, "node_modules", ".bin", "hardhat");
const CACHE_FILE = path.join(CONTRACTS_DIR, "cache", "solidity-files-cache.json");

/** What Nx restores for `contracts:compile` in a checkout elsewhere: the compile outputs, byte for byte. */
describe("the compile cache survives a move of the checkout", () => {
  const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), "raffle-moved-checkout-"));

  after(() => fs.rmSync(elsewhere, { recursive: true, force: true }));

  it("keeps no absolute path in contracts/cache, and a copy of the checkout with it compiles nothing", async function () {
    this.timeout(300_000);
    await run(HARDHAT_BIN, ["compile", "--quiet"], { cwd: CONTRACTS_DIR });
    const cache = JSON.parse(fs.readFileSync(CACHE_FILE, "utf8")) as { files: Record<string, { sourceName: string }> };
    const keys = Object.keys(cache.files);
    expect(keys).to.include(path.join("src", "Exchange.sol"));
    expect(keys.filter((key) => path.isAbsolute(key) || key.includes(ROOT))).to.deep.equal([]);

    // The checkout elsewhere: the contracts with their compile outputs, the generated bindings, the shared config, and
    // a node_modules of its own for the Solidity libraries (Hardhat resolves them to their real path); every other
    // installed package is linked.
    // forge's outputs are not Hardhat's, and the invariant suite (a target of its own, run beside this one) may be
    // writing them right now.
    const skip = new Set(
      ["deployments", path.join("ignition", "deployments"), "forge-out", "forge-cache"].map((dir) => path.join(CONTRACTS_DIR, dir)),
    );
    fs.cpSync(CONTRACTS_DIR, path.join(elsewhere, "contracts"), { recursive: true, filter: (source) => !skip.has(source) });
    fs.cpSync(path.join(ROOT, "libs", "chain"), path.join(elsewhere, "libs", "chain"), {
      recursive: true,
      filter: (source) => !source.includes("node_modules"),
    });
    fs.copyFileSync(path.join(ROOT, "tsconfig.base.json"), path.join(elsewhere, "tsconfig.base.json"));
    const solidityLibraries = ["@openzeppelin/contracts", "@chainlink/contracts", "erc721a"];
    for (const entry of fs.readdirSync(path.join(ROOT, "node_modules"))) {
      const scoped = entry.startsWith("@") ? fs.readdirSync(path.join(ROOT, "node_modules", entry)).map((name) => `${entry}/${name}`) : [entry];
      for (const name of scoped) {
        const [source, target] = [path.join(ROOT, "node_modules", name), path.join(elsewhere, "node_modules", name)];
        fs.mkdirSync(path.dirname(target), { recursive: true });
        if (!solidityLibraries.includes(name)) fs.symlinkSync(source, target);
        else fs.cpSync(source, target, { recursive: true, filter: (file) => fs.statSync(file).isDirectory() || /\.sol$|package\.json$/.test(file) });
      }
    }

    const { stdout } = await run(path.join(elsewhere, "node_modules", ".bin", "hardhat"), ["compile"], { cwd: path.join(elsewhere, "contracts") });
    expect(stdout).to.match(/Nothing to compile/);
    expect(stdout).to.not.match(/Compiled \d+ Solidity file/);
  });
});
