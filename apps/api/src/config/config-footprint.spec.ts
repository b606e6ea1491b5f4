import { execFileSync } from "node:child_process";
import * as path from "node:path";

/**
 * The cluster primary of API_WORKERS > 1 loads the config and nothing of the app (main.ts): the config must not pull in
 * ethers or the contracts' bindings, which would cost the primary about 17 MiB of RSS for nothing (the API's memory
 * target counts every process). Checked in a plain Node process, where `require.cache` lists what really loaded.
 */
describe("the API config's footprint", () => {
  it("loads neither ethers nor the contracts' bindings", () => {
    const script = `
      require(${JSON.stringify(path.join(__dirname, "api-config.ts"))});
      const loaded = Object.keys(require.cache);
      console.log(JSON.stringify({
        modules: loaded.length,
        ethers: loaded.filter((file) => file.includes("/node_modules/ethers/")).length,
        typechain: loaded.filter((file) => file.includes("/typechain/")).length,
      }));`;
    const output = execFileSync(process.execPath, ["-r", "ts-node/register/transpile-only", "-e", script], {
      cwd: path.resolve(__dirname, "../../../.."),
      env: { ...process.env, TS_NODE_PROJECT: path.resolve(__dirname, "../../tsconfig.json") },
      encoding: "utf8",
    });
    const footprint = JSON.parse(output.trim().split("\n").pop()!);
    expect(footprint.modules).toBeGreaterThan(10);
    expect(footprint).toMatchObject({ ethers: 0, typechain: 0 });
  });
});
