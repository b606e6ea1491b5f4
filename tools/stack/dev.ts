/**
 * `npm run dev`: the local stack of `npm start`, following your edits.
 *
 *   npm run dev      PORT (API, 3000), WEB_PORT (player app, 5173), CHAIN_PORT (8545), SECOND_CHAIN_PORT (CHAIN_PORT + 1)
 *
 * This process keeps the two chains, the database and the player app's server for the whole session, and runs the API
 * (with its indexers) and the merchant worker as processes of their own, so each restarts alone. They run compiled
 * (dist/, as production does): before each start the saved sources newer than their compiled files are transpiled one
 * by one (tools/jest/fresh-dist.cjs, milliseconds a file; the whole build once if dist/ has no apps), where a ts-node
 * start transpiled the whole API again at every restart. After a contract change that happens while the deployment runs.
 *
 * - a saved contract (contracts/src) recompiles and regenerates the bindings, deploys the platform and the demo raffles
 *   afresh on both chains, clears what was indexed from the old deployment, and restarts the API and the worker on the
 *   new one (the stack file gets the new addresses);
 * - a saved API or worker file restarts that process; a saved library file restarts both;
 * - a saved web file rebuilds the player app (Vite, a few seconds) and swaps the new build in.
 * A build that fails (a contract that does not compile, a TypeScript file that does not parse, a web build error) is
 * shown and changes nothing: the stack keeps serving the last good build.
 *
 * Watching is Node's own fs.watch({ recursive: true }) (Linux since Node 20.13) on the source folders, debounced: no new
 * dependency (chokidar is in the tree only through mocha, and its polling fallbacks are not needed on Linux).
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { Wallet } from "ethers";
import { LOCAL_CHAIN_ID, LOCAL_DEV_KEYS, SECOND_LOCAL_CHAIN_ID, localDevPrivateKey } from "@raffle/chain";
import { startHardhatNode, type HardhatNode } from "@raffle/chain/testing";
import { createDataSource, openDatabase, startEmbeddedPglite } from "@raffle/db";
import { resetIndexedChain } from "@raffle/indexer";
import { ApiKeyService } from "@raffle/api";
import { RaffleApi } from "@raffle/sdk";
import { spawnChildService, type ChildService } from "@raffle/test-stack";
import { reapWithThisProcess, releaseFromReaper } from "@raffle/testing";

import { serveWebApp, WEB_DIST_DIR, type ServedWebApp } from "../../apps/web/server/serve-web-app";
import { stopOnAnyEnd } from "./lifecycle";
import { STACK_INDEXER_POLL_MS, itemKeepers, putOnPublicSale, waitFor, type DemoDeployment } from "./local-stack";
import { enableGasless, gaslessPlayer } from "./gasless-demo";
import { takenPorts } from "./ports";
import { STACK_DIR, STACK_PLAYER_INDEXES, removeStackFile, writeStackFile, type StackFile } from "./stack-file";
import { VrfFulfiller } from "./vrf-fulfiller";
import type { ItemKeeper } from "./item-keeper";

const ROOT = path.resolve(__dirname, "../..");
const TS_NODE = path.join(ROOT, "node_modules/.bin/ts-node");
// Plain Node (the suites' global setup): brings dist/ up to date with the saved sources.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const freshDist = require("../jest/fresh-dist.cjs") as () => Promise<void>;
const API_MAIN = path.join(ROOT, "dist/apps/api/src/main.js");
const WORKER_MAIN = path.join(ROOT, "dist/apps/merchant-worker/src/main.js");
const CHAIN_IDS = [LOCAL_CHAIN_ID, SECOND_LOCAL_CHAIN_ID];
/** Saves come in bursts (an editor writes a file and its backup, a formatter rewrites it): one rebuild per burst. */
const DEBOUNCE_MS = 300;

type Part = "contracts" | "api" | "worker" | "web";

/** What each watched folder's changes restart; generated files (the bindings, the SDK's types) are not sources. */
const WATCHED: Array<{ dir: string; parts: Part[]; matches: (file: string) => boolean }> = [
  { dir: "contracts/src", parts: ["contracts"], matches: (file) => file.endsWith(".sol") },
  { dir: "apps/api/src", parts: ["api"], matches: isSource },
  { dir: "apps/merchant-worker/src", parts: ["worker"], matches: isSource },
  { dir: "apps/web/src", parts: ["web"], matches: (file) => /\.(tsx?|css|html|json)$/.test(file) },
  ...["chain", "config", "db", "indexer", "sdk"].map((lib) => ({
    dir: `libs/${lib}/src`,
    parts: ["api", "worker"] as Part[],
    matches: (file: string) => isSource(file) && !file.includes("typechain") && !file.includes("generated"),
  })),
];

function isSource(file: string): boolean {
  return file.endsWith(".ts") && !file.endsWith(".spec.ts");
}

const say = (line: string): void => void process.stdout.write(`${line}\n`);
const since = (startedAt: number) => `${((Date.now() - startedAt) / 1000).toFixed(1)} s`;

/** Runs a build command to its end; its output is shown only when it fails. */
function build(command: string, args: string[], cwd: string): Promise<{ ok: boolean; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    // A compile or a deploy outlives no dev stack either.
    if (child.pid) reapWithThisProcess(child.pid);
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("close", (code) => {
      if (child.pid) releaseFromReaper(child.pid);
      resolve({ ok: code === 0, output });
    });
  });
}

/** Syntax errors of the saved files: the API and the worker run each file transpiled alone, so a file that does not parse must not replace a running build. */
function syntaxErrors(files: string[]): string[] {
  return files.flatMap((file) => {
    if (!fs.existsSync(file) || !file.endsWith(".ts")) return [];
    const output = ts.transpileModule(fs.readFileSync(file, "utf8"), { fileName: file, reportDiagnostics: true });
    return (output.diagnostics ?? []).map((diagnostic) => {
      const { line, character } = diagnostic.file!.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
      return `${path.relative(ROOT, file)}:${line + 1}:${character + 1} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`;
    });
  });
}

async function main(): Promise<void> {
  process.env.LOG_LEVEL ??= "silent";
  const chainPort = Number(process.env.CHAIN_PORT ?? 8545);
  const apiPort = Number(process.env.PORT ?? 3000);
  const webPort = Number(process.env.WEB_PORT ?? 5173);
  const chainPorts = [chainPort, Number(process.env.SECOND_CHAIN_PORT ?? chainPort + 1)];
  const taken = await takenPorts([
    { port: chainPorts[0], what: "the first local chain", setting: "CHAIN_PORT" },
    { port: chainPorts[1], what: "the second local chain", setting: "SECOND_CHAIN_PORT" },
    { port: apiPort, what: "the API", setting: "PORT" },
    { port: webPort, what: "the player app", setting: "WEB_PORT" },
  ]);
  if (taken.length > 0) {
    process.stderr.write(`npm run dev cannot start the stack:\n${taken.map((line) => `  ${line}`).join("\n")}\n`);
    process.exit(1);
  }

  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const webUrl = `http://127.0.0.1:${webPort}`;
  const stoppers: Array<() => Promise<unknown>> = [];
  let api: ChildService | null = null;
  let worker: ChildService | null = null;
  let web: ServedWebApp | null = null;
  let fulfillers: VrfFulfiller[] = [];
  let keepers: ItemKeeper[] = [];
  stopOnAnyEnd(
    async () => {
      removeStackFile();
      fulfillers.forEach((fulfiller) => fulfiller.stop());
      keepers.forEach((keeper) => keeper.stop());
      await Promise.all([worker?.stop(), api?.stop(), web?.close()]);
      for (const stop of stoppers.reverse()) await stop().catch(() => undefined);
    },
    say,
    { what: "the dev stack" },
  );

  say("starting two local Hardhat chains and the embedded database");
  const nodes: HardhatNode[] = await Promise.all(
    CHAIN_IDS.map((chainId, index) => startHardhatNode({ port: chainPorts[index], chainId, wallClock: true })),
  );
  nodes.forEach((node) => stoppers.push(() => node.stop()));
  const database = await startEmbeddedPglite(path.join(STACK_DIR, "pglite"));
  stoppers.push(() => database.stop());
  const migrator = await createDataSource(database.url).initialize();
  await migrator.runMigrations({ transaction: "all" });
  await migrator.destroy();
  const keys = await openDatabase({ url: database.url, poolSize: 1 });
  stoppers.push(() => keys.destroy());
  const merchant = new Wallet(LOCAL_DEV_KEYS.demoMerchant);
  const apiKey = (await new ApiKeyService(keys, { apiKeyCacheSeconds: 0 }).create(merchant.address, "npm run dev")).key;
  const folder = fs.mkdtempSync(path.join(STACK_DIR, "dev-"));
  stoppers.push(async () => fs.rmSync(folder, { recursive: true, force: true }));
  let demos: DemoDeployment[] = [];

  const deploymentFile = (chainId: number) => path.join(folder, `deployment-${chainId}.json`);

  const startApi = async (): Promise<void> => {
    const env: Record<string, string> = {
      PORT: String(apiPort),
      DATABASE_URL: database.url,
      CHAIN_IDS: CHAIN_IDS.join(","),
      INDEXER_POLL_INTERVAL_MS: String(STACK_INDEXER_POLL_MS),
      DEFAULT_RAFFLE_SCHEDULE: process.env.RAFFLE_SCHEDULE ?? "* * * * *",
      RATE_LIMIT_SIGN_PER_ACCOUNT: "600",
      WEBHOOK_ALLOW_PRIVATE_URLS: "true",
      WEB_ORIGINS: `${webUrl},http://localhost:${webPort}`,
      LOG_LEVEL: process.env.API_LOG_LEVEL ?? "error",
    };
    nodes.forEach((node, index) => {
      env[`CHAIN_${CHAIN_IDS[index]}_RPC_URL`] = node.rpcUrl;
      env[`CHAIN_${CHAIN_IDS[index]}_INDEXER_WS_URL`] = node.wsUrl;
      env[`CHAIN_${CHAIN_IDS[index]}_DEPLOYMENT_FILE`] = deploymentFile(CHAIN_IDS[index]);
    });
    api = spawnChildService(process.execPath, [API_MAIN], {
      cwd: ROOT,
      env: { ...process.env, ...env },
    });
    const started = api;
    await waitFor(async () => {
      if (started.exited()) throw new Error(`the API exited:\n${started.output().slice(-3_000)}`);
      return (await fetch(`${apiUrl}/health`)).status === 200;
    }, 120_000).catch((error: unknown) => {
      throw started.exited() ? new Error(`the API exited:\n${started.output().slice(-3_000)}`) : error;
    });
    // The demo raffles of the current deployment, listed by its indexers and put on public sale.
    const client = new RaffleApi({ baseUrl: apiUrl, apiKey });
    await waitFor(async () => {
      for (const [index, demo] of demos.entries()) {
        const listed = await client.listAllRaffleContracts(CHAIN_IDS[index]);
        for (const raffle of demo.raffles) raffle.contractId = listed.find((row) => row.address === raffle.raffle)?.id ?? null;
      }
      return demos.every((demo) => demo.raffles.every((raffle) => raffle.contractId !== null));
    }, 60_000);
    for (const raffle of demos.flatMap((demo) => demo.raffles)) await putOnPublicSale(apiUrl, apiKey, raffle.contractId!);
    await enableGasless(apiUrl, webUrl, CHAIN_IDS[0], merchant);
  };

  const startWorker = async (): Promise<void> => {
    const env: Record<string, string> = {
      API_URL: apiUrl,
      API_KEY: apiKey,
      CHAIN_IDS: CHAIN_IDS.join(","),
      MERCHANT_PRIVATE_KEY: LOCAL_DEV_KEYS.demoMerchant,
      REFRESH_INTERVAL_SECONDS: "10",
      HEALTH_PORT: "0",
      LOG_LEVEL: process.env.WORKER_LOG_LEVEL ?? "error",
    };
    nodes.forEach((node, index) => (env[`CHAIN_${CHAIN_IDS[index]}_RPC_URL`] = node.rpcUrl));
    // It relays gasless requests to the current deployment's Exchanges, as in `npm start`.
    Object.assign(env, { RELAYER_ENABLED: "true", RELAYER_ID: "local-dev" });
    demos.forEach((demo, index) => (env[`CHAIN_${CHAIN_IDS[index]}_EXCHANGE_ADDRESS`] = demo.deployment.exchange));
    worker = spawnChildService(process.execPath, [WORKER_MAIN], {
      cwd: ROOT,
      env: { ...process.env, ...env },
    });
  };

  const serveWeb = async (): Promise<void> => {
    await web?.close();
    web = await serveWebApp({
      port: webPort,
      config: {
        apiUrl,
        chains: nodes.map((node, index) => ({
          id: CHAIN_IDS[index],
          name: `Local chain ${CHAIN_IDS[index]}`,
          rpcUrl: node.rpcUrl,
          symbol: "ETH",
          factory: demos[index].deployment.raffleFactory,
        })),
      },
    });
  };

  const writeFacts = () => {
    const [first] = demos;
    const chains = demos.map((demo, index) => ({
      chainId: CHAIN_IDS[index],
      rpcUrl: nodes[index].rpcUrl,
      wsUrl: nodes[index].wsUrl,
      exchange: demo.deployment.exchange,
      factory: demo.deployment.raffleFactory,
      vrfCoordinator: demo.deployment.vrfCoordinator,
      priceToken: demo.priceToken,
      raffles: demo.raffles,
    }));
    const facts: StackFile = {
      apiUrl,
      webUrl,
      consoleUrl: `${webUrl}/console/`,
      docsUrl: `${apiUrl}/docs`,
      apiKey,
      rpcUrl: nodes[0].rpcUrl,
      chainId: CHAIN_IDS[0],
      databaseUrl: database.url,
      pgliteDir: path.join(STACK_DIR, "pglite"),
      pid: process.pid,
      contracts: {
        exchange: first.deployment.exchange,
        raffleFactory: first.deployment.raffleFactory,
        vrfCoordinator: first.deployment.vrfCoordinator,
        priceToken: first.priceToken,
        raffles: first.raffles,
      },
      chains,
      merchant: { wallet: merchant.address, privateKey: LOCAL_DEV_KEYS.demoMerchant },
      players: STACK_PLAYER_INDEXES.map((index) => new Wallet(localDevPrivateKey(index))).map((player) => ({
        address: player.address,
        privateKey: player.privateKey,
      })),
      gaslessPlayer: { address: gaslessPlayer().address, privateKey: gaslessPlayer().privateKey },
    };
    writeStackFile(facts);
  };

  /** A fresh deployment on both chains, from a process of its own (with the bindings the last compile wrote). */
  const deploy = async (): Promise<DemoDeployment[]> => {
    const args = ["--transpile-only", "-P", "tsconfig.json", "stack/dev-deploy.ts", ...nodes.map((node) => node.rpcUrl)];
    const run = await build(TS_NODE, args, path.join(ROOT, "tools"));
    const line = run.output.split("\n").find((each) => each.startsWith("DEPLOYED "));
    if (!run.ok || !line) throw new Error(`deploying the demo failed:\n${run.output.slice(-3_000)}`);
    return JSON.parse(line.slice("DEPLOYED ".length)) as DemoDeployment[];
  };

  /** The deployment `demos` everywhere: the API's files and index, the VRF stand-ins, the worker, the app, the facts. */
  const serveDeployment = async (): Promise<void> => {
    fulfillers.forEach((fulfiller) => fulfiller.stop());
    keepers.forEach((keeper) => keeper.stop());
    await Promise.all([worker?.stop(), api?.stop()]);
    demos.forEach((demo, index) => fs.writeFileSync(deploymentFile(CHAIN_IDS[index]), JSON.stringify(demo.deployment)));
    // What the indexers stored belongs to the old contracts: the new deployment is indexed from its own first block.
    for (const chainId of CHAIN_IDS) await resetIndexedChain(keys, chainId);
    await startApi();
    fulfillers = nodes.map(
      (node, index) =>
        new VrfFulfiller(demos[index].deployment.vrfCoordinator, new Wallet(LOCAL_DEV_KEYS.platformAdmin, node.provider), () => undefined),
    );
    fulfillers.forEach((fulfiller) => fulfiller.start());
    keepers = itemKeepers(
      nodes.map((node, index) => ({ provider: node.provider, raffles: demos[index].raffles })),
      () => undefined,
    );
    await Promise.all(keepers.map((keeper) => keeper.start()));
    await startWorker();
    await serveWeb();
    writeFacts();
  };

  say("deploying the platform and the demo raffles on both chains");
  [demos] = await Promise.all([deploy(), freshDist()]);
  say("starting the API, the merchant worker and the player app");
  await serveDeployment();
  say(`ready: API ${apiUrl}, player app ${webUrl}, console ${webUrl}/console/, API key ${apiKey}`);
  say("watching contracts/src, apps/api, apps/merchant-worker, apps/web and the libraries; Ctrl-C stops");
  say("ready");

  /** One change at a time: saves during a rebuild are taken in the next one. */
  const pending = new Map<Part, Set<string>>();
  let running = false;
  let timer: NodeJS.Timeout | undefined;

  const rebuild = async (parts: Map<Part, Set<string>>): Promise<void> => {
    const startedAt = Date.now();
    const files = [...parts.values()].flatMap((set) => [...set]);
    if (parts.has("contracts")) {
      say(`contracts changed (${files.map((file) => path.relative(ROOT, file)).join(", ")}): compiling`);
      const compiled = await build(path.join(ROOT, "node_modules/.bin/hardhat"), ["compile"], path.join(ROOT, "contracts"));
      if (!compiled.ok) return say(`the contracts do not compile; still serving the last good deployment:\n${compiled.output.trim()}`);
      say(`compiled in ${since(startedAt)}: deploying afresh on both chains`);
      // The new bindings are transpiled into dist/ while the deployment's process runs.
      [demos] = await Promise.all([deploy(), freshDist()]);
      say(`deployed at ${since(startedAt)}: restarting the API, the worker and the VRF stand-ins on the new deployment`);
      await serveDeployment();
      return say(`redeployed in ${since(startedAt)}: exchange ${demos[0].deployment.exchange} on chain ${CHAIN_IDS[0]}, the API serves it`);
    }
    const errors = syntaxErrors(files);
    if (errors.length > 0) return say(`not restarted: the saved files do not parse; still serving the last good build:\n  ${errors.join("\n  ")}`);
    // The running processes loaded their files already: the new ones are written while they still serve.
    await freshDist();
    if (parts.has("api")) {
      say("API sources changed: restarting the API");
      await api?.stop();
      await startApi();
      say(`API restarted in ${since(startedAt)}`);
    }
    if (parts.has("worker") || parts.has("api")) {
      // The worker talks to the API; a restarted API is a fresh start for it too.
      await worker?.stop();
      await startWorker();
      if (parts.has("worker")) say(`merchant worker restarted in ${since(startedAt)}`);
    }
    if (parts.has("web")) {
      say("web sources changed: building the player app");
      const next = `${WEB_DIST_DIR}.next`;
      const built = await build(path.join(ROOT, "node_modules/.bin/vite"), ["build", "--outDir", next, "--emptyOutDir"], path.join(ROOT, "apps/web"));
      if (!built.ok) return say(`the player app does not build; still serving the last good build:\n${built.output.trim()}`);
      fs.rmSync(`${WEB_DIST_DIR}.old`, { recursive: true, force: true });
      fs.renameSync(WEB_DIST_DIR, `${WEB_DIST_DIR}.old`);
      fs.renameSync(next, WEB_DIST_DIR);
      fs.rmSync(`${WEB_DIST_DIR}.old`, { recursive: true, force: true });
      await serveWeb();
      say(`player app rebuilt in ${since(startedAt)}`);
    }
  };

  const runPending = async (): Promise<void> => {
    if (running || pending.size === 0) return;
    running = true;
    const parts = new Map(pending);
    pending.clear();
    try {
      await rebuild(parts);
    } catch (error) {
      say(`the rebuild failed; fix and save again:\n${error instanceof Error ? error.message : String(error)}`);
    } finally {
      running = false;
      void runPending();
    }
  };

  for (const { dir, parts, matches } of WATCHED) {
    const absolute = path.join(ROOT, dir);
    if (!fs.existsSync(absolute)) continue;
    fs.watch(absolute, { recursive: true }, (_event, name) => {
      const file = name ? path.join(absolute, name.toString()) : absolute;
      if (!matches(file)) return;
      for (const part of parts) pending.set(part, (pending.get(part) ?? new Set()).add(file));
      clearTimeout(timer);
      timer = setTimeout(() => void runPending(), DEBOUNCE_MS);
    });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`npm run dev failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
