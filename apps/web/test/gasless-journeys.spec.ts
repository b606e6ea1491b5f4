import * as fs from "node:fs";
import * as path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { Contract, parseEther, parseUnits } from "ethers";
import type { BrowserContext, Page } from "playwright-core";
import { Exchange__factory, RaffleTicket__factory, Raffle__factory, TestToken__factory } from "@raffle/chain";
import { buyTicket, endAndDraw } from "@raffle/chain/testing";
import { eventually } from "@raffle/testing";

import { gaslessPlayer } from "../../../tools/stack/gasless-demo";
import { formatAmount, formatAmountRounded } from "../src/lib/format";
import { InjectedWallet } from "./support/injected-wallet";
import { PERMIT_ONLY_TOKEN_ABI } from "./support/permit-only-token";
import { startWebStack, type WebStack } from "./support/web-stack";

const SCREENSHOTS = path.resolve(__dirname, "../../../reports/web/screenshots");
const WAIT = { timeout: 30_000 };
/** A chain the site does not serve: the wallet stays there, as buying without gas needs no network switch. */
const OTHER_CHAIN = 1;

/**
 * Buying and claiming without gas (issue #52) in a real Chromium: a wallet that holds the raffle's token and 0 ETH, on
 * another network, signs once per purchase; the merchant worker's relayer sends it and pays; then, after the draw, the
 * prize is claimed the same way. The API, the worker, the chain and PostgreSQL are all real.
 */
describe("buying and claiming without gas in a browser", () => {
  let stack: WebStack;
  let context: BrowserContext;
  let page: Page;
  let wallet: InjectedWallet;
  const player = gaslessPlayer();

  beforeAll(async () => {
    stack = await startWebStack({ raffles: ["erc20", "bundles", "permitOnly", "native", "minimum"], gasless: true });
    const token = TestToken__factory.connect(stack.world.token, stack.world.admin);
    await (await token.mint(player.address, parseUnits("1000", 18))).wait();
    await (await pearls().connect(stack.world.admin).getFunction("mint")(player.address, parseUnits("1000", 18))).wait();
    await stack.node.provider.send("hardhat_setBalance", [player.address, "0x0"]);
    // The raffle offers it once the relayer has asked for work.
    await eventually(async () => {
      const raffle = (await (await fetch(`${stack.apiUrl}/player/raffles/${stack.raffles.erc20.id}`)).json()) as { gasless?: { available: boolean } };
      if (!raffle.gasless?.available) throw new Error("gasless not offered yet");
    }, 30_000);
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    context = await stack.browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    wallet = new InjectedWallet(player, stack.node.provider, OTHER_CHAIN);
    await wallet.install(page);
  }, 240_000);

  afterAll(async () => {
    await context?.close();
    await stack?.close();
  });

  const button = (name: string) => page.getByRole("button", { name, exact: true });
  const raffleUrl = () => `${stack.web.url}/#/raffle/${stack.raffles.erc20.id}`;
  const ethBalance = () => stack.node.provider.getBalance(player.address);
  const tokenBalance = () => TestToken__factory.connect(stack.world.token, stack.node.provider).balanceOf(player.address);
  const asked = (method: string, since: number) => wallet.requests.slice(since).filter((each) => each === method).length;
  /** The permit-only raffle's price token (EIP-2612, no ERC-3009). */
  const pearls = () => new Contract(stack.raffles.permitOnly.deployed.price.token as string, PERMIT_ONLY_TOKEN_ABI, stack.node.provider);
  const pearlBalance = (): Promise<bigint> => pearls().balanceOf(player.address);
  /** The header's warning about the wallet's network, and its calm note where the page acts without a switch. */
  const networkAlarm = () => page.getByRole("alert").filter({ hasText: "Your wallet is on a network this site does not serve." });
  const calmNote = () => page.getByText("Your wallet is on another network. Actions without gas on this page need no switch.", { exact: true });
  /** The page as it stands, on a desktop and on a phone. */
  async function shoot(name: string) {
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
      await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  it("buys five tickets with one signature prompt and no transaction prompt, from a wallet with 0 ETH on another network", async () => {
    await page.goto(raffleUrl());
    await button("Connect wallet").click();
    await button("Test Wallet").click();
    await button("Buy without gas").waitFor(WAIT);
    // The plain Buy needs the raffle's network; buying without gas does not, and signs in for the raffle's chain itself.
    await page.getByText("To buy and pay the network fee yourself instead, switch your wallet to Local chain.").waitFor(WAIT);
    // Nothing alarming in the header: this page's purchase needs no switch.
    await calmNote().waitFor(WAIT);
    expect(await networkAlarm().count()).toBe(0);

    const before = wallet.requests.length;
    const paidBefore = await tokenBalance();
    await page.getByLabel("Quantity").fill("5");
    await page.getByText("Total: 50 GOLD", { exact: false }).waitFor(WAIT);
    await button("Buy without gas").focus();
    await page.keyboard.press("Enter");
    await page
      .getByRole("status")
      .filter({ hasText: /^5 tickets bought without gas! Ticket #\d+, #\d+, #\d+, #\d+, #\d+\. They are in My tickets\./ })
      .waitFor({ timeout: 60_000 });
    await page.screenshot({ path: path.join(SCREENSHOTS, "gasless-bought-1280.png"), fullPage: true });

    expect({
      signIn: asked("personal_sign", before),
      typedData: asked("eth_signTypedData_v4", before),
      transactions: asked("eth_sendTransaction", before),
      switches: asked("wallet_switchEthereumChain", before),
    }).toEqual({ signIn: 1, typedData: 1, transactions: 0, switches: 0 });
    expect(await ethBalance()).toBe(0n);
    expect(paidBefore - (await tokenBalance())).toBe(parseUnits("50", 18));
    const ticket = RaffleTicket__factory.connect(stack.raffles.erc20.deployed.ticket, stack.node.provider);
    expect(await ticket.balanceOf(player.address)).toBe(5n);
  });

  it("says a refused signature as a sentence, and nothing is queued or paid", async () => {
    const before = wallet.requests.length;
    const paidBefore = await tokenBalance();
    wallet.declineNext("eth_signTypedData_v4");
    await page.getByLabel("Quantity").fill("1");
    await button("Buy without gas").click();
    await page.getByRole("alert").filter({ hasText: "You declined the request in your wallet. Nothing was done." }).waitFor(WAIT);
    expect(asked("eth_sendTransaction", before)).toBe(0);
    expect(await tokenBalance()).toBe(paidBefore);
  });

  it("lays the gasless purchase out on a phone, reachable by keyboard, with no axe violation", async () => {
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
      await page.goto(raffleUrl());
      await button("Buy without gas").waitFor(WAIT);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect({ width, overflow }).toEqual({ width, overflow: 0 });
      const { violations } = await new AxeBuilder({ page }).analyze();
      expect(violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`)).toEqual([]);
      await page.screenshot({ path: path.join(SCREENSHOTS, `gasless-raffle-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it("keeps the header's network warning where buying needs a transaction, and no alarm where it needs none", async () => {
    // An ETH-priced raffle: buying is a transaction on its network, so the wallet's network is a fault.
    await page.goto(`${stack.web.url}/#/raffle/${stack.raffles.native.id}`);
    await page.getByText("This raffle is on Local chain; your wallet is on another network.").waitFor(WAIT);
    await networkAlarm().waitFor(WAIT);
    expect(await calmNote().count()).toBe(0);
    await shoot("gasless-header-warning");
    // Back to a raffle that offers Buy without gas: the warning gives way to the calm note.
    await page.goto(raffleUrl());
    await button("Buy without gas").waitFor(WAIT);
    await calmNote().waitFor(WAIT);
    expect(await networkAlarm().count()).toBe(0);
    await shoot("gasless-header-calm");
  });

  it("buys with a permit-only token: two signature prompts (permit, then purchase), no transaction, no network switch", async () => {
    await page.goto(`${stack.web.url}/#/raffle/${stack.raffles.permitOnly.id}`);
    await button("Buy without gas").waitFor(WAIT);
    await page.getByText("Your wallet asks for two signatures: a permit for the token, then the purchase.", { exact: false }).waitFor(WAIT);
    expect(await networkAlarm().count()).toBe(0);
    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(violations.map((violation) => violation.id)).toEqual([]);
    await shoot("gasless-permit-raffle");

    const before = wallet.requests.length;
    const typesBefore = wallet.signedTypes.length;
    const paidBefore = await pearlBalance();
    await page.getByLabel("Quantity").fill("2");
    await button("Buy without gas").click();
    await page
      .getByRole("status")
      .filter({ hasText: /^2 tickets bought without gas!/ })
      .waitFor({ timeout: 60_000 });
    // The balance shown is read again once the purchase is mined.
    await page.getByText("Your wallet holds 980 PEARL and 0 ETH for network fees.").waitFor(WAIT);
    await shoot("gasless-permit-bought");
    expect({
      signed: wallet.signedTypes.slice(typesBefore),
      transactions: asked("eth_sendTransaction", before),
      switches: asked("wallet_switchEthereumChain", before),
    }).toEqual({ signed: ["Permit", "PurchaseIntent"], transactions: 0, switches: 0 });
    expect(paidBefore - (await pearlBalance())).toBe(parseUnits("20", 18));
    expect(await ethBalance()).toBe(0n);
    const ticket = RaffleTicket__factory.connect(stack.raffles.permitOnly.deployed.ticket, stack.node.provider);
    expect(await ticket.balanceOf(player.address)).toBe(2n);
  });

  it("still buys when someone front-runs the permit it reads from the relayer's pending transaction", async () => {
    const provider = stack.node.provider;
    const exchange = Exchange__factory.createInterface();
    const frontRunner = stack.world.players[1];
    const ticket = RaffleTicket__factory.connect(stack.raffles.permitOnly.deployed.ticket, provider);
    const ticketsBefore = await ticket.balanceOf(player.address);
    const paidBefore = await pearlBalance();
    await page.goto(`${stack.web.url}/#/raffle/${stack.raffles.permitOnly.id}`);
    await page.getByLabel("Quantity").fill("1");
    // Blocks wait for the test: the relayer's transaction sits in the pool, where anyone can read its permit.
    await provider.send("evm_setAutomine", [false]);
    try {
      await button("Buy without gas").click();
      const pending = await eventually(async () => {
        const block = (await provider.send("eth_getBlockByNumber", ["pending", true])) as {
          transactions: Array<{ hash: string; to: string; input: string }>;
        };
        const found = block.transactions.find((tx) => tx.to?.toLowerCase() === stack.world.deployment.exchange.toLowerCase());
        if (!found) throw new Error("the relayer has sent nothing yet");
        return found;
      }, 60_000);
      const [, , , , intent, permit] = exchange.decodeFunctionData("purchaseRaffleWithPermit", pending.input);
      expect(intent.buyer).toBe(player.address);
      // The front-runner submits the buyer's permit itself, paying more to be mined first.
      const fee = await provider.getFeeData();
      const frontRun = await pearls()
        .connect(frontRunner)
        .getFunction("permit")
        .send(intent.buyer, stack.world.deployment.exchange, permit.value, permit.deadline, permit.v, permit.r, permit.s, {
          // No estimate: it would run on the pending block, where the relayer's purchase has already used the permit.
          gasLimit: 200_000n,
          maxPriorityFeePerGas: parseUnits("50", "gwei"),
          maxFeePerGas: (fee.maxFeePerGas ?? parseUnits("10", "gwei")) + parseUnits("100", "gwei"),
        });
      await provider.send("evm_mine", []);
      const [permitReceipt, purchaseReceipt] = await Promise.all([
        provider.getTransactionReceipt(frontRun.hash),
        provider.getTransactionReceipt(pending.hash),
      ]);
      // Both in one block, the permit first: the relayer's purchase found its permit used, and bought anyway.
      expect({
        permit: permitReceipt?.status,
        purchase: purchaseReceipt?.status,
        sameBlock: permitReceipt?.blockNumber === purchaseReceipt?.blockNumber,
      }).toEqual({
        permit: 1,
        purchase: 1,
        sameBlock: true,
      });
      expect(permitReceipt!.index).toBeLessThan(purchaseReceipt!.index);
    } finally {
      await provider.send("evm_setAutomine", [true]);
    }
    await page
      .getByRole("status")
      .filter({ hasText: /^Ticket bought without gas!/ })
      .waitFor({ timeout: 60_000 });
    expect(await ticket.balanceOf(player.address)).toBe(ticketsBefore + 1n);
    expect(paidBefore - (await pearlBalance())).toBe(parseUnits("10", 18));
    expect(await ethBalance()).toBe(0n);
  });

  it("claims the prize without gas after the draw: one signature, the prize paid to the holder, still 0 ETH", async () => {
    await endAndDraw(stack.world, stack.raffles.erc20.deployed);
    await page.goto(`${stack.web.url}/#/tickets`);
    await button("Claim without gas").waitFor({ timeout: 60_000 });
    await page.screenshot({ path: path.join(SCREENSHOTS, "gasless-claim-1280.png"), fullPage: true });
    const before = wallet.requests.length;
    const balanceBefore = await tokenBalance();
    await button("Claim without gas").click();
    await page.getByRole("status").filter({ hasText: "Prize claimed without gas: it is in your wallet." }).waitFor({ timeout: 60_000 });
    expect({ typedData: asked("eth_signTypedData_v4", before), transactions: asked("eth_sendTransaction", before) }).toEqual({
      typedData: 1,
      transactions: 0,
    });
    expect(await tokenBalance()).toBeGreaterThan(balanceBefore);
    expect(await ethBalance()).toBe(0n);
    await page.screenshot({ path: path.join(SCREENSHOTS, "gasless-claimed-1280.png"), fullPage: true });
  });

  it("refunds a ticket of a round that missed its minimum without gas: the price back to the holder, still 0 ETH", async () => {
    await page.goto(`${stack.web.url}/#/raffle/${stack.raffles.bundles.id}`);
    await page.getByLabel("Quantity").fill("1");
    await button("Buy without gas").click();
    await page
      .getByRole("status")
      .filter({ hasText: /^Ticket bought without gas!/ })
      .waitFor({ timeout: 60_000 });
    // The round needs 3 tickets: ended with 1, it is refundable.
    await (await Raffle__factory.connect(stack.raffles.bundles.deployed.raffle, stack.world.merchant).endRound()).wait();

    await page.goto(`${stack.web.url}/#/tickets`);
    await button("Refund without gas").waitFor({ timeout: 60_000 });
    const before = wallet.requests.length;
    const balanceBefore = await tokenBalance();
    await button("Refund without gas").click();
    await page.getByRole("status").filter({ hasText: "Refunded without gas: the ticket price is back in your wallet." }).waitFor({ timeout: 60_000 });
    expect({ typedData: asked("eth_signTypedData_v4", before), transactions: asked("eth_sendTransaction", before) }).toEqual({
      typedData: 1,
      transactions: 0,
    });
    expect((await tokenBalance()) - balanceBefore).toBe(parseUnits("10", 18));
    expect(await ethBalance()).toBe(0n);
    await page.screenshot({ path: path.join(SCREENSHOTS, "gasless-refunded-1280.png"), fullPage: true });
  });

  it("claims a prize in ETH and refunds an ETH ticket without gas: the holder's wallet gains exactly that, and pays no gas", async () => {
    // The player bought these two ETH tickets itself earlier, when it held ETH; it holds none now.
    const holder = player.connect(stack.node.provider);
    await stack.node.provider.send("hardhat_setBalance", [player.address, `0x${parseEther("1").toString(16)}`]);
    await buyTicket(stack.world, stack.raffles.native.deployed, holder);
    await buyTicket(stack.world, stack.raffles.minimum.deployed, holder);
    await stack.node.provider.send("hardhat_setBalance", [player.address, "0x0"]);
    await endAndDraw(stack.world, stack.raffles.native.deployed);
    // The round needs 3 tickets: ended with 1, it is refundable.
    await (await Raffle__factory.connect(stack.raffles.minimum.deployed.raffle, stack.world.merchant).endRound()).wait();

    // A fresh load: the statuses of the requests relayed before are not this test's.
    await page.goto(`${stack.web.url}/#/tickets`);
    await page.reload();
    const row = (title: string) => page.getByRole("listitem").filter({ has: page.locator("strong", { hasText: title }) });
    const claim = row("Friday Night Jackpot").getByRole("button", { name: "Claim without gas", exact: true });
    const refund = row("Full House or Refund").getByRole("button", { name: "Refund without gas", exact: true });
    await claim.waitFor({ timeout: 60_000 });
    await refund.waitFor(WAIT);
    // Claim all and Refund all still need a transaction on Local chain; the gasless ones need none, so no alarm.
    await calmNote().waitFor(WAIT);
    expect(await networkAlarm().count()).toBe(0);
    await shoot("gasless-native-open");

    const before = wallet.requests.length;
    await claim.click();
    await page.getByRole("status").filter({ hasText: "Prize claimed without gas: it is in your wallet." }).waitFor({ timeout: 60_000 });
    // One winner takes the pot of one 0.01 ETH ticket, less the 10% commission.
    expect(await ethBalance()).toBe(parseEther("0.009"));
    await refund.click();
    await page.getByRole("status").filter({ hasText: "Refunded without gas: the ticket price is back in your wallet." }).waitFor({ timeout: 60_000 });
    expect(await ethBalance()).toBe(parseEther("0.009") + parseEther("0.01"));
    expect({ typedData: asked("eth_signTypedData_v4", before), transactions: asked("eth_sendTransaction", before) }).toEqual({
      typedData: 2,
      transactions: 0,
    });
    // Nothing is left to do, and what was done needed no switch: still no alarm about the network.
    await calmNote().waitFor(WAIT);
    expect(await networkAlarm().count()).toBe(0);
    await shoot("gasless-native-done");
  });

  it("lets the merchant set its gasless budget in the console: ETH typed, wei sent, a bad amount refused beside the box", async () => {
    const consolePage = await context.newPage();
    try {
      await new InjectedWallet(stack.merchant, stack.node.provider, stack.world.deployment.chainId).install(consolePage);
      await consolePage.goto(`${stack.web.url}/console`);
      await consolePage.getByRole("button", { name: "Connect wallet", exact: true }).click();
      await consolePage.getByRole("button", { name: "Test Wallet", exact: true }).click();
      await consolePage.getByRole("button", { name: "Sign in with Ethereum", exact: true }).click();
      const section = consolePage.getByRole("region", { name: "Gasless purchases" });
      await section.waitFor(WAIT);
      // The purchase and the claim above were paid by the relayer: today's spending shows it, against the 1 ETH budget.
      // Rounded for reading, the exact wei in its title and for screen readers; the exact integer stays the data.
      const spent = section.locator("dd data");
      await spent.waitFor(WAIT);
      const wei = (await spent.getAttribute("value"))!;
      expect(wei).toMatch(/^[1-9]\d{12,}$/);
      expect(await spent.textContent()).toBe(formatAmountRounded(wei, 18, "ETH"));
      expect((await spent.textContent())!.length).toBeLessThan(formatAmount(wei, 18, "ETH").length);
      expect(await spent.getAttribute("title")).toBe(`${wei} wei`);
      await section.getByText(`(exactly ${wei} wei)`, { exact: false }).waitFor({ state: "attached" });
      await section.getByText(/ wei\) of 1 ETH$/).waitFor(WAIT);
      await section.getByText(/^Your relayer last asked for work less than a minute ago\.$/).waitFor(WAIT);
      expect(await section.getByLabel("Offer Buy without gas to players").isChecked()).toBe(true);

      const budget = section.getByLabel("Daily gas budget (ETH)");
      await budget.fill("1e18");
      await section.getByRole("button", { name: "Save gasless settings" }).click();
      await section.getByText("Enter the budget as a number of ETH, such as 0.5 (digits and one point only).").waitFor(WAIT);
      expect(await budget.getAttribute("aria-invalid")).toBe("true");

      await budget.fill("0.25");
      await section.getByLabel("Gas-free requests per player per day").fill("7");
      await section.getByRole("button", { name: "Save gasless settings" }).click();
      await section.getByRole("status").filter({ hasText: "Saved." }).waitFor(WAIT);
      await section.getByText(/ wei\) of 0\.25 ETH$/).waitFor(WAIT);
      await consolePage.screenshot({ path: path.join(SCREENSHOTS, "console-gasless-1280.png"), fullPage: true });
      await consolePage.setViewportSize({ width: 375, height: 812 });
      await section.screenshot({ path: path.join(SCREENSHOTS, "console-gasless-375.png") });
      expect(await consolePage.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
      await consolePage.setViewportSize({ width: 1280, height: 900 });

      // Read back from the API as a fresh page load would: exact wei, the limit as typed.
      await consolePage.reload();
      await section.getByLabel("Daily gas budget (ETH)").waitFor(WAIT);
      expect(await section.getByLabel("Daily gas budget (ETH)").inputValue()).toBe("0.25");
      expect(await section.getByLabel("Gas-free requests per player per day").inputValue()).toBe("7");
      const { violations } = await new AxeBuilder({ page: consolePage }).include("section[aria-labelledby='gasless-title']").analyze();
      expect(violations.map((violation) => violation.id)).toEqual([]);
    } finally {
      await consolePage.close();
    }
  });
});
