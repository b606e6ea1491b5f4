import * as fs from "node:fs";
import * as path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { Wallet, parseEther, parseUnits } from "ethers";
import type { BrowserContext, Page } from "playwright-core";
import { RaffleTicket__factory, Raffle__factory, TestToken__factory } from "@raffle/chain";
import { buyTicket, endAndDraw, startNextRound } from "@raffle/chain/testing";

import { InjectedWallet } from "./support/injected-wallet";
import { alterApiAnswer, frameFromForeignSite, watchCspViolations } from "./support/page-security";
import { startWebStack, type WebStack } from "./support/web-stack";

const SCREENSHOTS = path.resolve(__dirname, "../../../reports/web/screenshots");
const WAIT = { timeout: 20_000 };
/** What a wallet is asked for when the player signs or pays: none of these may reach a wallet that cannot pay. */
const SIGNING = ["personal_sign", "eth_sign", "eth_signTypedData_v4", "eth_sendTransaction", "eth_sendRawTransaction"];

/**
 * A player's journeys through the built app in a real Chromium, with an injected EIP-6963 wallet, against a real chain,
 * the real API and PostgreSQL. One stack, one browser and one page for the whole suite; the journeys run in order
 * (each builds on the tickets the ones before bought).
 */
describe("the player app in a browser", () => {
  let stack: WebStack;
  let context: BrowserContext;
  let page: Page;
  let wallet: InjectedWallet;
  let cspViolations: string[];

  beforeAll(async () => {
    stack = await startWebStack();
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    context = await stack.browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    cspViolations = watchCspViolations(page);
    // Starts on a chain the site does not serve, so connecting shows the switch offer.
    wallet = new InjectedWallet(stack.player, stack.node.provider, 1);
    await wallet.install(page);
  }, 180_000);

  afterAll(async () => {
    await context?.close();
    await stack?.close();
  });

  const raffleUrl = (name: keyof WebStack["raffles"]) => `${stack.web.url}/#/raffle/${stack.raffles[name].id}`;
  const button = (name: string) => page.getByRole("button", { name, exact: true });
  const alert = () => page.getByRole("alert");
  const myTickets = () => page.getByRole("region", { name: "My tickets" });

  async function buyAndExpect(text: RegExp | string) {
    await button("Buy").click();
    await page.getByText(text).waitFor(WAIT);
  }

  it("finds the wallet over EIP-6963, offers to switch from a wrong chain, and signs in (a declined signature is a sentence)", async () => {
    await page.goto(stack.web.url);
    await page.getByRole("heading", { name: "Local chain" }).waitFor(WAIT);
    await button("Connect wallet").click();
    await button("Test Wallet").click();
    await alert().filter({ hasText: "Your wallet is on a network this site does not serve." }).waitFor(WAIT);
    await button("Switch to Local chain").click();

    wallet.declineNext("personal_sign");
    await button("Sign in").click();
    await alert().filter({ hasText: "You declined the request in your wallet. Nothing was done." }).waitFor(WAIT);
    await button("Sign in").click();
    await page.getByText("Signed in", { exact: true }).waitFor(WAIT);
  });

  it("buys one ticket at a NATIVE price, by keyboard, and follows it until the API shows it", async () => {
    await page.goto(raffleUrl("native"));
    const quantity = page.getByLabel("Quantity");
    await quantity.waitFor(WAIT);
    expect(await quantity.inputValue()).toBe("1");
    await button("Buy").focus();
    await page.keyboard.press("Enter");
    await page
      .getByRole("status")
      .filter({ hasText: /Ticket bought! It is in My tickets\. Transaction 0x[0-9a-f]{64}/ })
      .waitFor(WAIT);
    await page.getByText("1 / 100 sold", { exact: true }).waitFor(WAIT);
  });

  it("refuses a quantity of 0, 101, 2.5, -1 or nothing inline with the reason, leaves it as typed and keeps Buy disabled", async () => {
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
      await page.goto(raffleUrl("native"));
      const quantity = page.getByLabel("Quantity");
      await page.getByText("1 / 100 sold", { exact: true }).waitFor(WAIT);
      const refusals: Record<string, string> = {
        "0": "Buy at least 1 ticket.",
        "101": "At most 99 tickets in one purchase here: only 99 tickets are left.",
        "2.5": "Tickets are bought whole: enter a whole number, such as 1 or 2.",
        "-1": "Tickets are bought whole: enter a whole number, such as 1 or 2.",
        "": "Enter how many tickets to buy.",
      };
      for (const [typed, reason] of Object.entries(refusals)) {
        await quantity.fill(typed);
        await alert().filter({ hasText: reason }).waitFor(WAIT);
        expect({ typed, value: await quantity.inputValue(), buy: await button("Buy").isDisabled() }).toEqual({ typed, value: typed, buy: true });
        expect(await quantity.getAttribute("aria-invalid")).toBe("true");
        if (typed === "101") await page.screenshot({ path: path.join(SCREENSHOTS, `raffle-quantity-${width}.png`), fullPage: true });
      }
      await quantity.fill("3");
      await page.getByText("Total: 0.03 ETH", { exact: true }).waitFor(WAIT);
      expect(await button("Buy").isEnabled()).toBe(true);
      expect(await alert().count()).toBe(0);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it("shows the balance before Buy, and tells a wallet short of GOLD or of ETH for the price or for gas before any signature or approval", async () => {
    // The same page (the test Chromium runs one process), on a phone, with an empty account of the same wallet.
    const poor = new Wallet(Wallet.createRandom().privateKey);
    const other = page;
    await other.setViewportSize({ width: 375, height: 812 });
    await button("Disconnect").click();
    wallet.useAccount(poor);
    const firstRequest = wallet.requests.length;
    const otherButton = (name: string) => other.getByRole("button", { name, exact: true });
    const shortfall = (text: string | RegExp) => other.getByRole("alert").filter({ hasText: text });
    const gold = TestToken__factory.connect(stack.raffles.erc20.deployed.price.token, stack.world.players[1]);
    try {
      // The raffle cards say what sets a raffle apart; an unknown raffle has a way back.
      await other.goto(stack.web.url);
      const bundles = other.getByRole("listitem").filter({ has: other.getByRole("link", { name: "Bundle Bonanza" }) });
      await bundles.getByRole("list", { name: "Features" }).waitFor(WAIT);
      expect(await bundles.getByRole("list", { name: "Features" }).getByRole("listitem").allTextContents()).toEqual(["3 winners", "Bundles"]);
      await other.goto(`${stack.web.url}/#/raffle/999999`);
      await other.getByRole("heading", { level: 1, name: "Raffle not found" }).waitFor(WAIT);
      await other.getByRole("link", { name: "See the raffles on sale" }).click();
      await other.getByRole("heading", { level: 1, name: "Raffles" }).waitFor(WAIT);

      // "Connect your wallet to buy" opens the wallet menu.
      await other.goto(raffleUrl("erc20"));
      await otherButton("Connect your wallet to buy").click();
      await otherButton("Test Wallet").click();
      await shortfall("Insufficient GOLD: this purchase costs 10 GOLD and your wallet holds 0 GOLD.").waitFor(WAIT);
      await other.getByText("Your wallet holds 0 GOLD and 0 ETH for network fees.").waitFor(WAIT);
      expect(await otherButton("Buy").isDisabled()).toBe(true);
      await other.screenshot({ path: path.join(SCREENSHOTS, "raffle-insufficient-375.png"), fullPage: true });

      await other.goto(raffleUrl("native"));
      await shortfall("Insufficient ETH: this purchase costs 0.01 ETH and your wallet holds 0 ETH.").waitFor(WAIT);
      expect(await otherButton("Buy").isDisabled()).toBe(true);

      // The price in GOLD but nothing for gas.
      await (await gold.transfer(poor.address, parseUnits("10", 18))).wait();
      await other.goto(raffleUrl("erc20"));
      await shortfall(/^Not enough ETH for gas: the network fee needs up to [\d.]+ ETH and your wallet has 0 ETH\.$/).waitFor(WAIT);
      expect(await otherButton("Buy").isDisabled()).toBe(true);

      // Exactly the ticket's price in ETH, nothing left for gas.
      await (await stack.world.players[1].sendTransaction({ to: poor.address, value: parseEther("0.01") })).wait();
      await other.goto(raffleUrl("native"));
      await shortfall(/^Not enough ETH for gas: .* your wallet has 0 ETH left after the ticket price\.$/).waitFor(WAIT);
      expect(await otherButton("Buy").isDisabled()).toBe(true);

      // Nothing was signed, approved or sent, and the chain agrees.
      expect(wallet.requests.slice(firstRequest).filter((method) => SIGNING.includes(method))).toEqual([]);
      expect(await gold.allowance(poor.address, stack.world.deployment.exchange)).toBe(0n);
      expect(await stack.node.provider.getTransactionCount(poor.address)).toBe(0);

      // A wallet without tickets is pointed to the raffles.
      await other.goto(`${stack.web.url}/#/tickets`);
      await otherButton("Sign in").first().click();
      await other.getByText("You have no tickets yet.").waitFor(WAIT);
      await other.getByRole("link", { name: "See the raffles on sale" }).waitFor(WAIT);
    } finally {
      // Back to the funded player, signed in, at 1280 px.
      await page.setViewportSize({ width: 1280, height: 900 });
      // Not waited for: a failure above keeps its own message.
      if (await button("Disconnect").isVisible()) await button("Disconnect").click();
      wallet.useAccount(stack.player);
      await button("Connect wallet").click();
      await button("Test Wallet").click();
      await button("Sign in").first().click();
      await page.getByText("Signed in", { exact: true }).waitFor(WAIT);
    }
  });

  it("buys at an ERC20 price after approving exactly the price, never an unlimited amount", async () => {
    await page.goto(raffleUrl("erc20"));
    await buyAndExpect(/Ticket bought!/);
    const { deployed } = stack.raffles.erc20;
    const token = TestToken__factory.connect(deployed.price.token, stack.node.provider);
    const approvals = await token.queryFilter(token.filters.Approval(stack.player.address, stack.world.deployment.exchange));
    expect(approvals.map((event) => event.args.value)).toEqual([deployed.price.amount]);
    expect(await token.allowance(stack.player.address, stack.world.deployment.exchange)).toBe(0n);
  });

  it("says so when the player declines the purchase in the wallet, and buys nothing", async () => {
    await page.goto(raffleUrl("native"));
    await page.getByText("1 / 100 sold", { exact: true }).waitFor(WAIT);
    wallet.declineNext("eth_sendTransaction");
    await buyAndExpect("You declined the request in your wallet. Nothing was done.");
    expect((await Raffle__factory.connect(stack.raffles.native.deployed.raffle, stack.node.provider).getCurrentRoundInfo()).roundId).toBe(1n);
    await page.reload();
    await page.getByText("1 / 100 sold", { exact: true }).waitFor(WAIT);
  });

  it("says a round is sold out when the API refuses it (roundFull)", async () => {
    await buyTicket(stack.world, stack.raffles.soldOut.deployed, stack.world.players[1]);
    await page.goto(raffleUrl("soldOut"));
    await page.getByText("1 / 1 sold", { exact: true }).waitFor(WAIT);
    await buyAndExpect("This round is sold out. Try the next round.");
  });

  it("lists the player's tickets in My tickets, grouped by raffle and round", async () => {
    await page.goto(`${stack.web.url}/#/tickets`);
    const groups = myTickets().getByRole("article");
    await groups.nth(1).waitFor(WAIT);
    expect(await groups.getByRole("heading", { level: 2 }).allTextContents()).toEqual(["Token Treasure · round 1", "Friday Night Jackpot · round 1"]);
    expect(await myTickets().getByText("Active: waiting for the draw").count()).toBe(2);
  });

  it("buys a bundle: the quantity selector shows the bundle prices and the total, and approves exactly that total", async () => {
    await page.goto(raffleUrl("bundles"));
    const quantity = page.getByLabel("Quantity");
    await quantity.waitFor(WAIT);
    await page.getByText("Bundles: 5 for 45 GOLD, 10 for 80 GOLD.").waitFor(WAIT);
    await page.getByText("3 winning tickets share the pot (50%, 30%, 20%)", { exact: false }).waitFor(WAIT);
    await page.getByText("Total: 10 GOLD", { exact: true }).waitFor(WAIT);
    await quantity.fill("7"); // 5 or more: the 5-ticket bundle's 9 GOLD a ticket
    await page.getByText("Total: 63 GOLD", { exact: true }).waitFor(WAIT);
    await quantity.fill("5");
    await page.getByText("Total: 45 GOLD", { exact: true }).waitFor(WAIT);
    await buyAndExpect(/5 tickets bought! They are in My tickets\./);
    await page.getByText("5 / 100 sold", { exact: true }).waitFor(WAIT);
    // Each prize of the pot so far (45 GOLD, 10% commission), labelled as My tickets and Round history label a won one;
    // the first prize takes what the split's rounding leaves, as the contract does.
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
      const prizes = page.getByRole("list", { name: "Prizes if the round ended now" }).getByRole("listitem");
      await prizes.nth(2).waitFor(WAIT);
      expect(await prizes.allTextContents()).toEqual([
        "1st prize: gross share 22.5 GOLD · commission rate 10% · net prize paid 20.25 GOLD",
        "2nd prize: gross share 13.5 GOLD · commission rate 10% · net prize paid 12.15 GOLD",
        "3rd prize: gross share 9 GOLD · commission rate 10% · net prize paid 8.1 GOLD",
      ]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await page.screenshot({ path: path.join(SCREENSHOTS, `raffle-prizes-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    const { deployed } = stack.raffles.bundles;
    const token = TestToken__factory.connect(deployed.price.token, stack.node.provider);
    const approvals = await token.queryFilter(token.filters.Approval(stack.player.address, stack.world.deployment.exchange));
    expect(approvals.at(-1)!.args.value).toBe(45n * 10n ** 18n);
    const ticket = RaffleTicket__factory.connect(deployed.ticket, stack.node.provider);
    expect(await ticket.balanceOf(stack.player.address)).toBe(5n);
  });

  it("claims the prizes of two rounds with one wallet prompt (Claim all), each prize labelled: gross share, commission rate, net prize", async () => {
    const { deployed } = stack.raffles.native;
    await endAndDraw(stack.world, deployed);
    await startNextRound(stack.world, deployed);
    await buyTicket(stack.world, deployed, stack.world.players[0]);
    await endAndDraw(stack.world, deployed);
    await page.goto(`${stack.web.url}/#/tickets`);
    const won = myTickets().getByText("Won · gross share 0.01 ETH · commission rate 10% · net prize paid 0.009 ETH", { exact: true });
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
      await won.nth(1).waitFor(WAIT);
      expect(await won.count()).toBe(2);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await page.screenshot({ path: path.join(SCREENSHOTS, `tickets-won-${width}.png`), fullPage: true });
    }
    await myTickets().getByText("2 prizes to claim, 0.018 ETH in all.").waitFor(WAIT);

    const sentBefore = wallet.requests.filter((method) => method === "eth_sendTransaction").length;
    await button("Claim all").click();
    await myTickets()
      .getByText(/^2 prizes claimed: 0\.018 ETH is in your wallet\. Transaction 0x[0-9a-f]{64}$/)
      .waitFor(WAIT);
    expect(wallet.requests.filter((method) => method === "eth_sendTransaction").length - sentBefore).toBe(1);
    const raffle = Raffle__factory.connect(deployed.raffle, stack.node.provider);
    const claims = await raffle.queryFilter(raffle.filters.PrizeClaimed());
    expect(new Set(claims.map((event) => event.transactionHash)).size).toBe(1);
    expect(claims.map((event) => event.args.prize)).toEqual([parseEther("0.009"), parseEther("0.009")]);
    await myTickets()
      .getByText("Prize claimed · gross share 0.01 ETH · commission rate 10% · net prize paid 0.009 ETH", { exact: true })
      .nth(1)
      .waitFor(WAIT);
  });

  it("pages My tickets at 20 rounds a page, and says a losing ticket did not win", async () => {
    const { deployed } = stack.raffles.native;
    // 19 more rounds of two tickets each, one of them the player's: 23 rounds in all with the other raffles'.
    for (let round = 0; round < 19; round++) {
      await startNextRound(stack.world, deployed);
      await buyTicket(stack.world, deployed, stack.world.players[0]);
      await buyTicket(stack.world, deployed, stack.world.players[1]);
      await endAndDraw(stack.world, deployed);
    }
    await page.goto(`${stack.web.url}/#/tickets`);
    await myTickets().getByText("Rounds 1–20 of 23").waitFor({ timeout: 60_000 });
    const groups = myTickets().getByRole("list", { name: "Your tickets by round" }).getByRole("article");
    expect(await groups.count()).toBe(20);
    expect(await myTickets().getByText("Did not win", { exact: true }).count()).toBeGreaterThan(0);
    expect(await myTickets().getByText("Not drawn").count()).toBe(0);
    await button("Older rounds").click();
    await myTickets().getByText("Rounds 21–23 of 23").waitFor(WAIT);
    expect(await groups.count()).toBe(3);
  });

  it("refunds a ticket of a round whose randomness timed out", async () => {
    const { deployed } = stack.raffles.erc20;
    await buyTicket(stack.world, deployed, stack.world.players[1]);
    const raffle = Raffle__factory.connect(deployed.raffle, stack.world.merchant);
    await (await raffle.endRound()).wait();
    const round = await raffle.getRound(1n);
    expect(round.vrfRequestId).not.toBe(0n);
    const block = await stack.node.provider.getBlock("latest");
    await stack.node.provider.send("evm_increaseTime", [Number(round.refundableAt) - block!.timestamp + 1]);
    await stack.node.provider.send("evm_mine", []);
    await (await raffle.enableRefunds(1n)).wait();

    // Afresh, on the first page (a goto to the URL the page is on does not reload it).
    await page.goto("about:blank");
    await page.goto(`${stack.web.url}/#/tickets`);
    await button("Refund all").waitFor(WAIT);
    await button("Refund all").click();
    await myTickets()
      .getByText(/^Ticket refunded: 10 GOLD is back in your wallet\./)
      .waitFor(WAIT);
    // The refunded ticket's round is among the oldest: on the second page.
    await button("Older rounds").click();
    await myTickets().getByText("Refunded", { exact: true }).waitFor(WAIT);
  });

  it("says a purchase offer expired when the chain's clock passed it", async () => {
    // The chain is now a day ahead of the API's clock (the refund above): every voucher is expired on arrival.
    await page.goto(raffleUrl("late"));
    await buyAndExpect("The purchase offer expired before your transaction was sent. Press Buy again for a fresh one.");
    await page.screenshot({ path: path.join(SCREENSHOTS, "raffle-refused-1280.png"), fullPage: true });
  });

  it("renders a description whose blocks have non-string text or unknown types, never [object Object]", async () => {
    const hostile = JSON.stringify({
      blocks: [
        { key: "a", text: { html: "<b>x</b>" }, type: "unstyled" },
        { key: "b", text: 42, type: "header-two" },
        { key: "c", text: "Shown although its type is unknown.", type: "blink" },
        null,
        "a bare string",
        { key: "d", text: ["a", "list"], type: "unordered-list-item" },
      ],
      entityMap: {},
    });
    const url = `${stack.apiUrl}/player/raffles/${stack.raffles.native.id}`;
    const restore = await alterApiAnswer<{ raffle: { description: string } }>(page, url, (body) => ({
      ...body,
      raffle: { ...body.raffle, description: hostile },
    }));
    try {
      await page.goto(raffleUrl("native"));
      await page.getByText("Shown although its type is unknown.").waitFor(WAIT);
      await page.getByRole("heading", { level: 3, name: "42" }).waitFor(WAIT);
      await button("Buy").waitFor(WAIT);
      expect(await page.locator("main").innerText()).not.toContain("[object Object]");
    } finally {
      await restore();
    }
  });

  it("shows a sentence and a way back, never a blank page, when a page fails to render", async () => {
    const url = `${stack.apiUrl}/player/raffles/${stack.raffles.native.id}`;
    const restore = await alterApiAnswer<object>(page, url, (body) => ({ ...body, raffle: null }));
    try {
      await page.goto(raffleUrl("native"));
      await alert().filter({ hasText: "Something went wrong while showing this page. Nothing was sent or signed." }).waitFor(WAIT);
      await page.screenshot({ path: path.join(SCREENSHOTS, "page-failed-1280.png"), fullPage: true });
      await page.getByRole("link", { name: "Back to the raffles" }).click();
      await page.getByRole("link", { name: "Friday Night Jackpot" }).waitFor(WAIT);
    } finally {
      await restore();
    }
  });

  it("shows merchant-written titles in <bdi>, so a right-to-left override cannot reorder the text around them", async () => {
    const spoof = "\u202eEvil Raffle";
    const restore = await alterApiAnswer<{ rows: Array<{ raffle: { id: number; title: string } }> }>(page, /\/player\/raffles(\?.*)?$/, (body) => ({
      rows: body.rows.map((row) => (row.raffle.id === stack.raffles.native.id ? { ...row, raffle: { ...row.raffle, title: spoof } } : row)),
    }));
    try {
      await page.goto(`${stack.web.url}/#/`);
      const link = page.locator(`a[href="#/raffle/${stack.raffles.native.id}"]`);
      await link.locator("bdi", { hasText: "Evil Raffle" }).waitFor(WAIT);
      expect(await link.locator("bdi").textContent()).toBe(spoof);
    } finally {
      await restore();
    }
    await page.goto(raffleUrl("native"));
    await page.getByRole("heading", { level: 1 }).locator("bdi").waitFor(WAIT);
    expect(await page.getByRole("heading", { level: 1 }).locator("bdi").textContent()).toBe("Friday Night Jackpot");
  });

  it("cannot be framed by another site: the browser refuses, the frame shows nothing of the app", async () => {
    const framed = await frameFromForeignSite(context, `${stack.web.url}/`);
    // Chromium puts its error page in place of a frame the page's frame-ancestors refuses.
    expect(framed).toEqual({ frameUrl: "chrome-error://chromewebdata/", appInFrame: false });
  });

  it("renders under an ordinary locale as well (the suite's browser runs under LANG=C.UTF-8)", async () => {
    // A page of its own with the locale set over CDP, as Playwright's context option does (a second context would cost
    // this single-process Chromium more than a page).
    const ordinary = await context.newPage();
    try {
      const cdp = await context.newCDPSession(ordinary);
      await cdp.send("Emulation.setLocaleOverride", { locale: "de-DE" });
      await cdp.send("Emulation.setUserAgentOverride", { userAgent: await ordinary.evaluate(() => navigator.userAgent), acceptLanguage: "de-DE" });
      await ordinary.goto(`${stack.web.url}/#/raffle/${stack.raffles.native.id}/rounds`);
      await ordinary.getByRole("heading", { level: 1, name: /Round history/ }).waitFor(WAIT);
      expect(await ordinary.evaluate(() => [navigator.language, new Intl.NumberFormat(navigator.language).format(1234.5)])).toEqual([
        "de-DE",
        "1.234,5",
      ]);
    } finally {
      await ordinary.close();
    }
  });

  it("passes axe-core on every page, at 1280 and 375 px, and captures each", async () => {
    const pages = { raffles: `${stack.web.url}/#/`, raffle: raffleUrl("late"), tickets: `${stack.web.url}/#/tickets` };
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
      for (const [name, url] of Object.entries(pages)) {
        await page.goto(url);
        await page.getByRole("heading", { level: 1 }).first().waitFor(WAIT);
        // The raffles' cards, not "Loading…", in the capture.
        if (name === "raffles") await page.getByRole("link", { name: "Bundle Bonanza" }).waitFor(WAIT);
        await page.waitForLoadState("networkidle");
        await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${width}.png`), fullPage: true });
        // Nothing wider than the screen: a phone scrolls the page down, never sideways (wide tables scroll in their box).
        const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth);
        expect({ page: name, width, fits: pageWidth <= width }).toEqual({ page: name, width, fits: true });
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

  it("ran every journey under the pages' Content-Security-Policy without a violation", () => {
    expect(cspViolations).toEqual([]);
  });
});
