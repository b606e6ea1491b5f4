import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { BrowserContext, Page } from "playwright-core";
import { endAndDraw } from "@raffle/chain/testing";
import { openDatabase } from "@raffle/db";
import { RaffleApi, RaffleApiError, buyTicket } from "@raffle/sdk";

import { InjectedWallet } from "./support/injected-wallet";
import { alterApiAnswer, frameFromForeignSite, watchCspViolations } from "./support/page-security";
import { startWebStack, type WebStack } from "./support/web-stack";

const SCREENSHOTS = path.resolve(__dirname, "../../../reports/web/screenshots");
const WAIT = { timeout: 20_000 };

/** A game backend's webhook endpoint on this machine: keeps what it is sent, answers `answer` (200 "ok" at first). */
async function startReceiver(): Promise<{
  url: string;
  received: Array<{ type: string }>;
  answer: { status: number; body: string };
  close(): Promise<void>;
}> {
  const received: Array<{ type: string }> = [];
  const answer = { status: 200, body: "ok" };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push(JSON.parse(Buffer.concat(chunks).toString("utf8")));
      response.writeHead(answer.status, { "content-type": "text/plain" }).end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    answer,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A merchant's journeys through the console in a real Chromium, with an injected EIP-6963 wallet holding the merchant's
 * key, against a real chain, the real API and PostgreSQL. The merchant starts from nothing but its wallet (MERCHANT_ROLE
 * granted): no raffle, no key. One stack, one browser and one page; the journeys run in order, each building on the last.
 */
describe("the merchant console in a browser", () => {
  let stack: WebStack;
  let context: BrowserContext;
  let page: Page;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let apiKey: string;
  let raffle: { id: number; address: string };
  let cspViolations: string[];

  beforeAll(async () => {
    stack = await startWebStack({ raffles: [] });
    receiver = await startReceiver();
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    // No locale of its own: the browser's, "en-US@posix" under the suite's LANG=C.UTF-8, which Intl refuses.
    context = await stack.browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    cspViolations = watchCspViolations(page);
    await new InjectedWallet(stack.merchant, stack.node.provider, stack.world.deployment.chainId).install(page);
  }, 180_000);

  afterAll(async () => {
    await context?.close();
    await receiver?.close();
    await stack?.close();
  });

  const consoleUrl = (hash = "#/") => `${stack.web.url}/console/${hash}`;
  const button = (name: string) => page.getByRole("button", { name, exact: true });
  const heading = (name: string) => page.getByRole("heading", { name, exact: true });
  const sdk = () => new RaffleApi({ baseUrl: stack.apiUrl, apiKey });

  it("signs the merchant in with its wallet", async () => {
    await page.goto(`${stack.web.url}/console`);
    await heading("Merchant console").waitFor(WAIT);
    await button("Connect wallet").click();
    await button("Test Wallet").click();
    await button("Sign in with Ethereum").click();
    await heading("Overview").waitFor(WAIT);
    await page.getByText("Nothing needs your attention on this network.").waitFor(WAIT);
  });

  it("creates a raffle from the wallet (deploy, rules, first round) and sees it listed", async () => {
    await page.goto(consoleUrl("#/raffles"));
    await heading("Raffles").waitFor(WAIT);
    await page.getByText("No raffle on this network yet.").waitFor(WAIT);
    await button("Create raffle").click();
    const form = page.getByRole("form", { name: "New raffle" });
    await form.getByLabel("Ticket name").fill("Console Ticket");
    await form.getByLabel("Ticket symbol").fill("CON");
    await form.getByLabel("Ticket price").fill("0.02");
    await form.getByLabel("Ticket cap of the first round (0 for none)").fill("50");
    // Round rules (raffle v2), set from the wallet between the deployment and the first round.
    await form.getByLabel("Most tickets per wallet (0 for none)").fill("10");
    await form.getByLabel("Bundles (optional)").fill("2 for 0.036");
    await button("Deploy and start selling").click();
    await page.getByText(/created and selling/).waitFor({ timeout: 60_000 });
    await heading("Console Ticket raffle").waitFor(WAIT);
    const card = page.getByRole("region", { name: "Console Ticket raffle" });
    await card.getByText("#1: 0 / 50 sold, Selling").waitFor(WAIT);
    await card.getByText("0.02 ETH", { exact: true }).waitFor(WAIT);
    await card.getByText("one winner takes the pot; no minimum; at most 10 per wallet; 2 for 0.036 ETH").waitFor(WAIT);
  });

  it("creates an API key by keyboard, and the SDK signs a voucher with it; the purchase shows in the sales figures", async () => {
    await page.goto(consoleUrl("#/keys"));
    await heading("API keys").waitFor(WAIT);
    await page.getByLabel("Label").fill("game server");
    await page.getByLabel("Label").press("Enter");
    apiKey = (await page.getByTestId("new-api-key").textContent())!;
    expect(apiKey).toMatch(/^rk_[0-9a-f]{12}_/);
    await button("Create API key").waitFor(WAIT);

    const [listed] = await sdk().listAllRaffleContracts(stack.world.deployment.chainId);
    raffle = { id: listed.id, address: listed.address };
    const voucher = await sdk().signTicket({ account: stack.player.address, contractId: raffle.id });
    expect(voucher.signature).toMatch(/^0x[0-9a-f]{130}$/);
    const bought = await buyTicket({
      api: sdk(),
      signer: stack.player.connect(stack.node.provider),
      contractId: raffle.id,
      exchange: stack.world.deployment.exchange,
    });
    expect(bought.value).toBe(20_000_000_000_000_000n);

    await page.goto(consoleUrl("#/"));
    const figures = page.getByRole("region", { name: "Local chain" });
    await figures.getByRole("table", { name: "Sales per day, raffle and token on Local chain" }).waitFor(WAIT);
    await figures.getByRole("cell", { name: "Console Ticket raffle" }).waitFor(WAIT);
    await figures.getByRole("cell", { name: "0.02 ETH" }).waitFor(WAIT);
    // One day of sales is a written figure, not a lone dot at a chart's edge.
    await figures.getByText("Tickets sold per day on Local chain").waitFor(WAIT);
    expect(await figures.locator(".chart-figure").first().textContent()).toBe("1");
    expect(await figures.locator(".chart canvas").count()).toBe(0);
    await page.screenshot({ path: path.join(SCREENSHOTS, "console-overview-sales-1280.png"), fullPage: true });
    // The key's use shows in the list.
    await page.goto(consoleUrl("#/keys"));
    await page
      .getByRole("row", { name: /game server/ })
      .filter({ hasNotText: "never" })
      .waitFor(WAIT);
  });

  it("shows a draw's winner in the round history, and starts the next round from the wallet", async () => {
    await endAndDraw(stack.world, { raffle: raffle.address, ticket: "", price: { tokenType: 0, token: "", tokenId: 0n, amount: 0n } });
    await page.goto(consoleUrl("#/raffles"));
    const card = page.getByRole("region", { name: "Console Ticket raffle" });
    // The prize's figures labelled as the player's pages label them: one 0.02 ETH ticket, 10% commission.
    await card
      .getByText(
        new RegExp(
          `^Winner ${stack.player.address.slice(0, 6)}…\\w{4} \\(ticket \\d+\\): gross share 0\\.02 ETH · commission rate 10% · net prize paid 0\\.018 ETH, unclaimed; releasable to you from`,
        ),
      )
      .waitFor(WAIT);
    expect(await card.locator("dt", { hasText: "Commission rate" }).locator("+ dd").textContent()).toBe("10%");
    await card.getByRole("cell", { name: "Drawn" }).waitFor(WAIT);

    // No worker runs here: the merchant starts the next round from the wallet.
    const start = card.getByRole("form", { name: "Start a round" });
    await start.getByLabel("Ticket price").fill("0.03");
    await start.getByRole("button", { name: "Start round" }).click();
    await card.getByText("#2: 0 / 100 sold, Selling").waitFor(WAIT);
    await card.getByText("0.03 ETH", { exact: true }).waitFor(WAIT);
    expect(await card.getByRole("form", { name: "Start a round" }).count()).toBe(0);
  });

  it("edits the schedule after previewing its next five runs, and pauses and resumes the raffle from the wallet", async () => {
    const card = page.getByRole("region", { name: "Console Ticket raffle" });
    await card.getByLabel("Schedule (cron, UTC)").fill("every hour");
    await card.getByRole("button", { name: "Preview" }).click();
    // The API's sentence under the field, not a generic "not valid".
    await card.getByText('Schedule must be a cron expression like "0 * * * *" (minute hour day month weekday, UTC)').waitFor(WAIT);
    expect(await card.getByLabel("Schedule (cron, UTC)").getAttribute("aria-invalid")).toBe("true");
    expect(await card.getByText(/is not valid/).count()).toBe(0);
    await card.getByLabel("Schedule (cron, UTC)").fill("15 3 * * *");
    await card.getByRole("button", { name: "Preview" }).click();
    await card.getByText("Next five runs:").waitFor(WAIT);
    expect(
      await card
        .getByRole("listitem")
        .filter({ hasText: /03:15:00 GMT/ })
        .count(),
    ).toBe(5);
    await card.getByRole("button", { name: "Save schedule" }).click();
    await card.getByText("Saved.").waitFor(WAIT);
    expect((await sdk().listAllRaffleContracts(stack.world.deployment.chainId))[0].parameters).toMatchObject({ schedule: "15 3 * * *" });

    await card.getByRole("button", { name: "Pause" }).click();
    await card.getByText("Paused", { exact: true }).waitFor(WAIT);
    await page.goto(consoleUrl("#/"));
    await page.getByText("Console Ticket raffle is paused: no ticket sells until you resume it.").waitFor(WAIT);
    await page.goto(consoleUrl("#/raffles"));
    await card.getByRole("button", { name: "Resume" }).click();
    await card.getByRole("button", { name: "Pause" }).waitFor(WAIT);
  });

  it("finds why a webhook endpoint fails from the console alone: its health, the attempt's status and answer, the payload", async () => {
    await page.goto(consoleUrl("#/webhooks"));
    await heading("Webhooks").waitFor(WAIT);
    await page.getByLabel("Endpoint URL").fill(receiver.url);
    // Every type is chosen by default; the merchant leaves out one.
    await page.getByRole("checkbox", { name: /^raffle\.paused/ }).uncheck();
    await button("Add endpoint").click();
    await page.getByText(/Signing secret of endpoint/).waitFor(WAIT);
    const webhookId = Number((await page.getByText(/Signing secret of endpoint/).textContent())!.match(/endpoint (\d+)/)![1]);
    await button("Copy secret").click();
    await button("Copied").waitFor(WAIT);
    const endpoint = page.getByRole("region", { name: receiver.url });
    await endpoint.getByText(/^Event types: raffle\.deployed, .*raffle\.unpaused/).waitFor(WAIT);
    expect(await endpoint.getByText(/^Event types:/).textContent()).not.toContain("raffle.paused,");
    await endpoint.getByText(/^Healthy/).waitFor(WAIT);
    await button("Send test event").click();
    await page.getByText("Test event delivered.").waitFor(WAIT);
    const log = endpoint.getByRole("list", { name: `Messages sent to ${receiver.url}` });
    await log.getByText("webhook.test · Delivered · 1 attempt · last answer: HTTP 200", { exact: false }).waitFor(WAIT);

    // The game server breaks: the next message is answered 500 with a reason the merchant can read in the console.
    receiver.answer.status = 500;
    receiver.answer.body = "orders database is down";
    await button("Send test event").click();
    await page.getByText(/The test event was not accepted/).waitFor(WAIT);
    await endpoint.getByText(/^Failing since /).waitFor(WAIT);
    await endpoint.getByLabel("State").selectOption({ label: "Retrying" });
    await endpoint.getByText("1 message.").waitFor(WAIT);
    const failed = log.getByRole("listitem").filter({ hasText: "last answer: HTTP 500" });
    await failed.getByRole("button", { name: /^Show attempts and payload of webhook\.test message/ }).click();
    // The first of its attempts: a slow run may have retried it already, and each attempt shows its answer.
    await failed.getByText("HTTP 500", { exact: true }).first().waitFor(WAIT);
    await failed.getByText("orders database is down", { exact: true }).first().waitFor(WAIT);
    expect(await failed.getByLabel(/^Payload of webhook\.test message/).textContent()).toContain('"type": "webhook.test"');
    await page.screenshot({ path: path.join(SCREENSHOTS, "console-webhook-failing-1280.png"), fullPage: true });
    await page.setViewportSize({ width: 375, height: 812 });
    await failed.getByText("orders database is down", { exact: true }).first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SCREENSHOTS, "console-webhook-failing-375.png"), fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    const axe = await new AxeBuilder({ page }).analyze();
    expect(
      axe.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical").map((violation) => violation.id),
    ).toEqual([]);

    // The merchant narrows what the endpoint receives.
    await endpoint.getByRole("button", { name: `Edit the event types sent to ${receiver.url}` }).click();
    await endpoint.getByRole("checkbox", { name: /^ticket\.purchased/ }).uncheck();
    await endpoint.getByRole("button", { name: "Save event types" }).click();
    await endpoint.getByText("Event types saved: they apply to events from now on.").waitFor(WAIT);
    expect((await sdk().getWebhook(webhookId)).events).not.toContain("ticket.purchased");

    // Overview names the failing endpoint under "What needs attention" and links to its log.
    await page.goto(consoleUrl("#/"));
    const attention = page.getByRole("region", { name: "What needs attention: webhooks" });
    await attention.getByText(new RegExp(`Webhook endpoint ${receiver.url.replace(/[./]/g, "\\$&")} is failing since`)).waitFor(WAIT);
    await attention.getByRole("link", { name: "See why in its message log" }).click();
    await heading("Webhooks").waitFor(WAIT);
    await page.setViewportSize({ width: 1280, height: 900 });
    // Only test messages were sent to it (the delivery loop retries the failed one meanwhile).
    expect(new Set(receiver.received.map((message) => message.type))).toEqual(new Set(["webhook.test"]));
  });

  it("sets what players see (title, description) and the raffle's page shows it", async () => {
    await page.goto(consoleUrl("#/raffles"));
    const card = page.getByRole("region", { name: "Console Ticket raffle" });
    await card.getByRole("button", { name: "Edit player page" }).click();
    // A title that would flip the page's text direction: the API's sentence shows under the field, tied to it.
    await card.getByLabel("Title").fill("Moonlight \u202eelffaR");
    await card.getByRole("button", { name: "Save player page" }).click();
    const title = card.getByRole("textbox", { name: "Title" });
    await card.getByText("Title must not contain control characters, invisible or direction-changing characters", { exact: false }).waitFor(WAIT);
    expect(await title.getAttribute("aria-invalid")).toBe("true");
    const describedBy = (await title.getAttribute("aria-describedby"))!;
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toMatch(/^Title must not contain control characters/);
    expect(await card.getByText(/is not valid/).count()).toBe(0);
    await card.getByLabel("Title").fill("Moonlight Raffle");
    await card.getByLabel("Description").fill("One winner a night.\n\nPaid in ether, straight to the winner's wallet.");
    await card.getByRole("button", { name: "Save player page" }).click();
    await page.getByText("Saved: players see it on the raffle's page within a few seconds.").waitFor(WAIT);
    await heading("Moonlight Raffle").waitFor(WAIT);

    // Stored as the spec's rich-text document, one block per paragraph (the blank line is no paragraph).
    const [listed] = await sdk().listAllRaffleContracts(stack.world.deployment.chainId);
    expect(listed.title).toBe("Moonlight Raffle");
    const blocks = (JSON.parse(listed.description) as { blocks: Array<{ text: string; type: string }> }).blocks;
    expect(blocks.map(({ text, type }) => ({ text, type }))).toEqual([
      { text: "One winner a night.", type: "unstyled" },
      { text: "Paid in ether, straight to the winner's wallet.", type: "unstyled" },
    ]);

    // Players find it once it is on public sale.
    const renamed = page.getByRole("region", { name: "Moonlight Raffle" });
    // The merchant's title in <bdi>: its direction marks cannot reorder the text around it.
    expect(await renamed.getByRole("heading", { level: 2 }).locator("bdi").textContent()).toBe("Moonlight Raffle");
    await renamed.getByRole("button", { name: "Put on public sale" }).click();
    await renamed.getByRole("button", { name: "Take off public sale" }).waitFor(WAIT);
    await page.goto(`${stack.web.url}/#/raffle/${raffle.id}`);
    await page.getByRole("heading", { level: 1, name: "Moonlight Raffle" }).waitFor(WAIT);
    await page.getByText("Paid in ether, straight to the winner's wallet.").waitFor(WAIT);
    await page.screenshot({ path: path.join(SCREENSHOTS, "console-player-page-1280.png"), fullPage: true });
  });

  it("edits a stored description whose blocks are not text as the text they hold, never [object Object]", async () => {
    const hostile = JSON.stringify({ blocks: [{ text: { html: "x" } }, { text: 42, type: "header-two" }, null, { text: "Kept.", type: "blink" }] });
    const restore = await alterApiAnswer<{ rows: Array<{ id: number; description: string }> }>(
      page,
      `${stack.apiUrl}/raffle/contracts?take=100`,
      (body) => ({
        ...body,
        rows: body.rows.map((row) => (row.id === raffle.id ? { ...row, description: hostile } : row)),
      }),
    );
    try {
      await page.goto(consoleUrl("#/raffles"));
      const card = page.getByRole("region", { name: "Moonlight Raffle" });
      await card.getByRole("button", { name: "Edit player page" }).click();
      expect(await card.getByLabel("Description").inputValue()).toBe("\n42\nKept.");
    } finally {
      await restore();
    }
  });

  it("shows a sentence and a way back, never a blank page, when a page fails to render", async () => {
    const restore = await alterApiAnswer<object>(page, `${stack.apiUrl}/merchant/overview`, (body) => ({ ...body, chains: "not a list" }));
    await page.goto(consoleUrl("#/"));
    await page.getByRole("alert").filter({ hasText: "Something went wrong while showing this page. Nothing was sent or signed." }).waitFor(WAIT);
    await page.screenshot({ path: path.join(SCREENSHOTS, "console-page-failed-1280.png"), fullPage: true });
    await restore();
    await page.getByRole("link", { name: "Back to the overview" }).click();
    await heading("Overview").waitFor(WAIT);
  });

  it("cannot be framed by another site: the browser refuses, the frame shows nothing of the console", async () => {
    const framed = await frameFromForeignSite(context, `${stack.web.url}/console/`);
    // Chromium puts its error page in place of a frame the page's frame-ancestors refuses.
    expect(framed).toEqual({ frameUrl: "chrome-error://chromewebdata/", appInFrame: false });
  });

  it("says a missed rotation is the merchant worker's to check while no revoked key is being refused", async () => {
    // The current round started two days ago: its daily run (15 3 * * *) passed without the worker rotating it.
    const db = await openDatabase({ url: stack.databaseUrl, poolSize: 1 });
    try {
      await db.query(`UPDATE round SET start_timestamp = now() - interval '2 days' WHERE contract_id = $1 AND round_status = 'ACTIVE'`, [raffle.id]);
    } finally {
      await db.destroy();
    }
    await page.goto(consoleUrl("#/"));
    await page
      .getByText(/^Moonlight Raffle: the scheduled rotation since .+ did not happen\. Check that the merchant worker is running\.$/)
      .waitFor(WAIT);
  });

  it("asks before revoking a key used a minute ago (Escape keeps it), rolls it, revokes the old one, and Overview names it", async () => {
    const sign = (key: string) =>
      new RaffleApi({ baseUrl: stack.apiUrl, apiKey: key }).signTicket({ account: stack.player.address, contractId: raffle.id });
    await page.goto(consoleUrl("#/keys"));
    const row = page.getByRole("row", { name: /game server/ });
    const revoke = row.getByRole("button", { name: "Revoke" });
    await revoke.click();
    const dialog = page.getByRole("dialog", { name: /^Revoke “game server”/ });
    await dialog.getByText(/This key is in use: it was last used (less than a minute|1 minute|\d+ minutes) ago\./).waitFor(WAIT);
    // Who used it, as the API recorded that call: the SDK's client (Node's fetch) on this machine.
    await dialog.getByText(/^That last call came from the client “node” at the address (::ffff:)?127\.0\.0\.1\.$/).waitFor(WAIT);
    await page.screenshot({ path: path.join(SCREENSHOTS, "console-revoke-live-key.png"), fullPage: true });
    expect(await dialog.getByRole("button", { name: "Cancel" }).evaluate((element) => element === document.activeElement)).toBe(true);
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached", ...WAIT });
    expect(await revoke.evaluate((element) => element === document.activeElement)).toBe(true);
    await row.getByText("Active").waitFor(WAIT);
    expect((await sign(apiKey)).signature).toMatch(/^0x/);

    // Roll: a new key shown once, the old one working through the hour chosen.
    await row.getByRole("button", { name: "Roll" }).click();
    const roll = page.getByRole("dialog", { name: /^Roll “game server”/ });
    await roll.getByLabel("Keep the old key working for").selectOption({ label: "1 hour" });
    await roll.getByRole("button", { name: "Roll key" }).click();
    const rolled = (await page.getByTestId("new-api-key").textContent())!;
    expect(rolled).toMatch(/^rk_[0-9a-f]{12}_/);
    expect(rolled).not.toBe(apiKey);
    const copy = page.getByRole("button", { name: "Copy key" });
    await copy.waitFor(WAIT);
    expect(await copy.evaluate((element) => element === document.activeElement)).toBe(true);
    await page.getByText(/^Rolled: works until /).waitFor(WAIT);
    expect((await sign(rolled)).signature).toMatch(/^0x/);
    expect((await sign(apiKey)).signature).toMatch(/^0x/);

    // Revoked after confirming: the old key is refused, and Overview says so rather than blaming the worker.
    const old = page.locator("tbody tr", { hasText: `rk_${apiKey.slice(3, 15)}_` });
    await old.getByRole("button", { name: "Revoke" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Revoke key" }).click();
    await old.getByText(/^Revoked /).waitFor(WAIT);
    const refused = await sign(apiKey).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RaffleApiError);
    expect({ status: (refused as RaffleApiError).status, code: (refused as RaffleApiError).code }).toEqual({ status: 401, code: "unauthorized" });
    apiKey = rolled;
    await page.goto(consoleUrl("#/"));
    await page
      .getByText(/Your API key “game server” \(rk_[0-9a-f]{12}_…\) was revoked and is still being used: a call with it was refused/)
      .waitFor(WAIT);
    await page.screenshot({ path: path.join(SCREENSHOTS, "console-overview-revoked-key-1280.png"), fullPage: true });

    // The missed rotation now names the refused key, not the worker's running.
    const rotation = page.getByRole("listitem").filter({ hasText: "the scheduled rotation since" });
    await rotation.filter({ hasText: "was revoked and is still being used" }).waitFor(WAIT);
    expect(await rotation.textContent()).toMatch(
      /^Moonlight Raffle: the scheduled rotation since .+ did not happen\. Your API key “game server” \(rk_[0-9a-f]{12}_…\) was revoked and is still being used \(a call with it was refused .+\): if the merchant worker uses it, the API refuses the worker\. Give the worker a working key from API keys\.$/,
    );
    expect(await rotation.textContent()).not.toContain("Check that the merchant worker is running");
    await rotation.getByRole("link", { name: "API keys" }).waitFor(WAIT);
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
      await page.screenshot({ path: path.join(SCREENSHOTS, `console-overview-rotation-refused-key-${width}.png`), fullPage: true });
    }
  });

  it("passes axe-core on every console page, at 1280 and 375 px, and captures each", async () => {
    const pages = { overview: "#/", raffles: "#/raffles", keys: "#/keys", webhooks: "#/webhooks" };
    const titles = { overview: "Overview", raffles: "Raffles", keys: "API keys", webhooks: "Webhooks" };
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
      for (const [name, hash] of Object.entries(pages) as Array<[keyof typeof pages, string]>) {
        await page.goto(consoleUrl(hash));
        await heading(titles[name]).waitFor(WAIT);
        await page.waitForLoadState("networkidle");
        await page.screenshot({ path: path.join(SCREENSHOTS, `console-${name}-${width}.png`), fullPage: true });
        // Nothing wider than the screen: a phone scrolls the page down, never sideways (wide tables scroll in their box).
        const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth);
        expect({ page: name, width, fits: pageWidth <= width }).toEqual({ page: name, width, fits: true });
        if (name === "raffles") await page.getByText(/gross share 0\.02 ETH · commission rate 10% · net prize paid 0\.018 ETH/).waitFor(WAIT);
        if (name === "keys") {
          // Each key's Last used, State and actions stay on screen at either width: on a phone the rows are cards.
          const live = page.locator("tbody tr", { hasText: "Active" }).first();
          for (const part of [live.locator('td[data-label="Last used"]'), live.getByText("Active"), live.getByRole("button", { name: "Revoke" })]) {
            const box = (await part.boundingBox())!;
            expect({ width, inside: box.x >= 0 && box.x + box.width <= width }).toEqual({ width, inside: true });
          }
        }
        const results = await new AxeBuilder({ page }).analyze();
        const serious = results.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
        expect({ page: name, width, violations: serious.map((violation) => `${violation.id}: ${violation.help}`) }).toEqual({
          page: name,
          width,
          violations: [],
        });
      }
    }
  });

  it("draws a month of sales as bars that fit a phone's screen", async () => {
    await page.setViewportSize({ width: 375, height: 812 });
    const token = { token: "0x0000000000000000000000000000000000000000", symbol: "ETH", decimals: 18 };
    const days = Array.from({ length: 5 }, (_, index) => new Date(Date.now() - index * 86_400_000).toISOString().slice(0, 10));
    const rows = days.map((day, index) => ({
      day,
      chainId: stack.world.deployment.chainId,
      contractId: raffle.id,
      token,
      tickets: index + 1,
      revenue: `${BigInt(index + 1) * 20_000_000_000_000_000n}`,
    }));
    await page.route("**/raffle/sales?*", (route) => route.fulfill({ json: { rows } }));
    try {
      await page.goto(consoleUrl("#/"));
      const charts = page.getByRole("region", { name: "Local chain" }).locator(".chart canvas");
      await charts.first().waitFor(WAIT);
      expect(await charts.count()).toBe(2);
      for (const chart of await charts.all()) {
        const box = (await chart.boundingBox())!;
        expect({ left: box.x >= 0, right: box.x + box.width <= 375 }).toEqual({ left: true, right: true });
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      await page.screenshot({ path: path.join(SCREENSHOTS, "console-overview-chart-375.png"), fullPage: true });
    } finally {
      await page.unroute("**/raffle/sales?*");
    }
  });

  it("signs out when the session has ended on the API's side", async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(consoleUrl("#/keys"));
    await heading("API keys").waitFor(WAIT);
    const token = await page.evaluate(() => JSON.parse(sessionStorage.getItem("raffle.merchantSession")!).token as string);
    await fetch(`${stack.apiUrl}/merchant/logout`, { method: "POST", headers: { Authorization: `Bearer ${token}` } });
    await page.reload();
    await heading("Merchant console").waitFor(WAIT);
    await button("Sign in with Ethereum").waitFor(WAIT);
  });

  it("ran every journey under the pages' Content-Security-Policy without a violation", () => {
    expect(cspViolations).toEqual([]);
  });
});
