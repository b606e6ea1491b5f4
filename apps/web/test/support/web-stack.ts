import { execFileSync } from "node:child_process";
import { Wallet, parseUnits } from "ethers";
import { chromium as playwright, type Browser } from "playwright-core";
import { ApiKeyService, createApp, loadApiConfig } from "@raffle/api";
import { localDevPrivateKey } from "@raffle/chain";
import { deployTestRaffle, type HardhatNode, type RoundRules, type TestRaffle, type TestWorld } from "@raffle/chain/testing";
import { eventually, freePort } from "@raffle/testing";
import { loadWorkerConfig, startMerchantWorker } from "@raffle/merchant-worker";
import { startTestStack } from "@raffle/test-stack";

import { enableGasless } from "../../../../tools/stack/gasless-demo";

import { serveWebApp, type ServedWebApp } from "../../server/serve-web-app";
import { deployPermitOnlyRaffle } from "./permit-only-token";

export type RaffleName =
  "native" | "erc20" | "soldOut" | "late" | "bundles" | "capped" | "minimum" | "history" | "permitOnly" | "items" | "hostileItems";

/** The raffles the player journeys start with; the others are set up by the suites that use them. */
const DEFAULT_RAFFLES: RaffleName[] = ["native", "erc20", "soldOut", "late", "bundles"];
/** What each test raffle is called on the pages, as a merchant would set it in the console: distinct, so screenshots and
 * a reader of the list can tell them apart. */
const SETTINGS: Record<RaffleName, { title: string; description: string }> = {
  native: { title: "Friday Night Jackpot", description: "One winner takes the pot in ether. A new round starts every Friday." },
  erc20: { title: "Token Treasure", description: "Tickets are paid in the game's token; the pot is paid in it too." },
  soldOut: { title: "Single-Ticket Showdown", description: "One ticket per round, so it sells out fast." },
  late: { title: "Last-Minute Draw", description: "A short sale: buy before the round closes." },
  bundles: { title: "Bundle Bonanza", description: "Buy tickets in bundles and pay less per ticket." },
  capped: { title: "One Per Player", description: "Each wallet may hold a limited number of tickets per round." },
  minimum: { title: "Full House or Refund", description: "The round draws only when enough tickets sell; otherwise every ticket is refunded." },
  history: { title: "Weekly Classic", description: "Several winners share the pot; every past round's draw can be checked." },
  permitOnly: { title: "Pearl Dive", description: "Tickets are paid in pearls, a token that signs EIP-2612 permits only." },
  items: { title: "Sword and Potions", description: "Three winners share the pot, and each wins a game item too." },
  hostileItems: { title: "Mystery Box", description: "Item prizes whose token contracts describe them badly, or not at all." },
};

/**
 * Raffle v2 rules, set by the merchant before the first round: `bundles` has three winners 50/30/20, a minimum of 3
 * tickets, 5 for 45 and 10 for 80; `capped` lets one wallet buy 2 tickets of a round; `minimum` needs 3 tickets to be
 * drawn; `history` has two winners, 60/40; `items` has three winners 60/30/10 and needs 2 tickets (its suite sets item prizes on them).
 */
const RULES: Partial<Record<RaffleName, RoundRules>> = {
  bundles: {
    prizeShares: [5_000, 3_000, 2_000],
    minTickets: 3,
    maxTicketsPerWallet: 0,
    bundles: [
      { quantity: 5, price: parseUnits("45", 18) },
      { quantity: 10, price: parseUnits("80", 18) },
    ],
  },
  capped: { prizeShares: [10_000], minTickets: 0, maxTicketsPerWallet: 2, bundles: [] },
  minimum: { prizeShares: [10_000], minTickets: 3, maxTicketsPerWallet: 0, bundles: [] },
  history: { prizeShares: [6_000, 4_000], minTickets: 0, maxTicketsPerWallet: 0, bundles: [] },
  items: { prizeShares: [6_000, 3_000, 1_000], minTickets: 2, maxTicketsPerWallet: 0, bundles: [] },
};

/** One chain, PostgreSQL, the API with its indexer, the built player app and one Chromium: the whole suite's stack. */
export interface WebStack {
  node: HardhatNode;
  world: TestWorld;
  apiUrl: string;
  /** The API's PostgreSQL database (its own, dropped at close). */
  databaseUrl: string;
  web: ServedWebApp;
  browser: Browser;
  raffles: Record<RaffleName, { deployed: TestRaffle; id: number }>;
  /** Hardhat's account #5, funded with ETH and GOLD: the player the browser's wallet signs for. */
  player: Wallet;
  /** Hardhat's account #2: TestWorld's merchant (MERCHANT_ROLE), the console's wallet. */
  merchant: Wallet;
  close(): Promise<void>;
}

/**
 * The Chromium inside `@sparticuz/chromium` (unpacked to /tmp on first use) and its flags. The package is ESM only,
 * which Jest's CommonJS runtime cannot require, so a short Node process asks it.
 */
function sparticuzChromium(): { executablePath: string; args: string[] } {
  const script = `import("@sparticuz/chromium").then(async ({ default: c }) => console.log(JSON.stringify({ executablePath: await c.executablePath(), args: c.args })))`;
  return JSON.parse(execFileSync(process.execPath, ["-e", script], { cwd: __dirname, encoding: "utf8" }));
}

export interface WebStackOptions {
  /** The test raffles to deploy and put on public sale first (the player journeys' by default; the console starts with none). */
  raffles?: RaffleName[];
  /** The API indexer's poll: 100 ms for the tests (the benchmark uses the local stack's). */
  indexerPollMs?: number;
  /** Whether a new head wakes the indexer at once over the node's WebSocket, as in the local stack (off for the tests). */
  indexerWakesOnHeads?: boolean;
  /**
   * Buying without gas: the merchant worker runs beside the API and relays (RELAYER_ENABLED), and the merchant switches
   * gasless purchases on as in the console.
   */
  gasless?: boolean;
}

export async function startWebStack(options: WebStackOptions = {}): Promise<WebStack> {
  process.env.LOG_LEVEL ??= "silent";
  const closers: Array<() => Promise<unknown>> = [];
  const close = async () => {
    for (const closeOne of closers.reverse()) await closeOne().catch(() => undefined);
  };
  try {
    const stack = await startTestStack({ label: "web", wallClock: true });
    closers.push(() => stack.close());
    const { node, world, database } = stack;

    const webPort = await freePort();
    const webOrigin = `http://127.0.0.1:${webPort}`;
    const config = loadApiConfig(
      {
        PORT: "0",
        DATABASE_URL: database.url,
        RPC_URL: node.rpcUrl,
        INDEXER_POLL_INTERVAL_MS: String(options.indexerPollMs ?? 100),
        ...(options.indexerWakesOnHeads ? { INDEXER_WS_URL: node.wsUrl } : {}),
        DEFAULT_RAFFLE_SCHEDULE: "0 * * * *",
        WEB_ORIGINS: webOrigin,
        // The console's test webhook goes to a receiver on this machine.
        WEBHOOK_ALLOW_PRIVATE_URLS: "true",
      },
      world.deployment,
    );
    // Reads cached for 100 ms and an outbox looked at every 100 ms: pages see the chain's changes sooner.
    const app = await createApp({ ...config, readCacheMs: 100, chainCheckIntervalMs: 1000, webhooks: { ...config.webhooks, pollIntervalMs: 100 } });
    await app.listen(0, "127.0.0.1");
    closers.push(() => app.close());
    const apiUrl = await app.getUrl();
    const wanted = options.raffles ?? DEFAULT_RAFFLES;
    // Only to set the raffles up: without any, the merchant starts from nothing but its wallet (the console's journeys).
    const merchantKey = wanted.length > 0 ? (await app.get(ApiKeyService).create(await world.merchant.getAddress())).key : "";

    const raffles = {} as WebStack["raffles"];
    const kinds: Record<RaffleName, ["NATIVE" | "ERC20", bigint]> = {
      native: ["NATIVE", 100n],
      erc20: ["ERC20", 100n],
      soldOut: ["NATIVE", 1n],
      late: ["NATIVE", 100n],
      bundles: ["ERC20", 100n],
      capped: ["NATIVE", 100n],
      minimum: ["NATIVE", 100n],
      history: ["NATIVE", 100n],
      permitOnly: ["ERC20", 100n],
      items: ["NATIVE", 100n],
      hostileItems: ["NATIVE", 100n],
    };
    for (const name of wanted) {
      const [kind, maxTicket] = kinds[name];
      // Priced in a token of its own, with EIP-2612 and no ERC-3009 (the world's token has both).
      const deployed =
        name === "permitOnly" ? await deployPermitOnlyRaffle(world, maxTicket) : await deployTestRaffle(world, kind, maxTicket, RULES[name]);
      const id = await eventually(async () => {
        const response = await fetch(`${apiUrl}/raffle/contracts?take=100`, { headers: { Authorization: `Bearer ${merchantKey}` } });
        const { rows } = (await response.json()) as { rows: Array<{ id: number; address: string }> };
        const row = rows.find((each) => each.address === deployed.raffle);
        if (!row) throw new Error("raffle not indexed yet");
        return row.id;
      }, 30_000);
      const publicSale = await fetch(`${apiUrl}/raffle/contracts/${id}/public-sale`, {
        method: "PUT",
        headers: { Authorization: `Bearer ${merchantKey}`, "Content-Type": "application/json" },
        body: JSON.stringify({ publicSale: true }),
      });
      if (publicSale.status !== 200) throw new Error(`public sale refused: ${publicSale.status}`);
      const settings = await fetch(`${apiUrl}/raffle/contracts/${id}`, {
        method: "PATCH",
        headers: { Authorization: `Bearer ${merchantKey}`, "Content-Type": "application/json" },
        body: JSON.stringify(SETTINGS[name]),
      });
      if (settings.status !== 200) throw new Error(`raffle settings refused: ${settings.status}`);
      raffles[name] = { deployed, id };
    }
    // Every raffle shows its first round before the browser opens.
    await eventually(async () => {
      const { rows } = (await (await fetch(`${apiUrl}/player/raffles`)).json()) as { rows: Array<{ round: unknown }> };
      if (rows.length !== wanted.length || rows.some((row) => !row.round)) throw new Error("rounds not indexed yet");
    }, 30_000);

    if (options.gasless) {
      const chainId = world.deployment.chainId;
      // The worker's rotations keep to each raffle's schedule: once a year here, so none ends a round mid-journey.
      for (const { id } of Object.values(raffles)) {
        const patched = await fetch(`${apiUrl}/raffle/contracts/${id}`, {
          method: "PATCH",
          headers: { Authorization: `Bearer ${merchantKey}`, "Content-Type": "application/json" },
          body: JSON.stringify({ schedule: "0 0 1 1 *" }),
        });
        if (patched.status !== 200) throw new Error(`raffle schedule refused: ${patched.status}`);
      }
      const worker = await startMerchantWorker(
        loadWorkerConfig({
          API_URL: apiUrl,
          API_KEY: merchantKey,
          CHAIN_IDS: String(chainId),
          [`CHAIN_${chainId}_RPC_URL`]: node.rpcUrl,
          [`CHAIN_${chainId}_EXCHANGE_ADDRESS`]: world.deployment.exchange,
          MERCHANT_PRIVATE_KEY: localDevPrivateKey(2),
          RELAYER_ENABLED: "true",
          RELAYER_ID: "web-journeys",
          // The relayer pays from a key of its own, apart from the merchant's transactions the journeys send.
          RELAYER_PRIVATE_KEY: localDevPrivateKey(12),
          RELAYER_POLL_INTERVAL_MS: "100",
          HEALTH_PORT: "0",
          LOG_LEVEL: "error",
        }),
      );
      closers.push(() => worker.stop());
      await enableGasless(apiUrl, webOrigin, chainId, new Wallet(localDevPrivateKey(2)));
    }

    const web = await serveWebApp({
      port: webPort,
      config: {
        apiUrl,
        chains: [{ id: world.deployment.chainId, name: "Local chain", rpcUrl: node.rpcUrl, symbol: "ETH", factory: world.deployment.raffleFactory }],
      },
    });
    closers.push(() => web.close());
    const { executablePath, args } = sparticuzChromium();
    // The whole suite runs under LANG=C.UTF-8, where Chromium reports the locale "en-US@posix" that Intl refuses: the
    // pages must not depend on the machine's locale (one journey opens a context with an ordinary locale as well).
    const browser = await playwright.launch({ executablePath, args, headless: true, env: { ...process.env, LANG: "C.UTF-8", LC_ALL: "C.UTF-8" } });
    closers.push(() => browser.close());
    return {
      node,
      world,
      apiUrl,
      databaseUrl: database.url,
      web,
      browser,
      raffles,
      player: new Wallet(localDevPrivateKey(5)),
      merchant: new Wallet(localDevPrivateKey(2)),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
