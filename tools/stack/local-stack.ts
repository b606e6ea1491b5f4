import * as fs from "node:fs";
import * as path from "node:path";
import { Wallet, ZeroAddress, parseEther, parseUnits } from "ethers";
import {
  LOCAL_DEV_KEYS,
  LOCAL_DRAWS_PER_DAY,
  LOCAL_VRF_SETTINGS,
  allowPriceToken,
  TestToken__factory,
  TokenType,
  deployMerchantRaffle,
  deployPlatform,
  localDevPrivateKey,
  startHardhatNode,
  type HardhatNode,
} from "@raffle/chain";
import { createDataSource, startEmbeddedPglite, type EmbeddedPglite } from "@raffle/db";
import { resetIndexedChain } from "@raffle/indexer";
import { ApiKeyService, createApp, loadApiConfig, type ApiConfig } from "@raffle/api";
import { RaffleApi } from "@raffle/sdk";
import { loadWorkerConfig, startMerchantWorker } from "@raffle/merchant-worker";

import { STACK_DIR, removeStackFile, writeStackFile, type StackFile } from "./stack-file";
import { VrfFulfiller } from "./vrf-fulfiller";

export interface LocalStackOptions {
  apiPort: number;
  chainPort: number;
  /** Wipe the PGlite folder first. */
  fresh: boolean;
  /** Cron schedule of the demo raffles. */
  schedule: string;
  progress: (step: string) => void;
  log: (message: string, fields?: Record<string, unknown>) => void;
}

export interface LocalStack {
  stack: StackFile;
  stop(): Promise<void>;
}

/** Player accounts: Hardhat's default accounts #5 to #9, funded with ETH by the node and with GOLD here. */
const PLAYER_INDEXES = [5, 6, 7, 8, 9];
const STEPS = 8;

/** Starts chain, contracts, database, API with indexer, VRF stand-in and the merchant worker on this machine. */
export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const stoppers: Array<{ name: string; stop: () => Promise<void> | void }> = [];
  const stop = async () => {
    for (const { name, stop: stopOne } of stoppers.reverse()) {
      options.log(`stopping ${name}`);
      try {
        await stopOne();
      } catch (error) {
        options.log(`stopping ${name} failed`, { error: error instanceof Error ? error.message : String(error) });
      }
    }
  };
  const step = (index: number, text: string) => options.progress(`[${index}/${STEPS}] ${text}`);

  try {
    step(1, `starting a local Hardhat chain on 127.0.0.1:${options.chainPort}`);
    // On wall-clock time: the demo and players buy in bursts, and each block must not push the chain's clock ahead.
    const node: HardhatNode = await startHardhatNode({ port: options.chainPort, wallClock: true });
    stoppers.push({ name: "chain", stop: () => node.stop() });
    const provider = node.provider;
    const admin = new Wallet(LOCAL_DEV_KEYS.platformAdmin, provider);
    const merchant = new Wallet(LOCAL_DEV_KEYS.demoMerchant, provider);

    step(2, "deploying the platform: VRF coordinator mock, Exchange, RaffleFactory");
    const deployment = await deployPlatform(
      await provider.getSigner(0),
      {
        signer: new Wallet(LOCAL_DEV_KEYS.voucherSigner).address,
        merchants: [merchant.address],
        vrf: LOCAL_VRF_SETTINGS,
        drawsPerDay: LOCAL_DRAWS_PER_DAY,
      },
      (message) => options.log(message),
    );

    step(3, "deploying the demo price token and funding the players");
    const token = await new TestToken__factory(await provider.getSigner(0)).deploy("Demo Gold", "GOLD", admin.address);
    await token.waitForDeployment();
    await allowPriceToken(await provider.getSigner(0), deployment.raffleFactory, await token.getAddress());
    const players = PLAYER_INDEXES.map((index) => new Wallet(localDevPrivateKey(index)));
    for (const player of players) await (await token.mint(player.address, parseUnits("10000", 18))).wait();

    step(4, "deploying the demo merchant's two raffles (ERC20 and NATIVE) with their first rounds");
    const raffles: StackFile["contracts"]["raffles"] = [];
    for (const kind of ["ERC20", "NATIVE"] as const) {
      const price =
        kind === "ERC20"
          ? { tokenType: TokenType.ERC20, token: await token.getAddress(), tokenId: 0n, amount: parseUnits("10", 18) }
          : { tokenType: TokenType.NATIVE, token: ZeroAddress, tokenId: 0n, amount: parseEther("0.01") };
      const deployed = await deployMerchantRaffle(await provider.getSigner(2), {
        factory: deployment.raffleFactory,
        commission: 1_000n,
        timeLagBeforeRelease: 86_400n,
        ticketName: `Demo ${kind} Ticket`,
        ticketSymbol: `D${kind === "ERC20" ? "GLD" : "ETH"}`,
        firstRound: { price, maxTicket: 1_000n },
      });
      raffles.push({ kind, contractId: null, raffle: deployed.raffle, ticket: deployed.ticket });
    }

    step(5, "opening the embedded PGlite database");
    const pgliteDir = path.join(STACK_DIR, "pglite");
    if (options.fresh) fs.rmSync(pgliteDir, { recursive: true, force: true });
    const database: EmbeddedPglite = await startEmbeddedPglite(pgliteDir);
    stoppers.push({ name: "database", stop: () => database.stop() });
    // The local chain starts from genesis on every run: what was indexed from the previous one is gone with it.
    // Merchants and API keys stay.
    const migrator = await createDataSource(database.url).initialize();
    await migrator.runMigrations({ transaction: "all" });
    await resetIndexedChain(migrator, deployment.chainId);
    await migrator.destroy();

    step(6, `starting the API with its indexer on port ${options.apiPort}`);
    // The API's own defaults (loadApiConfig) for this chain and database; only the stack's differences are written.
    const config: ApiConfig = loadApiConfig(
      {
        PORT: String(options.apiPort),
        DATABASE_URL: database.url,
        RPC_URL: node.rpcUrl,
        INDEXER_POLL_INTERVAL_MS: "500",
        INDEXER_WS_URL: node.wsUrl,
        DEFAULT_RAFFLE_SCHEDULE: options.schedule,
        RATE_LIMIT_SIGN_PER_ACCOUNT: "600",
        // Webhooks to http:// and 127.0.0.1 (a game backend on this machine): fine locally, refused by default elsewhere.
        WEBHOOK_ALLOW_PRIVATE_URLS: "true",
      },
      deployment,
    );
    const app = await createApp(config);
    await app.listen(options.apiPort, "127.0.0.1");
    stoppers.push({ name: "api", stop: () => app.close() });
    const apiUrl = `http://127.0.0.1:${options.apiPort}`;
    const apiKey = (await app.get(ApiKeyService).create(merchant.address, "local stack")).key;
    const api = new RaffleApi({ baseUrl: apiUrl, apiKey });
    await waitFor(async () => {
      const listed = await api.listAllRaffleContracts(deployment.chainId);
      for (const raffle of raffles) raffle.contractId = listed.find((row) => row.address === raffle.raffle)?.id ?? null;
      return raffles.every((raffle) => raffle.contractId !== null);
    }, 30_000);

    step(7, "starting the VRF stand-in");
    const fulfiller = new VrfFulfiller(deployment.vrfCoordinator, admin, options.log);
    fulfiller.start();
    stoppers.push({ name: "VRF stand-in", stop: () => fulfiller.stop() });

    step(8, "starting the merchant worker");
    stoppers.push({ name: "merchant worker", stop: await startWorker(apiUrl, apiKey, node.rpcUrl, deployment.chainId, options) });

    const stack: StackFile = {
      apiUrl,
      docsUrl: `${apiUrl}/docs`,
      apiKey,
      rpcUrl: node.rpcUrl,
      chainId: deployment.chainId,
      databaseUrl: database.url,
      pgliteDir,
      pid: process.pid,
      contracts: {
        exchange: deployment.exchange,
        raffleFactory: deployment.raffleFactory,
        vrfCoordinator: deployment.vrfCoordinator,
        priceToken: await token.getAddress(),
        raffles,
      },
      merchant: { wallet: merchant.address, privateKey: LOCAL_DEV_KEYS.demoMerchant },
      players: players.map((player) => ({ address: player.address, privateKey: player.privateKey })),
    };
    writeStackFile(stack);
    // First to go on stop: from then on `npm run api-key` no longer takes the stack for running.
    stoppers.push({ name: "stack file", stop: () => removeStackFile() });
    return { stack, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Runs the merchant worker next to the stack, with the demo merchant's key; returns how to stop it. */
async function startWorker(
  apiUrl: string,
  apiKey: string,
  rpcUrl: string,
  chainId: number,
  options: LocalStackOptions,
): Promise<() => Promise<void>> {
  const config = loadWorkerConfig({
    API_URL: apiUrl,
    API_KEY: apiKey,
    CHAIN_ID: String(chainId),
    RPC_URL: rpcUrl,
    MERCHANT_PRIVATE_KEY: LOCAL_DEV_KEYS.demoMerchant,
    REFRESH_INTERVAL_SECONDS: "10",
    HEALTH_PORT: "0",
    LOG_LEVEL: process.env.WORKER_LOG_LEVEL ?? "error",
  });
  const worker = await startMerchantWorker(config);
  options.log("merchant worker running", { health: `http://127.0.0.1:${worker.healthPort}/health` });
  return () => worker.stop();
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error("the stack did not become ready in time");
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
