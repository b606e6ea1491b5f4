import * as fs from "node:fs";
import * as path from "node:path";
import { Wallet, ZeroAddress, parseEther, parseUnits, type JsonRpcProvider } from "ethers";
import {
  DemoItem721__factory,
  DemoItems1155__factory,
  LOCAL_CHAIN_ID,
  LOCAL_DEV_KEYS,
  LOCAL_DRAWS_PER_DAY,
  LOCAL_VRF_SETTINGS,
  SECOND_LOCAL_CHAIN_ID,
  allowPriceToken,
  Raffle__factory,
  TestToken__factory,
  TokenType,
  deployMerchantRaffle,
  deployPlatform,
  localDevPrivateKey,
  type PlatformDeployment,
} from "@raffle/chain";
import { startHardhatNode, type HardhatNode } from "@raffle/chain/testing";
import { createDataSource, startEmbeddedPglite, type EmbeddedPglite } from "@raffle/db";
import { resetIndexedChain } from "@raffle/indexer";
import { ApiKeyService, createApp, loadApiConfig, type ApiConfig } from "@raffle/api";
import { RaffleApi } from "@raffle/sdk";
import { loadWorkerConfig, startMerchantWorker } from "@raffle/merchant-worker";

import { serveWebApp } from "../../apps/web/server/serve-web-app";
import { STACK_DIR, STACK_PLAYER_INDEXES, removeStackFile, writeStackFile, type StackChain, type StackFile, type StackRaffle } from "./stack-file";
import { VrfFulfiller } from "./vrf-fulfiller";
import { enableGasless, fundGaslessPlayer, gaslessPlayer } from "./gasless-demo";
import { ItemKeeper } from "./item-keeper";

export interface LocalStackOptions {
  apiPort: number;
  /** Port of the player app's static files (WEB_PORT, 5173). */
  webPort: number;
  /** The ports of the two chains' nodes, in the order of the stack's chains (31337, 31338). */
  chainPorts: [number, number];
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

const STEPS = 8;
/** The stack's two chains: one API, one database and one worker serve both, as in a multi-chain deployment. */
const STACK_CHAIN_IDS = [LOCAL_CHAIN_ID, SECOND_LOCAL_CHAIN_ID];
/** The stack's indexer polls every 500 ms and is woken at once by each new head over WebSocket. */
export const STACK_INDEXER_POLL_MS = 500;

/** One local chain of the stack, with the platform, the demo token and the demo merchant's raffles on it. */
interface ChainSetup {
  node: HardhatNode;
  deployment: PlatformDeployment;
  admin: Wallet;
  priceToken: string;
  raffles: StackChain["raffles"];
}

/**
 * The first chain's third demo raffle (issue #28): three winners taking 50/30/20 of the pot, a round needs 3 tickets
 * to be drawn (fewer are refunded), and bundles of 5 for 45 and 10 for 80 at a price of 10 GOLD a ticket.
 */
export const THREE_WINNER_RULES = {
  prizeShares: [5_000, 3_000, 2_000],
  minTickets: 3,
  maxTicketsPerWallet: 0,
  bundles: [
    { quantity: 5, price: parseUnits("45", 18) },
    { quantity: 10, price: parseUnits("80", 18) },
  ],
};

/**
 * The first chain's item raffle (issue #53): the first prize is 70% of the pot and a Legendary Sword (the demo
 * ERC721), the second 30% and 5 Healing Potions (the demo ERC1155, id 1), both items escrowed when each round starts;
 * a round needs 2 tickets to be drawn (fewer are refunded and the items go back), at 10 GOLD a ticket. Each position
 * also carries a share, so every winner the indexer records has one.
 */
export const ITEM_RAFFLE_RULES = {
  prizeShares: [7_000, 3_000],
  minTickets: 2,
  maxTicketsPerWallet: 0,
  bundles: [] as typeof THREE_WINNER_RULES.bundles,
};
export const DEMO_POTION_ID = 1n;
export const DEMO_POTIONS_PER_ROUND = 5n;
/** What the demo merchant's own wallet holds of the demo items (swords #2 and #3, potions), for the console. */
export const MERCHANT_SWORDS = 2;
export const MERCHANT_POTIONS = 50n;
/** The item wallet: Hardhat's account #3, a co-admin of the item raffle that holds and sets its items. */
export const ITEM_WALLET_INDEX = 3;

/** Starts two chains, their contracts, the database, the API with its indexers, VRF stand-ins and the worker. */
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
    step(1, `starting two local Hardhat chains (${STACK_CHAIN_IDS.join(", ")}) and deploying the platform and demo raffles on each`);
    const chains = await Promise.all(
      STACK_CHAIN_IDS.map((chainId, index) => startChain(chainId, options.chainPorts[index], { firstChain: index === 0 }, options, stoppers)),
    );
    const [first] = chains;

    step(2, "opening the embedded PGlite database");
    const pgliteDir = path.join(STACK_DIR, "pglite");
    if (options.fresh) fs.rmSync(pgliteDir, { recursive: true, force: true });
    const database: EmbeddedPglite = await startEmbeddedPglite(pgliteDir);
    stoppers.push({ name: "database", stop: () => database.stop() });
    // The local chains start from genesis on every run: what was indexed from the previous ones is gone with them.
    // Merchants and API keys stay.
    const migrator = await createDataSource(database.url).initialize();
    await migrator.runMigrations({ transaction: "all" });
    for (const chain of chains) await resetIndexedChain(migrator, chain.deployment.chainId);
    await migrator.destroy();

    step(3, `starting the API with one indexer per chain on port ${options.apiPort}`);
    const webUrl = `http://127.0.0.1:${options.webPort}`;
    // The API's own defaults (loadApiConfig) for these chains and this database; only the stack's differences are written.
    const config: ApiConfig = loadApiConfig(
      {
        PORT: String(options.apiPort),
        DATABASE_URL: database.url,
        CHAIN_IDS: STACK_CHAIN_IDS.join(","),
        ...Object.fromEntries(
          chains.flatMap((chain) => [
            [`CHAIN_${chain.deployment.chainId}_RPC_URL`, chain.node.rpcUrl],
            [`CHAIN_${chain.deployment.chainId}_INDEXER_WS_URL`, chain.node.wsUrl],
          ]),
        ),
        INDEXER_POLL_INTERVAL_MS: String(STACK_INDEXER_POLL_MS),
        DEFAULT_RAFFLE_SCHEDULE: options.schedule,
        RATE_LIMIT_SIGN_PER_ACCOUNT: "600",
        // Webhooks to http:// and 127.0.0.1 (a game backend on this machine): fine locally, refused by default elsewhere.
        WEBHOOK_ALLOW_PRIVATE_URLS: "true",
        // The player app (step 8) signs in with Ethereum from these origins.
        WEB_ORIGINS: `${webUrl},http://localhost:${options.webPort}`,
      },
      chains.map((chain) => chain.deployment),
    );
    const app = await createApp(config);
    await app.listen(options.apiPort, "127.0.0.1");
    stoppers.push({ name: "api", stop: () => app.close() });
    const apiUrl = `http://127.0.0.1:${options.apiPort}`;
    const merchant = new Wallet(LOCAL_DEV_KEYS.demoMerchant);
    const apiKey = (await app.get(ApiKeyService).create(merchant.address, "local stack")).key;
    const api = new RaffleApi({ baseUrl: apiUrl, apiKey });

    step(4, "waiting for the indexers to list the demo raffles of both chains");
    await waitFor(async () => {
      for (const chain of chains) {
        const listed = await api.listAllRaffleContracts(chain.deployment.chainId);
        for (const raffle of chain.raffles) raffle.contractId = listed.find((row) => row.address === raffle.raffle)?.id ?? null;
      }
      return chains.every((chain) => chain.raffles.every((raffle) => raffle.contractId !== null));
    }, 30_000);
    // The demo raffles are on public sale, so the player app lists them and wallets can buy without an API key.
    for (const raffle of chains.flatMap((chain) => chain.raffles)) await putOnPublicSale(apiUrl, apiKey, raffle.contractId!);
    // Buy without gas on the player app: the demo merchant relays (its worker, step 6) within a daily gas budget.
    await enableGasless(apiUrl, webUrl, first.deployment.chainId, merchant);

    step(5, "starting the VRF stand-ins and the item keeper");
    for (const chain of chains) {
      const fulfiller = new VrfFulfiller(chain.deployment.vrfCoordinator, chain.admin, options.log);
      fulfiller.start();
      stoppers.push({ name: `VRF stand-in of chain ${chain.deployment.chainId}`, stop: () => fulfiller.stop() });
    }
    for (const keeper of itemKeepers(
      chains.map((chain) => ({ provider: chain.node.provider, raffles: chain.raffles })),
      options.log,
    )) {
      await keeper.start();
      stoppers.push({ name: "item keeper", stop: () => keeper.stop() });
    }

    step(6, "starting the merchant worker on both chains");
    stoppers.push({ name: "merchant worker", stop: await startWorker(apiUrl, apiKey, chains, options) });

    step(7, "writing the stack's facts");
    const stackChains: StackChain[] = chains.map((chain) => ({
      chainId: chain.deployment.chainId,
      rpcUrl: chain.node.rpcUrl,
      wsUrl: chain.node.wsUrl,
      exchange: chain.deployment.exchange,
      factory: chain.deployment.raffleFactory,
      vrfCoordinator: chain.deployment.vrfCoordinator,
      priceToken: chain.priceToken,
      raffles: chain.raffles,
    }));
    const players = STACK_PLAYER_INDEXES.map((index) => new Wallet(localDevPrivateKey(index)));
    step(8, `serving the player app on ${webUrl}`);
    const web = await serveWebApp({
      port: options.webPort,
      config: {
        apiUrl,
        chains: chains.map((chain) => ({
          id: chain.deployment.chainId,
          name: `Local chain ${chain.deployment.chainId}`,
          rpcUrl: chain.node.rpcUrl,
          symbol: "ETH",
          // The merchant console deploys raffles through it and reads the draw budget.
          factory: chain.deployment.raffleFactory,
        })),
      },
    });
    stoppers.push({ name: "player app", stop: () => web.close() });
    const stack: StackFile = {
      apiUrl,
      webUrl,
      consoleUrl: `${webUrl}/console/`,
      docsUrl: `${apiUrl}/docs`,
      apiKey,
      // The first chain's facts stay at the top level, as before the stack ran two chains.
      rpcUrl: first.node.rpcUrl,
      chainId: first.deployment.chainId,
      databaseUrl: database.url,
      pgliteDir,
      pid: process.pid,
      contracts: {
        exchange: first.deployment.exchange,
        raffleFactory: first.deployment.raffleFactory,
        vrfCoordinator: first.deployment.vrfCoordinator,
        priceToken: first.priceToken,
        raffles: first.raffles,
      },
      chains: stackChains,
      merchant: { wallet: merchant.address, privateKey: LOCAL_DEV_KEYS.demoMerchant },
      players: players.map((player) => ({ address: player.address, privateKey: player.privateKey })),
      gaslessPlayer: { address: gaslessPlayer().address, privateKey: gaslessPlayer().privateKey },
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

/** The merchant's switch (PUT /raffle/contracts/:id/public-sale), with the demo merchant's key. */
export async function putOnPublicSale(apiUrl: string, apiKey: string, contractId: number): Promise<void> {
  const response = await fetch(`${apiUrl}/raffle/contracts/${contractId}/public-sale`, {
    method: "PUT",
    headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" },
    body: JSON.stringify({ publicSale: true }),
  });
  if (response.status !== 200) throw new Error(`putting raffle ${contractId} on public sale answered ${response.status}`);
}

/** Starts a local chain and deploys the demo on it (deployDemo). */
async function startChain(
  chainId: number,
  port: number,
  { firstChain }: { firstChain: boolean },
  options: LocalStackOptions,
  stoppers: Array<{ name: string; stop: () => Promise<void> | void }>,
): Promise<ChainSetup> {
  // On wall-clock time: the demo and players buy in bursts, and each block must not push the chain's clock ahead.
  const node: HardhatNode = await startHardhatNode({ port, chainId, wallClock: true });
  stoppers.push({ name: `chain ${chainId}`, stop: () => node.stop() });
  const demo = await deployDemo(node.provider, { firstChain }, (message) => options.log(message, { chainId }));
  return { node, admin: new Wallet(LOCAL_DEV_KEYS.platformAdmin, node.provider), ...demo };
}

/** What deployDemo put on a chain. */
export interface DemoDeployment {
  deployment: PlatformDeployment;
  priceToken: string;
  raffles: StackChain["raffles"];
}

/**
 * Deploys the platform, the demo price token and the demo merchant's raffles on a local chain: ERC20 and NATIVE, and
 * on the `firstChain` the three-winner and the item raffles. `npm run dev` runs it again after each contract change.
 */
export async function deployDemo(
  provider: JsonRpcProvider,
  { firstChain }: { firstChain: boolean },
  log: (message: string) => void,
): Promise<DemoDeployment> {
  const admin = new Wallet(LOCAL_DEV_KEYS.platformAdmin, provider);
  const merchant = new Wallet(LOCAL_DEV_KEYS.demoMerchant, provider);

  log("deploying the platform: VRF coordinator mock, Exchange, RaffleFactory");
  const deployment = await deployPlatform(
    await provider.getSigner(0),
    {
      signer: new Wallet(LOCAL_DEV_KEYS.voucherSigner).address,
      merchants: [merchant.address],
      vrf: LOCAL_VRF_SETTINGS,
      drawsPerDay: LOCAL_DRAWS_PER_DAY,
    },
    log,
  );

  log("deploying the demo price token and funding the players");
  const token = await new TestToken__factory(await provider.getSigner(0)).deploy("Demo Gold", "GOLD", admin.address);
  await token.waitForDeployment();
  const priceToken = await token.getAddress();
  await allowPriceToken(await provider.getSigner(0), deployment.raffleFactory, priceToken);
  for (const index of STACK_PLAYER_INDEXES) await (await token.mint(new Wallet(localDevPrivateKey(index)).address, parseUnits("10000", 18))).wait();
  await fundGaslessPlayer(provider, token, parseUnits("10000", 18));

  const kinds: Array<StackRaffle["kind"]> = firstChain ? ["ERC20", "NATIVE", "THREE_WINNERS", "ITEMS"] : ["ERC20", "NATIVE"];
  log(`deploying the demo merchant's raffles (${kinds.join(", ")}) with their first rounds`);
  const raffles: StackChain["raffles"] = [];
  for (const kind of kinds) {
    const price =
      kind === "NATIVE"
        ? { tokenType: TokenType.NATIVE, token: ZeroAddress, tokenId: 0n, amount: parseEther("0.01") }
        : { tokenType: TokenType.ERC20, token: priceToken, tokenId: 0n, amount: parseUnits("10", 18) };
    const rules = kind === "THREE_WINNERS" ? THREE_WINNER_RULES : kind === "ITEMS" ? ITEM_RAFFLE_RULES : undefined;
    const firstRound = { price, maxTicket: 1_000n };
    const deployed = await deployMerchantRaffle(await provider.getSigner(2), {
      factory: deployment.raffleFactory,
      commission: 1_000n,
      timeLagBeforeRelease: 86_400n,
      ticketName: {
        ERC20: "Demo ERC20 Ticket",
        NATIVE: "Demo NATIVE Ticket",
        THREE_WINNERS: "Demo Three Winners Ticket",
        ITEMS: "Demo Item Prizes Ticket",
      }[kind],
      ticketSymbol: { ERC20: "DGLD", NATIVE: "DETH", THREE_WINNERS: "D3WN", ITEMS: "DITM" }[kind],
      rules,
      // The item raffle's first round starts once its items are set (deployItemPrizes).
      firstRound: kind === "ITEMS" ? undefined : firstRound,
    });
    const items = kind === "ITEMS" ? await deployItemPrizes(provider, deployed, firstRound, log) : undefined;
    raffles.push({
      kind,
      contractId: null,
      raffle: deployed.raffle,
      ticket: deployed.ticket,
      ...(rules
        ? { rules: { ...rules, bundles: rules.bundles.map((bundle) => ({ quantity: bundle.quantity, price: bundle.price.toString() })) } }
        : {}),
      ...(items ? { items } : {}),
    });
  }
  return { deployment, priceToken, raffles };
}

/**
 * The item raffle's prizes: the demo item contracts (the item wallet mints), a sword and a stock of potions in the
 * item wallet, approved to the raffle once; the item wallet, made a co-admin by the merchant, sets them as the items
 * of the rounds to come, and the merchant starts the first round, which escrows them.
 */
async function deployItemPrizes(
  provider: JsonRpcProvider,
  deployed: { raffle: string; ticket: string },
  firstRound: { price: { tokenType: TokenType; token: string; tokenId: bigint; amount: bigint }; maxTicket: bigint },
  log: (message: string) => void,
): Promise<NonNullable<StackRaffle["items"]>> {
  const itemWallet = new Wallet(localDevPrivateKey(ITEM_WALLET_INDEX), provider);
  log(`deploying the demo items (a sword and potions) for item wallet ${itemWallet.address}`);
  const swords = await new DemoItem721__factory(itemWallet).deploy(itemWallet.address);
  const potions = await new DemoItems1155__factory(itemWallet).deploy(itemWallet.address);
  await Promise.all([swords.waitForDeployment(), potions.waitForDeployment()]);
  await (await swords.mint(itemWallet.address)).wait();
  await (await potions.mint(itemWallet.address, DEMO_POTION_ID, 100_000n)).wait();
  await (await swords.setApprovalForAll(deployed.raffle, true)).wait();
  await (await potions.setApprovalForAll(deployed.raffle, true)).wait();
  // Items of the merchant's own, to choose from in the console (its wallet's items for the next round): swords #2, #3.
  const merchantWallet = await (await provider.getSigner(2)).getAddress();
  for (let count = 0; count < MERCHANT_SWORDS; count += 1) await (await swords.mint(merchantWallet)).wait();
  await (await potions.mint(merchantWallet, DEMO_POTION_ID, MERCHANT_POTIONS)).wait();

  const merchant = Raffle__factory.connect(deployed.raffle, await provider.getSigner(2));
  await (await merchant.grantRole(await merchant.DEFAULT_ADMIN_ROLE(), itemWallet.address)).wait();
  const [sword, potion] = [await swords.getAddress(), await potions.getAddress()];
  await (
    await merchant.connect(itemWallet).setItemPrizes([
      { position: 1n, asset: { tokenType: TokenType.ERC721, token: sword, tokenId: 1n, amount: 1n } },
      { position: 2n, asset: { tokenType: TokenType.ERC1155, token: potion, tokenId: DEMO_POTION_ID, amount: DEMO_POTIONS_PER_ROUND } },
    ])
  ).wait();
  const ticketAsset = { tokenType: TokenType.ERC721, token: deployed.ticket, tokenId: 0n, amount: 1n };
  await (await merchant.startRound(ticketAsset, firstRound.price, firstRound.maxTicket)).wait();
  log("item raffle: the first round escrowed Legendary Sword #1 and 5 Healing Potions");
  return {
    wallet: itemWallet.address,
    sword,
    potions: potion,
    potionId: DEMO_POTION_ID.toString(),
    potionsPerRound: DEMO_POTIONS_PER_ROUND.toString(),
  };
}

/** An ItemKeeper for each item raffle of the stack's chains, with the item wallet's key on that chain. */
export function itemKeepers(
  chains: Array<{ provider: JsonRpcProvider; raffles: StackRaffle[] }>,
  log: (message: string, fields?: Record<string, unknown>) => void,
): ItemKeeper[] {
  return chains.flatMap(({ provider, raffles }) =>
    raffles
      .filter((raffle) => raffle.items)
      .map(
        (raffle) =>
          new ItemKeeper({
            raffle: raffle.raffle,
            sword: raffle.items!.sword,
            wallet: new Wallet(localDevPrivateKey(ITEM_WALLET_INDEX), provider),
            log,
          }),
      ),
  );
}

/** Runs the merchant worker next to the stack on every chain, with the demo merchant's key; returns how to stop it. */
async function startWorker(apiUrl: string, apiKey: string, chains: ChainSetup[], options: LocalStackOptions): Promise<() => Promise<void>> {
  const config = loadWorkerConfig({
    API_URL: apiUrl,
    API_KEY: apiKey,
    CHAIN_IDS: chains.map((chain) => chain.deployment.chainId).join(","),
    ...Object.fromEntries(chains.map((chain) => [`CHAIN_${chain.deployment.chainId}_RPC_URL`, chain.node.rpcUrl])),
    // The relayer sends only to each chain's Exchange: the local worker relays gasless purchases (issue #52).
    ...Object.fromEntries(chains.map((chain) => [`CHAIN_${chain.deployment.chainId}_EXCHANGE_ADDRESS`, chain.deployment.exchange])),
    MERCHANT_PRIVATE_KEY: LOCAL_DEV_KEYS.demoMerchant,
    // It relays with the demo merchant's key; a stable id hands a restarted stack's relayer back the jobs it held.
    RELAYER_ENABLED: "true",
    RELAYER_ID: "local-stack",
    REFRESH_INTERVAL_SECONDS: "10",
    HEALTH_PORT: "0",
    LOG_LEVEL: process.env.WORKER_LOG_LEVEL ?? "error",
  });
  const worker = await startMerchantWorker(config);
  options.log("merchant worker running", { health: `http://127.0.0.1:${worker.healthPort}/health` });
  return () => worker.stop();
}

export async function waitFor(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error("the stack did not become ready in time");
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
