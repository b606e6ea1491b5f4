/**
 * The player app's budgets (issue #29), measured rather than timed in a test: the JavaScript the player page loads,
 * gzipped; how soon the raffle page shows its round after a navigation, in the real Chromium; and how soon a purchase
 * is shown as confirmed after the block that holds it, against the indexer's poll interval. It builds the app and
 * starts the browser journeys' stack (apps/web/test/support/web-stack.ts) with the local stack's indexer settings (a
 * 500 ms poll, woken by each new head over WebSocket).
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import * as zlib from "node:zlib";
import type { Page } from "playwright-core";

import { WEB_DIST_DIR } from "../../../apps/web/server/serve-web-app";
import { InjectedWallet } from "../../../apps/web/test/support/injected-wallet";
import { startWebStack } from "../../../apps/web/test/support/web-stack";
import { STACK_INDEXER_POLL_MS } from "../../stack/local-stack";
import type { BenchRow } from "../record";
import { say } from "../settings";
import type { BenchStack } from "../stack";

const ROOT = path.resolve(__dirname, "../../..");
const JS_BUDGET_BYTES = 250_000;
const ROUND_SHOWN_BUDGET_MS = 1_000;
/** `npm start`'s indexer poll: the page must show a purchase within one poll of its block. */
const INDEXER_POLL_MS = STACK_INDEXER_POLL_MS;
const RUNS = Number(process.env.BENCH_WEB_RUNS ?? 5);
const WAIT = { timeout: 30_000 };

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (values: number[]) => `median ${Math.round(median(values))} ms, max ${Math.round(Math.max(...values))} ms (${values.length} runs)`;

/** The JavaScript index.html loads: its module script and the chunks it preloads (the console's page is not counted). */
export function playerPageScripts(distDir = WEB_DIST_DIR): string[] {
  const html = fs.readFileSync(path.join(distDir, "index.html"), "utf8");
  const scripts = [
    ...html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g),
    ...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g),
  ];
  return [...new Set(scripts.map((match) => path.join(distDir, match[1])))];
}

/**
 * Stamps, in the page, the moment an element matching `selector` first has text matching `pattern` (a MutationObserver
 * reading textContent: no layout forced, so the page is not slowed by being watched). `at` is the clock of this
 * machine (Date.now), `since` the time from the navigation's start (performance.now).
 */
function stampScript(name: string, selector: string, pattern: RegExp): string {
  return `(() => {
    const stamps = (window.__stamps ??= {});
    delete stamps[${JSON.stringify(name)}];
    const pattern = new RegExp(${JSON.stringify(pattern.source)});
    const check = () => {
      if (stamps[${JSON.stringify(name)}]) return;
      for (const element of document.querySelectorAll(${JSON.stringify(selector)})) {
        if (pattern.test(element.textContent || "")) {
          stamps[${JSON.stringify(name)}] = { at: Date.now(), since: performance.now() };
          return;
        }
      }
    };
    new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true });
    check();
  })();`;
}

async function stamp(page: Page, name: string): Promise<{ at: number; since: number }> {
  const handle = await page.waitForFunction((key) => (globalThis as unknown as { __stamps?: Record<string, unknown> }).__stamps?.[key], name, {
    ...WAIT,
    polling: 50,
  });
  return (await handle.jsonValue()) as { at: number; since: number };
}

export async function measureWebBudgets(say: (line: string) => void): Promise<BenchRow[]> {
  say("web: building the player app (npm run build -w apps/web)");
  execFileSync("npm", ["run", "build", "--workspace", "apps/web"], { cwd: ROOT, stdio: "ignore" });
  const scripts = playerPageScripts();
  const gzipBytes = scripts.reduce((sum, file) => sum + zlib.gzipSync(fs.readFileSync(file)).length, 0);
  const rawBytes = scripts.reduce((sum, file) => sum + fs.statSync(file).size, 0);

  say(`web: starting the chain, the API (indexer poll ${INDEXER_POLL_MS} ms, woken by new heads), the app and Chromium`);
  const stack = await startWebStack({ raffles: ["native"], indexerPollMs: INDEXER_POLL_MS, indexerWakesOnHeads: true });
  const raffleUrl = `${stack.web.url}/#/raffle/${stack.raffles.native.id}`;
  const roundShown: number[] = [];
  const confirmed: number[] = [];
  try {
    // One context and page for the whole part: this Chromium runs as a single process, which closing a context ends.
    const context = await stack.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await new InjectedWallet(stack.player, stack.node.provider, stack.world.deployment.chainId).install(page);
    await page.addInitScript(stampScript("round", "h2", /^Round \d+$/));
    // Every navigation with the browser's cache off: nothing cached, as a player's first visit.
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
    for (let run = 0; run < RUNS; run += 1) {
      await page.goto("about:blank");
      await page.goto(raffleUrl);
      roundShown.push((await stamp(page, "round")).since);
    }
    await cdp.send("Network.setCacheDisabled", { cacheDisabled: false });
    say(`web: raffle page showed its round in ${ms(roundShown)}`);

    await page.goto(stack.web.url);
    await page.getByRole("button", { name: "Connect wallet", exact: true }).click();
    await page.getByRole("button", { name: "Test Wallet", exact: true }).click();
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByText("Signed in", { exact: true }).waitFor(WAIT);
    // When each block appeared on the node, by this machine's clock (the page's clock is the same one).
    const blockSeenAt = new Map<number, number>();
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        // eth_blockNumber itself: ethers' getBlockNumber() answers from a cache for up to 250 ms.
        const block = Number(await stack.node.provider.send("eth_blockNumber", []));
        if (!blockSeenAt.has(block)) blockSeenAt.set(block, Date.now());
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    try {
      for (let run = 0; run < RUNS; run += 1) {
        await page.goto("about:blank");
        await page.goto(raffleUrl);
        await page.getByText(`${run} / 100 sold`, { exact: true }).waitFor(WAIT);
        await page.evaluate(stampScript("bought", "[role=status]", /^Ticket bought!/));
        await page.getByRole("button", { name: "Buy", exact: true }).click();
        const shown = await stamp(page, "bought");
        const hash = /Transaction (0x[0-9a-f]{64})/.exec(await page.getByRole("status").filter({ hasText: "Ticket bought!" }).innerText())![1];
        const receipt = await stack.node.provider.getTransactionReceipt(hash);
        const seen = blockSeenAt.get(receipt!.blockNumber);
        if (seen === undefined) throw new Error(`block ${receipt!.blockNumber} was never seen by the watcher`);
        confirmed.push(shown.at - seen);
      }
    } finally {
      watching = false;
      await watcher;
    }
    say(`web: purchases shown confirmed ${ms(confirmed)} after their block`);
  } finally {
    await stack.close();
  }

  return [
    {
      measure: "web: player page JavaScript, gzip",
      result: `${(gzipBytes / 1000).toFixed(1)} kB (${scripts.length} files, ${(rawBytes / 1000).toFixed(0)} kB raw)`,
      target: `<= ${JS_BUDGET_BYTES / 1000} kB`,
      met: gzipBytes <= JS_BUDGET_BYTES,
    },
    {
      measure: "web: raffle page shows its round after navigation (cold, Chromium)",
      result: ms(roundShown),
      target: `<= ${ROUND_SHOWN_BUDGET_MS} ms`,
      met: Math.max(...roundShown) <= ROUND_SHOWN_BUDGET_MS,
    },
    {
      measure: "web: purchase shown confirmed after its block",
      result: ms(confirmed),
      target: `<= one indexer poll (${INDEXER_POLL_MS} ms)`,
      met: Math.max(...confirmed) <= INDEXER_POLL_MS,
    },
  ];
}

/** Part "web": the player app's budgets, on a stack of its own (the bench's API may be stopped by then). */
export async function webPart({ rows }: Pick<BenchStack, "rows">): Promise<void> {
  rows.push(...(await measureWebBudgets(say)));
}
