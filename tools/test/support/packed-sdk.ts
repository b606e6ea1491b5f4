import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

import { run, succeeded } from "./processes";

const ROOT = path.resolve(__dirname, "../../..");
const SDK = path.join(ROOT, "libs/sdk");
const CONSUMER = path.resolve(__dirname, "../sdk-consumer");

/** A project of each module system: Node-ESM ("type": "module") or CommonJS. */
export type ModuleKind = "module" | "commonjs";

/** The environment without the variables of the npm run this test may be inside, so they cannot steer the install. */
function plainEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name))), ...extra };
}

/** The lock of the SDK's folder: a directory, made by one process at a time, holding its owner's pid. */
const PACK_LOCK = path.join(os.tmpdir(), `raffle-sdk-pack-${createHash("sha256").update(SDK).digest("hex").slice(0, 12)}.lock`);

function lockOwnerGone(): boolean {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(path.join(PACK_LOCK, "pid"), "utf8"));
  } catch {
    // No pid yet: its owner is between making the lock and writing the pid, or died there.
    try {
      return Date.now() - fs.statSync(PACK_LOCK).mtimeMs > 60_000;
    } catch {
      return false; // released meanwhile
    }
  }
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/**
 * Runs `pack` while no other process packs the SDK. `prepack` writes libs/sdk/dist and swaps libs/sdk/package.json
 * for the published manifest until `postpack`: two packs at once (the tools suite runs its specs on two workers) would
 * build over each other and could restore the published manifest as the workspace's; a spec that copies the manifests
 * takes the lock too, so it never copies the published one. A lock whose owner is gone (a killed run) is taken over.
 */
export async function oneAtATime<T>(pack: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      fs.mkdirSync(PACK_LOCK);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      if (lockOwnerGone()) fs.rmSync(PACK_LOCK, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  fs.writeFileSync(path.join(PACK_LOCK, "pid"), String(process.pid));
  try {
    return await pack();
  } finally {
    fs.rmSync(PACK_LOCK, { recursive: true, force: true });
  }
}

/**
 * `npm pack` in libs/sdk, as a publisher would run it: its `prepack` builds dist/ (ESM and CommonJS with their types)
 * and swaps in the published manifest, `postpack` puts the workspace's back. Answers the tarball's path in `folder`.
 */
export async function packSdk(folder: string): Promise<string> {
  // A folder of its own, so the tarball is the only file in it: npm's notices share the output with the file name,
  // so the output's last line is not always the name (an update notice made it "npm notice ..." once).
  const destination = fs.mkdtempSync(path.join(folder, "pack-"));
  const packed = await oneAtATime(async () => {
    try {
      return await run("npm", ["pack", "--pack-destination", destination], { cwd: SDK, env: plainEnv(), timeoutMs: 180_000 });
    } finally {
      // npm runs postpack only after a pack that succeeded: a failed one (its destination removed, a timeout) left the
      // published manifest as the workspace's, and the SDK's own suite then had no test script.
      succeeded(
        "restoring libs/sdk's workspace manifest",
        await run("node", ["scripts/manifest.js", "restore"], { cwd: SDK, env: plainEnv(), timeoutMs: 30_000 }),
      );
    }
  });
  succeeded("npm pack in libs/sdk", packed);
  const tarballs = fs.readdirSync(destination).filter((file) => file.endsWith(".tgz"));
  if (tarballs.length !== 1) throw new Error(`npm pack left ${tarballs.length} tarballs in ${destination}`);
  return path.join(destination, tarballs[0]);
}

/**
 * Installs the tarball and ethers into `folder`, an empty project of `kind` outside the workspace, with the consumer
 * files (tools/test/sdk-consumer) beside them. npm takes what it can from its cache (`--prefer-offline`) and the
 * registry for the rest.
 */
export async function installPackedSdk(tarball: string, folder: string, kind: ModuleKind = "commonjs"): Promise<void> {
  fs.writeFileSync(path.join(folder, "package.json"), JSON.stringify({ name: `sdk-consumer-${kind}`, private: true, type: kind }));
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

/**
 * Type-checks consumer.ts against the installed .d.ts with the workspace's TypeScript (strict, library checks on,
 * `module: node16`: in a "type": "module" project it is an ES module and reads the package's ESM types, else CommonJS).
 */
export async function typecheckConsumer(folder: string): Promise<void> {
  const tsc = path.join(ROOT, "node_modules/typescript/bin/tsc");
  succeeded(
    "tsc of the SDK consumer",
    await run(process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: folder, env: plainEnv(), timeoutMs: 120_000 }),
  );
}

/**
 * Buys one ticket with buyTicket() from the installed package (buy.mjs in an ESM project, buy.js in a CommonJS one)
 * and answers what it printed: the file the SDK was loaded from, and how many copies of ethers the process loaded.
 */
export async function buyWithPackedSdk(
  folder: string,
  env: Record<string, string>,
): Promise<{ sdk: string; ethersCopies: number; ticketId: string; roundId: number; txHash: string }> {
  const { type } = JSON.parse(fs.readFileSync(path.join(folder, "package.json"), "utf8")) as { type: ModuleKind };
  const script = type === "module" ? "buy.mjs" : "buy.js";
  const output = succeeded(script, await run(process.execPath, [script], { cwd: folder, env: plainEnv(env), timeoutMs: 60_000 }));
  return JSON.parse(output.trim().split("\n").pop()!);
}
