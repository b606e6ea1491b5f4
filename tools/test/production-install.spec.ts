import { execFile } from "node:child_process";
import * as fs from "node:fs";
import { builtinModules } from "node:module";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";

import { oneAtATime } from "./support/packed-sdk";

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, "../..");
const DIST = path.join(ROOT, "dist");

interface LockPackage {
  dev?: boolean;
  devOptional?: boolean;
}
const lock = JSON.parse(fs.readFileSync(path.join(ROOT, "package-lock.json"), "utf8")) as { packages: Record<string, LockPackage> };

function jsFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : jsFiles(full);
    return entry.name.endsWith(".js") ? [full] : [];
  });
}

/** The package names the compiled apps require (`@scope/name` or `name`), workspaces and Node's own modules aside. */
function requiredPackages(): Set<string> {
  const names = new Set<string>();
  for (const file of jsFiles(DIST)) {
    for (const [, request] of fs.readFileSync(file, "utf8").matchAll(/require\("([^"./][^"]*)"\)/g)) {
      const name = request.startsWith("@") ? request.split("/").slice(0, 2).join("/") : request.split("/")[0];
      if (!name.startsWith("@raffle/") && !name.startsWith("node:") && !builtinModules.includes(name)) names.add(name);
    }
  }
  return names;
}

describe("the compiled apps run from a production install (npm ci --omit=dev)", () => {
  it("requires only production dependencies: nothing dist/ needs is a devDependency", () => {
    expect(fs.existsSync(path.join(DIST, "apps/api/src/main.js"))).toBe(true);
    const packages = [...requiredPackages()];
    // Not "pg": TypeORM loads it by name at run time, and no compiled file requires it (only the test databases did).
    expect(packages).toEqual(expect.arrayContaining(["ethers", "@nestjs/core", "typeorm"]));
    const devOnly = packages.filter((name) => {
      const entry = lock.packages[`node_modules/${name}`];
      return !entry || entry.dev === true || entry.devOptional === true;
    });
    expect(devOnly).toEqual([]);
  });

  it("ships no test support: the testing entry points (@raffle/chain/testing, @raffle/db/testing, @raffle/testing) stay out of dist/", () => {
    const shipped = jsFiles(DIST).map((file) => path.relative(DIST, file).split(path.sep).join("/"));
    expect(shipped).toEqual(expect.arrayContaining(["libs/chain/src/index.js", "libs/db/src/index.js"]));
    expect(shipped.filter((file) => file.startsWith("libs/testing/") || file.includes("/testing/"))).toEqual([]);
    const requests = jsFiles(DIST).flatMap((file) =>
      [...fs.readFileSync(file, "utf8").matchAll(/require\("(@raffle\/[^"]+)"\)/g)].map((match) => match[1]),
    );
    expect(requests.filter((request) => request === "@raffle/testing" || request.endsWith("/testing"))).toEqual([]);
  });

  it("starts the API and the worker from a copy installed with --omit=dev, as the runtime image does", async () => {
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), "raffle-prod-"));
    try {
      const manifests = [
        "package.json",
        "package-lock.json",
        ...fs.readFileSync(path.join(ROOT, "Dockerfile"), "utf8").matchAll(/^COPY (\S+\/package\.json) /gm),
      ].map((entry) => (typeof entry === "string" ? entry : entry[1]));
      // Never while the SDK is packed: its published manifest stands in for the workspace's until the pack ends.
      await oneAtATime(async () => {
        for (const file of new Set(manifests)) {
          fs.mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
          fs.copyFileSync(path.join(ROOT, file), path.join(copy, file));
        }
      });
      await run("npm", ["ci", "--omit=dev", "--ignore-scripts", "--no-audit", "--no-fund", "--prefer-offline"], { cwd: copy });
      expect(fs.existsSync(path.join(copy, "node_modules/hardhat"))).toBe(false);
      fs.cpSync(DIST, path.join(copy, "dist"), { recursive: true });
      // Every module loads; each app then stops on its configuration (no chain, no key): exit 1 with the reason.
      const env = { PATH: process.env.PATH, CHAIN_ID: "11155111", DEPLOYMENT_FILE: path.join(copy, "none.json"), API_KEY: "rk_x" };
      for (const [app, reason] of [
        ["apps/api/src/main.js", /none\.json|SIGNER_PRIVATE_KEY/],
        ["apps/merchant-worker/src/main.js", /MERCHANT_PRIVATE_KEY or MERCHANT_KEYSTORE_FILE/],
      ] as const) {
        const outcome = await run("node", [path.join("dist", app), "--once"], { cwd: copy, env }).then(
          () => ({ output: "exited 0" }),
          (error: { stdout: string; stderr: string }) => ({ output: error.stdout + error.stderr }),
        );
        expect(outcome.output).not.toMatch(/Cannot find module/);
        expect(outcome.output).toMatch(reason);
      }
    } finally {
      fs.rmSync(copy, { recursive: true, force: true });
    }
  });

  it("has a slim runtime stage on a supported Node LTS that runs the services as a non-root user", () => {
    const dockerfile = fs.readFileSync(path.join(ROOT, "Dockerfile"), "utf8");
    const image = /^ARG NODE_IMAGE=node:(\d+)-bookworm-slim$/m.exec(dockerfile);
    expect(Number(image?.[1])).toBeGreaterThanOrEqual(22);
    const runtime = dockerfile.slice(dockerfile.indexOf("AS runtime"));
    expect(runtime).toMatch(/npm ci --omit=dev/);
    expect(runtime).toMatch(/COPY --from=build \/app\/dist \.\/dist/);
    expect(runtime).not.toMatch(/^COPY \. \./m);
    expect(runtime).toMatch(/^USER node$/m);
    for (const target of ["api", "merchant-worker"]) expect(dockerfile).toMatch(new RegExp(`^FROM runtime AS ${target}$`, "m"));
  });
});
