import * as fs from "node:fs";
import * as path from "node:path";

import { run, succeeded } from "./processes";

const ROOT = path.resolve(__dirname, "../../..");
const CONSUMER = path.resolve(__dirname, "../sdk-consumer");

/** The environment without the variables of the npm run this test may be inside, so they cannot steer the install. */
function plainEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name))), ...extra };
}

/** Builds the SDK package (libs/sdk/dist) and packs it into `folder`; answers the tarball's path. */
export async function packSdk(folder: string): Promise<string> {
  succeeded("the SDK build", await run(process.execPath, ["libs/sdk/scripts/build.js"], { cwd: ROOT, env: plainEnv(), timeoutMs: 120_000 }));
  const output = succeeded(
    "npm pack",
    await run("npm", ["pack", "./libs/sdk/dist", "--pack-destination", folder], { cwd: ROOT, env: plainEnv(), timeoutMs: 60_000 }),
  );
  const tarball = output.trim().split("\n").pop()!.trim();
  return path.join(folder, tarball);
}

/**
 * Installs the tarball and ethers into `folder`, an empty project outside the workspace, with the consumer files
 * (tools/test/sdk-consumer) beside them. npm takes what it can from its cache and the registry for the rest.
 */
export async function installPackedSdk(tarball: string, folder: string): Promise<void> {
  fs.writeFileSync(path.join(folder, "package.json"), JSON.stringify({ name: "sdk-consumer", private: true }));
  for (const file of fs.readdirSync(CONSUMER)) fs.copyFileSync(path.join(CONSUMER, file), path.join(folder, file));
  succeeded(
    "npm install of the packed SDK",
    await run("npm", ["install", tarball, "ethers@6.17.0", "--prefer-offline", "--no-audit", "--no-fund"], {
      cwd: folder,
      env: plainEnv(),
      timeoutMs: 180_000,
    }),
  );
}

/** Type-checks consumer.ts against the installed .d.ts with the workspace's TypeScript (strict, library checks on). */
export async function typecheckConsumer(folder: string): Promise<void> {
  const tsc = path.join(ROOT, "node_modules/typescript/bin/tsc");
  succeeded(
    "tsc of the SDK consumer",
    await run(process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: folder, env: plainEnv(), timeoutMs: 120_000 }),
  );
}

/** Runs buy.js (buyTicket from the installed package) and answers what it printed. */
export async function buyWithPackedSdk(
  folder: string,
  env: Record<string, string>,
): Promise<{ sdk: string; ticketId: string; roundId: number; txHash: string }> {
  const output = succeeded("buy.js", await run(process.execPath, ["buy.js"], { cwd: folder, env: plainEnv(env), timeoutMs: 60_000 }));
  return JSON.parse(output.trim().split("\n").pop()!);
}
