/**
 * `npm --workspace tools run dev:measure`: the `npm run dev` figure of issue #51, measured. Starts `npm run dev`, saves
 * a harmless body change in contracts/src/Raffle.sol (a view that reads through a local; the bytecode changes, so
 * the compile cannot skip it), and times until the API serves the new deployment: the stack file names a new exchange
 * and the API lists the demo raffles of that deployment. Restores the file whatever happens, stops the stack, and
 * writes the seconds to docs/data/loop-figures.json ("devContractRedeploySeconds"; other keys are kept).
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

import { freePort } from "@raffle/testing";

import { STACK_FILE, type StackFile } from "../stack/stack-file";
import { DEV_TARGET_SECONDS, withDevRow } from "./dev-row";

const ROOT = path.resolve(__dirname, "../..");
const CONTRACT = path.join(ROOT, "contracts/src/Raffle.sol");
const ORIGINAL_BODY = "        return _current.paused;\n";
const CHANGED_BODY = "        bool isPaused = _current.paused;\n        return isPaused;\n";
const FIGURES_FILE = path.join(ROOT, "docs/data/loop-figures.json");
const KEY = "devContractRedeploySeconds";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function readStack(): StackFile | null {
  try {
    return JSON.parse(fs.readFileSync(STACK_FILE, "utf8")) as StackFile;
  } catch {
    return null;
  }
}

/** Whether the API lists every demo raffle of the stack file's first chain (the deployment it was just given). */
async function apiServes(stack: StackFile): Promise<boolean> {
  const response = await fetch(`${stack.apiUrl}/raffle/contracts?chainId=${stack.chainId}&take=100`, {
    headers: { authorization: `Bearer ${stack.apiKey}` },
  });
  if (response.status !== 200) return false;
  const listed = new Set(((await response.json()) as { rows: Array<{ address: string }> }).rows.map((row) => row.address));
  return stack.contracts.raffles.every((raffle) => listed.has(raffle.raffle));
}

async function main(): Promise<void> {
  const source = fs.readFileSync(CONTRACT, "utf8");
  if (!source.includes(ORIGINAL_BODY))
    throw new Error(`${path.relative(ROOT, CONTRACT)} no longer has the body this script changes: update ORIGINAL_BODY`);
  // Free ports unless given: a developer's `npm start` on the default ones does not stop the measurement.
  const ports: Record<string, string> = {};
  for (const name of ["PORT", "WEB_PORT", "CHAIN_PORT", "SECOND_CHAIN_PORT"]) ports[name] = process.env[name] ?? String(await freePort());
  const dev = spawn("npm", ["run", "dev"], { cwd: ROOT, env: { ...process.env, ...ports }, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  dev.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  dev.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => dev.once("exit", () => resolve()));
  let seconds: number;
  try {
    for (const deadline = Date.now() + 600_000; !output.includes("\nready\n"); await sleep(250)) {
      if (dev.exitCode !== null) throw new Error(`npm run dev exited before it was ready:\n${output.slice(-3_000)}`);
      if (Date.now() > deadline) throw new Error(`npm run dev was not ready within 10 minutes:\n${output.slice(-3_000)}`);
    }
    const before = readStack()!.contracts.exchange;
    process.stdout.write(`npm run dev is ready (exchange ${before}); saving a change in ${path.relative(ROOT, CONTRACT)}\n`);
    const savedAt = Date.now();
    fs.writeFileSync(CONTRACT, source.replace(ORIGINAL_BODY, CHANGED_BODY));
    for (;;) {
      const stack = readStack();
      if (stack && stack.contracts.exchange !== before && (await apiServes(stack).catch(() => false))) break;
      if (Date.now() - savedAt > 600_000) throw new Error(`the change was not served within 10 minutes:\n${output.slice(-3_000)}`);
      if (dev.exitCode !== null) throw new Error(`npm run dev exited:\n${output.slice(-3_000)}`);
      await sleep(250);
    }
    seconds = Math.round((Date.now() - savedAt) / 100) / 10;
    // Where the time went, as the stack reported it (compile, deploy, restarts).
    const steps = output.split("\n").filter((line) => /^(compiled in|deployed at|redeployed in)/.test(line));
    process.stdout.write(`${steps.map((line) => `  ${line}`).join("\n")}\n`);
  } finally {
    fs.writeFileSync(CONTRACT, source);
    try {
      process.kill(-dev.pid!, "SIGINT");
    } catch {
      // already gone
    }
    const late = setTimeout(() => {
      try {
        process.kill(-dev.pid!, "SIGKILL");
      } catch {
        // gone meanwhile
      }
    }, 5_000);
    await exited;
    clearTimeout(late);
  }
  const figures = fs.existsSync(FIGURES_FILE) ? (JSON.parse(fs.readFileSync(FIGURES_FILE, "utf8")) as Record<string, unknown>) : {};
  fs.mkdirSync(path.dirname(FIGURES_FILE), { recursive: true });
  fs.writeFileSync(FIGURES_FILE, `${JSON.stringify({ ...figures, [KEY]: seconds }, null, 2)}\n`);
  const doc = path.join(ROOT, "docs/development.md");
  fs.writeFileSync(doc, withDevRow(fs.readFileSync(doc, "utf8"), seconds));
  process.stdout.write(`${KEY}: ${seconds} s (target ≤ ${DEV_TARGET_SECONDS} s), written to ${path.relative(ROOT, FIGURES_FILE)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`dev:measure failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
