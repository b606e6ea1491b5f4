import * as fs from "node:fs";
import * as path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { BrowserContext, Page } from "playwright-core";
import { RaffleTicket__factory, Raffle__factory } from "@raffle/chain";
import { buyTickets, endAndDraw, startNextRound } from "@raffle/chain/testing";
import { openDatabase } from "@raffle/db";

import { InjectedWallet } from "./support/injected-wallet";
import { startWebStack, type WebStack } from "./support/web-stack";

const SCREENSHOTS = path.resolve(__dirname, "../../../reports/web/screenshots");
const WAIT = { timeout: 20_000 };

/**
 * Round rules in the browser (a wallet cap, a minimum that refunds a round) and the round history with its draw
 * verified against the chain, on their own stack: raffles whose merchant set rules before the first round. The
 * journeys run in order, as in player-journeys.spec.ts.
 */
describe("round rules and round history in a browser", () => {
  let stack: WebStack;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    stack = await startWebStack({ raffles: ["capped", "minimum", "history"] });
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    context = await stack.browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    await new InjectedWallet(stack.player, stack.node.provider, stack.world.deployment.chainId).install(page);
  }, 180_000);

  afterAll(async () => {
    await context?.close();
    await stack?.close();
  });

  const raffleUrl = (name: keyof WebStack["raffles"]) => `${stack.web.url}/#/raffle/${stack.raffles[name].id}`;
  const historyUrl = (name: keyof WebStack["raffles"]) => `${raffleUrl(name)}/rounds`;
  /** Loads the round history afresh (a `goto` to the URL the page is on already does not reload it). */
  async function openHistory(name: keyof WebStack["raffles"]) {
    await page.goto("about:blank");
    await page.goto(historyUrl(name));
  }
  const button = (name: string) => page.getByRole("button", { name, exact: true });
  const myTickets = () => page.getByRole("region", { name: "My tickets" });
  const raffleOf = (name: keyof WebStack["raffles"]) => Raffle__factory.connect(stack.raffles[name].deployed.raffle, stack.world.merchant);

  it("connects the wallet and signs in", async () => {
    await page.goto(stack.web.url);
    await button("Connect wallet").click();
    await button("Test Wallet").click();
    await button("Sign in").click();
    await page.getByText("Signed in", { exact: true }).waitFor(WAIT);
  });

  it("refuses a purchase over the round's wallet cap with the API's sentence, and buys nothing", async () => {
    await page.goto(raffleUrl("capped"));
    const quantity = page.getByLabel("Quantity");
    await quantity.waitFor(WAIT);
    await quantity.fill("2");
    await button("Buy").click();
    await page.getByText("2 tickets bought! They are in My tickets.").waitFor(WAIT);
    await page.getByText("2 / 100 sold", { exact: true }).waitFor(WAIT);

    await quantity.fill("1");
    await button("Buy").click();
    await page.getByRole("alert").filter({ hasText: "You already hold the most tickets one wallet may buy in this round." }).waitFor(WAIT);
    // Nothing half done: no purchase reached the chain, the page still shows 2 sold.
    const ticket = RaffleTicket__factory.connect(stack.raffles.capped.deployed.ticket, stack.node.provider);
    expect(await ticket.balanceOf(stack.player.address)).toBe(2n);
    expect((await raffleOf("capped").getRound(1n)).ticketCount).toBe(2n);
    await page.reload();
    await page.getByText("2 / 100 sold", { exact: true }).waitFor(WAIT);
  });

  it("refunds the tickets of a round that missed its minimum, saying it sold 2 of the 3 tickets it needed", async () => {
    await page.goto(raffleUrl("minimum"));
    await page.getByText("A round needs 3 tickets to be drawn", { exact: false }).waitFor(WAIT);
    await page.getByLabel("Quantity").fill("2");
    await button("Buy").click();
    await page.getByText("2 tickets bought! They are in My tickets.").waitFor(WAIT);
    const raffle = raffleOf("minimum");
    await (await raffle.endRound()).wait();
    expect((await raffle.getRound(1n)).ticketCount).toBe(2n);

    await page.goto(`${stack.web.url}/#/tickets`);
    const owed = myTickets().getByText("Refundable: it sold 2 of the 3 tickets it needed · 0.01 ETH back", { exact: true });
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
      await owed.nth(1).waitFor(WAIT);
      expect(await owed.count()).toBe(2);
      await page.screenshot({ path: path.join(SCREENSHOTS, `tickets-minimum-${width}.png`), fullPage: true });
    }
    expect(await myTickets().getByText("the round was not drawn").count()).toBe(0);
    await myTickets().getByText("2 tickets to refund, 0.02 ETH in all.").waitFor(WAIT);
    await button("Refund all").click();
    await myTickets()
      .getByText(/^2 tickets refunded: 0\.02 ETH is back in your wallet\./)
      .waitFor(WAIT);
    await myTickets().getByText("Refunded", { exact: true }).nth(1).waitFor(WAIT);
    const refunds = await raffle.queryFilter(raffle.filters.TicketRefunded(1n));
    expect(refunds.map((event) => event.args.owner)).toEqual([stack.player.address, stack.player.address]);

    await page.goto(historyUrl("minimum"));
    await page.getByText("Refundable: it sold 2 of the 3 tickets it needed", { exact: true }).waitFor(WAIT);
    expect(await button("Verify this draw").count()).toBe(0);
  });

  it("shows the winners of a drawn round in the round history, and Verify this draw says it agrees", async () => {
    const { deployed } = stack.raffles.history;
    await buyTickets(stack.world, deployed, stack.world.players[1], 3);
    await buyTickets(stack.world, deployed, stack.world.players[2], 2);
    await endAndDraw(stack.world, deployed);
    await startNextRound(stack.world, deployed);
    const winners = (await raffleOf("history").getWinners(1n)).map((winner) => winner.ticketId);
    expect(winners).toHaveLength(2);

    await page.goto(raffleUrl("history"));
    await page.getByRole("link", { name: "Round history" }).click();
    await page.getByRole("heading", { level: 1, name: /^Round history/ }).waitFor(WAIT);
    expect(page.url()).toBe(historyUrl("history"));
    const rounds = page.getByRole("list", { name: "Rounds, newest first" }).getByRole("article");
    await rounds.nth(1).waitFor(WAIT);
    expect(await rounds.getByRole("heading", { level: 2 }).allTextContents()).toEqual(["Round 2", "Round 1"]);
    const drawn = rounds.nth(1);
    await drawn.getByText("Drawn", { exact: true }).waitFor(WAIT);
    const shown = await drawn.getByRole("list", { name: "Winners of Round 1" }).getByRole("listitem").allTextContents();
    expect(shown.map((line) => /ticket #(\d+)/.exec(line)?.[1])).toEqual(winners.map(String));
    // Each prize's figures, labelled: the gross share of the pot, the commission rate and the prize the claim pays.
    expect(shown[0]).toMatch(
      /^1st prize: ticket #\d+ · held by 0x[0-9a-fA-F]{4}…[0-9a-fA-F]{4} · gross share 0\.03 ETH · commission rate 10% · net prize paid 0\.027 ETH · not claimed yet$/,
    );
    expect(shown[1]).toMatch(/ · gross share 0\.02 ETH · commission rate 10% · net prize paid 0\.018 ETH · not claimed yet$/);
    await drawn.getByText("10% of each prize", { exact: true }).waitFor(WAIT);
    await drawn.getByText(/^0x[0-9a-f]{64}$/).waitFor(WAIT); // the transaction that recorded the draw

    // One button, on the drawn round only; by keyboard.
    expect(await button("Verify this draw").count()).toBe(1);
    await button("Verify this draw").focus();
    await page.keyboard.press("Enter");
    const verdict = `The draw checks out: the random word recorded on chain picks tickets #${winners[0]} and #${winners[1]}, the winners shown.`;
    await drawn.getByRole("status").filter({ hasText: verdict }).waitFor(WAIT);
  });

  it("says which winners differ when the winners shown are not the ones the chain's word draws", async () => {
    const db = await openDatabase({ url: stack.databaseUrl, poolSize: 1 });
    const winners = (await raffleOf("history").getWinners(1n)).map((winner) => winner.ticketId);
    // A tampered index: the first two positions swapped.
    const swap = `UPDATE round_winner w SET ticket_id = CASE w.ticket_id WHEN $1::numeric THEN $2::numeric ELSE $1::numeric END
                    FROM round r WHERE r.id = w.round_id AND r.contract_id = $3 AND w.ticket_id IN ($1::numeric, $2::numeric)`;
    const args = [winners[0].toString(), winners[1].toString(), stack.raffles.history.id];
    try {
      await db.query(swap, args);
      await openHistory("history");
      await button("Verify this draw").click();
      await page
        .getByRole("status")
        .filter({
          hasText:
            `The draw does not agree with what is shown: the 1st prize shows ticket #${winners[1]}, but the word picks ticket #${winners[0]}; ` +
            `the 2nd prize shows ticket #${winners[0]}, but the word picks ticket #${winners[1]}.`,
        })
        .waitFor(WAIT);
    } finally {
      await db.query(swap, args);
      await db.destroy();
    }
  });

  it("passes axe-core on the round history at 1280 and 375 px, and captures it", async () => {
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
      await openHistory("history");
      await button("Verify this draw").click();
      await page.getByText(/^The draw checks out/).waitFor(WAIT);
      // The labelled prize figures at either width.
      await page.getByText(/gross share 0\.03 ETH · commission rate 10% · net prize paid 0\.027 ETH/).waitFor(WAIT);
      await page.waitForLoadState("networkidle");
      await page.screenshot({ path: path.join(SCREENSHOTS, `rounds-${width}.png`), fullPage: true });
      const results = await new AxeBuilder({ page }).analyze();
      const serious = results.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
      expect({ width, violations: serious.map((violation) => `${violation.id}: ${violation.help}`) }).toEqual({ width, violations: [] });
      // Nothing wider than the screen: the long word and hashes wrap.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    }
  });
});
