import * as fs from "node:fs";
import * as path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { parseUnits, type Signer } from "ethers";
import type { BrowserContext, Page, Route } from "playwright-core";
import { PausableItem721__factory, Raffle__factory, TestCollectible__factory, TestItems1155__factory, TestToken__factory } from "@raffle/chain";
import { buyTickets, endAndDraw, startNextRound } from "@raffle/chain/testing";
import { eventually } from "@raffle/testing";

import { InjectedWallet } from "./support/injected-wallet";
import { watchCspViolations } from "./support/page-security";
import { startWebStack, type WebStack } from "./support/web-stack";

/** How the pages shorten an address in an item's fallback name: its first 6 and last 4 characters. */
const short = (address: string) => `${address.slice(0, 6)}…${address.slice(-4)}`;

const SCREENSHOTS = path.resolve(__dirname, "../../../reports/web/screenshots");
const WAIT = { timeout: 20_000 };
/** libs/chain's TokenType numbers. */
const ERC20 = 1;
const ERC721 = 2;
const ERC1155 = 4;

const SWORD_SVG =
  "data:image/svg+xml;base64," +
  Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="48" height="48" viewBox="0 0 48 48"><rect width="48" height="48" fill="#1b1f24"/>` +
      `<path d="M34 6l8 0 0 8-18 18-4-4z" fill="#c0c7d0"/><path d="M12 30l6 6-4 4-2-2-4 4-2-2 4-4-2-2z" fill="#b8860b"/></svg>`,
  ).toString("base64");
const POTION_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="48" height="48" viewBox="0 0 48 48"><circle cx="24" cy="30" r="14" fill="#c62828"/><rect x="20" y="6" width="8" height="12" fill="#6d4c41"/></svg>`;
const HUGE_NAME = "Z".repeat(200_000);

/**
 * The metadata host of the test ERC1155 (`https://items.test/{id}.json`, TestItems1155's URI), answered by the
 * browser itself: a sword and potions described well, and three ids described by a hostile studio (markup and a
 * `javascript:` picture, a body that is not JSON, a name of 200,000 characters with a plain-http picture).
 */
const METADATA: Record<number, { body: string; type: string }> = {
  1: { body: JSON.stringify({ name: "Legendary Sword", image: SWORD_SVG }), type: "application/json" },
  2: { body: JSON.stringify({ name: "Potion of Healing", image: "https://items.test/potion.svg" }), type: "application/json" },
  0x66: {
    body: JSON.stringify({ name: "<script>window.__pwned = 1</script>Cursed Blade", image: "javascript:window.__pwned=1" }),
    type: "application/json",
  },
  0x67: { body: "<html><img src=x onerror='window.__pwned=1'>not metadata</html>", type: "text/html" },
  0x68: { body: JSON.stringify({ name: HUGE_NAME, image: "http://items.test/insecure.png" }), type: "application/json" },
};

async function answerMetadata(route: Route): Promise<void> {
  const headers = { "Access-Control-Allow-Origin": "*" };
  const url = new URL(route.request().url());
  if (url.pathname === "/potion.svg") return route.fulfill({ status: 200, headers, contentType: "image/svg+xml", body: POTION_SVG });
  const id = /^\/([0-9a-f]{64})\.json$/.exec(url.pathname)?.[1];
  const answer = id === undefined ? undefined : METADATA[Number(BigInt(`0x${id}`))];
  if (!answer) return route.fulfill({ status: 404, headers, body: "not found" });
  return route.fulfill({ status: 200, headers, contentType: answer.type, body: answer.body });
}

interface ItemTokens {
  items1155: string;
  shield: string;
  pausable: string;
  gems: string;
  dragon: string;
}

/** The merchant's game items (its wallet holds them all) and the raffles' item prizes, escrowed by their second round. */
async function setUpItems(stack: WebStack): Promise<ItemTokens> {
  const merchant: Signer = stack.world.merchant;
  const owner = await merchant.getAddress();
  const send = async (tx: Promise<{ wait(): Promise<unknown> }>) => (await tx).wait();
  const deployed = async <T extends { waitForDeployment(): Promise<unknown>; getAddress(): Promise<string> }>(contract: Promise<T>) => {
    const done = await contract;
    await done.waitForDeployment();
    return done;
  };
  const items1155 = await deployed(new TestItems1155__factory(merchant).deploy());
  for (const [id, amount] of [
    [1n, 5n],
    [2n, 500n],
    [0x66n, 1n],
    [0x67n, 1n],
    [0x68n, 1n],
  ] as const)
    await send(items1155.mint(owner, id, amount));
  const shield = await deployed(new TestCollectible__factory(merchant).deploy("Old Shield", "SHLD", owner));
  await send(shield.mint(owner));
  const dragon = await deployed(new TestCollectible__factory(merchant).deploy("Dragon Shield", "DRGN", owner));
  await send(dragon.mint(owner));
  const pausable = await deployed(new PausableItem721__factory(merchant).deploy());
  await send(pausable.mint(owner));
  const gems = await deployed(new TestToken__factory(merchant).deploy("Gems", "GEM", owner));
  await send(gems.mint(owner, parseUnits("1000", 18)));

  const items = stack.raffles.items.deployed.raffle;
  const hostile = stack.raffles.hostileItems.deployed.raffle;
  await send(items1155.setApprovalForAll(items, true));
  await send(items1155.setApprovalForAll(hostile, true));
  await send(shield.setApprovalForAll(items, true));
  await send(pausable.setApprovalForAll(hostile, true));
  await send(gems.approve(hostile, parseUnits("1000", 18)));
  const asset = async (tokenType: number, token: { getAddress(): Promise<string> }, tokenId: bigint, amount: bigint) => ({
    tokenType,
    token: await token.getAddress(),
    tokenId,
    amount,
  });
  await send(
    Raffle__factory.connect(items, merchant).setItemPrizes([
      { position: 1n, asset: await asset(ERC1155, items1155, 1n, 1n) },
      { position: 2n, asset: await asset(ERC721, shield, 1n, 1n) },
      { position: 3n, asset: await asset(ERC1155, items1155, 2n, 50n) },
    ]),
  );
  await send(
    Raffle__factory.connect(hostile, merchant).setItemPrizes([
      { position: 1n, asset: await asset(ERC1155, items1155, 0x66n, 1n) },
      { position: 2n, asset: await asset(ERC1155, items1155, 0x67n, 1n) },
      { position: 3n, asset: await asset(ERC1155, items1155, 0x68n, 1n) },
      { position: 4n, asset: await asset(ERC721, pausable, 1n, 1n) },
      { position: 5n, asset: await asset(ERC20, gems, 0n, parseUnits("1000", 18)) },
    ]),
  );
  // The first rounds sold nothing: they close, and the second rounds escrow the items as the automation flow would.
  for (const name of ["items", "hostileItems"] as const) {
    await send(Raffle__factory.connect(stack.raffles[name].deployed.raffle, merchant).endRound());
    await startNextRound(stack.world, stack.raffles[name].deployed);
  }
  // Once escrowed, the sword's issuer breaks its contract: every call to it (tokenURI included) reverts.
  await stack.node.provider.send("hardhat_setCode", [await pausable.getAddress(), "0x60006000fd"]);
  return {
    items1155: await items1155.getAddress(),
    shield: await shield.getAddress(),
    pausable: await pausable.getAddress(),
    gems: await gems.getAddress(),
    dragon: await dragon.getAddress(),
  };
}

/** Waits until what `read` gives meets `expected` (the pages read the chain and the API every few seconds). */
async function settles<T>(read: () => Promise<T>, matcher: "toEqual" | "toBe" | "toBeGreaterThan", expected: unknown): Promise<void> {
  await eventually(async () => {
    const value = await read();
    if (matcher === "toBeGreaterThan") expect(value).toBeGreaterThan(expected as number);
    else expect(value)[matcher](expected);
  }, WAIT.timeout);
}

async function expectAxeClean(page: Page, width: number): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
  expect({ width, violations: serious.map((violation) => `${violation.id}: ${violation.help}`) }).toEqual({ width, violations: [] });
  // Nothing wider than the screen; if something is, the failure names it (a box or its overflowing text; what scrolls
  // inside a .scroll box, a visually hidden label and a form control may be wider).
  const overflow = await page.evaluate((limit) => {
    const wide = Array.from(document.querySelectorAll("body *")).filter(
      (element) =>
        !element.closest(".scroll, .visually-hidden, select, input, textarea") &&
        (element.getBoundingClientRect().right > limit + 1 || element.scrollWidth > element.clientWidth + 1),
    );
    return {
      scrollWidth: document.documentElement.scrollWidth,
      wide: wide.slice(0, 5).map((element) => `${element.tagName} ${(element.textContent ?? "").slice(0, 60)}`),
    };
  }, width);
  expect({ width, overflow }).toEqual({ width, overflow: { scrollWidth: expect.any(Number), wide: [] } });
  expect(overflow.scrollWidth).toBeLessThanOrEqual(width);
}

/** Waits until each named picture has loaded (under the page's own Content-Security-Policy). */
async function picturesLoaded(page: Page, names: string[]): Promise<void> {
  for (const name of names) {
    const image = page.getByRole("img", { name, exact: true }).first();
    await image.waitFor(WAIT);
    await settles(() => image.evaluate((element) => (element as HTMLImageElement).naturalWidth), "toBeGreaterThan", 0);
  }
}

/**
 * Issue #53's pages: item prizes on the raffle page before buying and in round history, the winner's claim of the items
 * on My tickets, a hostile metadata token, and the merchant's console (choose items from the wallet, approve, save,
 * start a round that escrows them, return a refundable round's items), in a real Chromium against a real chain.
 */
describe("item prizes in a browser", () => {
  let stack: WebStack;
  let tokens: ItemTokens;
  let context: BrowserContext;
  let page: Page;
  let cspViolations: string[];

  beforeAll(async () => {
    stack = await startWebStack({ raffles: ["items", "hostileItems"] });
    tokens = await setUpItems(stack);
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    context = await stack.browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.route("https://items.test/**", answerMetadata);
    page = await context.newPage();
    cspViolations = watchCspViolations(page);
    await new InjectedWallet(stack.player, stack.node.provider, stack.world.deployment.chainId).install(page);
  }, 240_000);

  afterAll(async () => {
    await context?.close();
    await stack?.close();
  });

  const raffleUrl = (name: keyof WebStack["raffles"]) => `${stack.web.url}/#/raffle/${stack.raffles[name].id}`;
  const button = (name: string) => page.getByRole("button", { name, exact: true });
  const prizes = () => page.getByRole("list", { name: "Prizes if the round ended now" }).getByRole("listitem");
  const itemsRaffle = () => Raffle__factory.connect(stack.raffles.items.deployed.raffle, stack.node.provider);

  it("shows each prize's item with its name and picture from the token's metadata before buying", async () => {
    await page.goto(raffleUrl("items"));
    await page.getByRole("heading", { level: 2, name: "Round 2" }).waitFor(WAIT);
    await settles(() => prizes().allTextContents(), "toEqual", [
      "1st prize: Legendary Sword · plus 60% of the pot",
      `2nd prize: Item #1 of ${short(tokens.shield)} · plus 30% of the pot`,
      "3rd prize: 50 × Potion of Healing · plus 10% of the pot",
    ]);
    await page.getByText("3 prizes are items, held in escrow by the raffle until their winners claim them.", { exact: false }).waitFor(WAIT);
    // A data:image/ picture and an https one, both shown under the page's policy; alt text is the item's name.
    await picturesLoaded(page, ["Legendary Sword", "Potion of Healing"]);
    expect(await prizes().nth(1).getByRole("img").count()).toBe(0);
    expect(cspViolations).toEqual([]);
  });

  it("shows a hostile token's items as plain text or the plain fallback, never a script, a javascript: or http: picture", async () => {
    await page.goto(raffleUrl("hostileItems"));
    await page.getByRole("heading", { level: 2, name: "Round 2" }).waitFor(WAIT);
    await settles(() => prizes().allTextContents(), "toEqual", [
      "1st prize: <script>window.__pwned = 1</script>Cursed Blade · plus 100% of the pot",
      `2nd prize: Item #103 of ${short(tokens.items1155)}`,
      `3rd prize: ${"Z".repeat(79)}…`,
      `4th prize: Item #1 of ${short(tokens.pausable)}`,
      "5th prize: 1000 GEM",
    ]);
    await page
      .getByText("5 prizes are items, held in escrow by the raffle until their winners claim them; 4 more winning tickets win an item only.", {
        exact: false,
      })
      .waitFor(WAIT);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.locator("main img").count()).toBe(0);
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
      await page.screenshot({ path: path.join(SCREENSHOTS, `items-hostile-${width}.png`), fullPage: true });
      await expectAxeClean(page, width);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(cspViolations).toEqual([]);
  });

  it("connects, signs in and buys every ticket; each prize then shows its item beside its share of the pot", async () => {
    await page.goto(stack.web.url);
    await button("Connect wallet").click();
    await button("Test Wallet").click();
    await button("Sign in").click();
    await page.getByText("Signed in", { exact: true }).waitFor(WAIT);

    await page.goto(raffleUrl("items"));
    await page.getByLabel("Quantity").fill("3");
    await button("Buy").click();
    await page.getByText("3 tickets bought! They are in My tickets.").waitFor(WAIT);
    await settles(
      () => prizes().first().textContent(),
      "toBe",
      "1st prize: Legendary Sword · plus gross share 0.018 ETH · commission rate 10% · net prize paid 0.0162 ETH",
    );
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
      await picturesLoaded(page, ["Legendary Sword", "Potion of Healing"]);
      await page.screenshot({ path: path.join(SCREENSHOTS, `items-raffle-${width}.png`), fullPage: true });
      await expectAxeClean(page, width);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it("shows the winner each item it won, and the items claimed with Claim all", async () => {
    await endAndDraw(stack.world, stack.raffles.items.deployed);
    await page.goto(`${stack.web.url}/#/tickets`);
    const tickets = page.getByRole("list", { name: "Your tickets by round" });
    await tickets.getByText("item: Legendary Sword (to claim)").waitFor(WAIT);
    await tickets.getByText(`item: Item #1 of ${short(tokens.shield)} (to claim)`).waitFor(WAIT);
    await tickets.getByText("item: 50 × Potion of Healing (to claim)").waitFor(WAIT);

    await button("Claim all").click();
    await page
      .getByText(
        `3 prizes claimed: 0.027 ETH is in your wallet, with Legendary Sword, Item #1 of ${short(tokens.shield)} and 50 × Potion of Healing.`,
        {
          exact: false,
        },
      )
      .waitFor({ timeout: 30_000 });
    for (const item of ["Legendary Sword", `Item #1 of ${short(tokens.shield)}`, "50 × Potion of Healing"]) {
      await tickets.getByText(`item: ${item} (claimed: it is in your wallet)`).waitFor(WAIT);
    }
    const player = stack.player.address;
    expect(await TestCollectible__factory.connect(tokens.shield, stack.node.provider).ownerOf(1n)).toBe(player);
    const items1155 = TestItems1155__factory.connect(tokens.items1155, stack.node.provider);
    expect([await items1155.balanceOf(player, 1n), await items1155.balanceOf(player, 2n)]).toEqual([1n, 50n]);
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
      await page.screenshot({ path: path.join(SCREENSHOTS, `items-tickets-${width}.png`), fullPage: true });
      await expectAxeClean(page, width);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it("shows each round's items and where they are in the round history", async () => {
    await page.goto(`${raffleUrl("items")}/rounds`);
    const items = page.getByRole("list", { name: "Item prizes of Round 2" }).getByRole("listitem");
    await settles(() => items.allTextContents(), "toEqual", [
      "1st prize: Legendary Sword · claimed by the winner",
      `2nd prize: Item #1 of ${short(tokens.shield)} · claimed by the winner`,
      "3rd prize: 50 × Potion of Healing · claimed by the winner",
    ]);
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
      await picturesLoaded(page, ["Legendary Sword", "Potion of Healing"]);
      await page.screenshot({ path: path.join(SCREENSHOTS, `items-rounds-${width}.png`), fullPage: true });
      await expectAxeClean(page, width);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(cspViolations).toEqual([]);
    expect((await itemsRaffle().getRound(2n)).status).toBe(6n); // Claimed: every share and item
  });

  describe("the merchant console", () => {
    let consolePage: Page;
    const consoleButton = (name: string) => consolePage.getByRole("button", { name, exact: true });
    const card = () => consolePage.getByRole("region", { name: "Sword and Potions" });

    beforeAll(async () => {
      consolePage = await context.newPage();
      await new InjectedWallet(stack.merchant, stack.node.provider, stack.world.deployment.chainId).install(consolePage);
      await consolePage.goto(`${stack.web.url}/console/#/raffles`);
      await consoleButton("Connect wallet").click();
      await consoleButton("Test Wallet").click();
      await consoleButton("Sign in with Ethereum").click();
      await consolePage.getByRole("heading", { name: "Raffles", exact: true }).waitFor(WAIT);
    });

    it("shows the next round's items with what the wallet no longer holds, and refuses to start a round without it", async () => {
      const next = card().getByRole("list", { name: "Items of the next round" }).getByRole("listitem");
      await settles(() => next.allTextContents(), "toEqual", [
        "1st prize: Legendary Sword · in your wallet, approved",
        `2nd prize: Item #1 of ${short(tokens.shield)} · Your wallet does not hold token #1 of this collection: ${stack.player.address} does.`,
        "3rd prize: 50 × Potion of Healing · in your wallet, approved",
      ]);
      await card().getByRole("button", { name: "Start round", exact: true }).click();
      await card()
        .getByRole("alert")
        .filter({
          hasText:
            "The 2nd prize's item could not be taken into escrow: your wallet must hold it and have approved the raffle (see Item prizes). The round did not start.",
        })
        .waitFor(WAIT);
      expect((await itemsRaffle().getCurrentRoundInfo()).roundId).toBe(2n);
    });

    it("chooses items from the wallet: refuses what it cannot escrow, offers the approval, then saves them", async () => {
      await card().getByRole("button", { name: "Choose item prizes", exact: true }).click();
      await card().getByRole("button", { name: "Remove the 2nd prize item", exact: true }).click();
      const form = card().getByRole("form", { name: "Add an item prize" });
      const add = async (position: string, token: string, tokenId: string, amount = "1") => {
        await form.getByLabel("Prize position", { exact: true }).fill(position);
        await form.getByLabel("Item token address", { exact: true }).fill(token);
        await form.getByLabel("Token id", { exact: true }).fill(tokenId);
        await form.getByLabel("Amount", { exact: true }).fill(amount);
        await form.getByRole("button", { name: "Add item", exact: true }).click();
      };
      const refusal = (text: string) => form.getByRole("alert").filter({ hasText: text }).waitFor(WAIT);
      await add("2", stack.player.address, "1");
      await refusal("No contract lives at this address on this network.");
      await add("2", tokens.dragon, "5");
      await refusal("Token #5 does not exist in this collection.");
      await add("4", tokens.items1155, "2", "100000");
      await refusal("Your wallet holds 450 of item #2, fewer than the 100000 chosen.");
      await add("1", tokens.items1155, "2", "1");
      await refusal("The 1st prize has an item already: remove it first.");
      await add("2", tokens.dragon, "1");
      const chosen = card().getByRole("list", { name: "Chosen items" }).getByRole("listitem");
      await settles(
        () => chosen.nth(1).textContent(),
        "toBe",
        `2nd prize: Item #1 of ${short(tokens.dragon)} · in your wallet, not approved for the raffle yet Remove the 2nd prize item`,
      );
      expect(await card().getByRole("button", { name: "Save item prizes", exact: true }).isDisabled()).toBe(true);

      await card().getByRole("button", { name: "Approve the items", exact: true }).click();
      await card().getByText("Approved: the raffle may take these items into escrow when a round starts.").waitFor(WAIT);
      const dragon = TestCollectible__factory.connect(tokens.dragon, stack.node.provider);
      const raffleAddress = stack.raffles.items.deployed.raffle;
      expect(await dragon.isApprovedForAll(stack.merchant.address, raffleAddress)).toBe(true);
      await card().getByRole("button", { name: "Save item prizes", exact: true }).click();
      await card().getByText("Saved: the next round takes these items into escrow from your wallet when it starts.").waitFor(WAIT);
      const [, saved] = await itemsRaffle().itemPrizes();
      expect(saved.map((item) => [item.position, item.asset.token, item.asset.tokenId, item.asset.amount])).toEqual([
        [1n, tokens.items1155, 1n, 1n],
        [2n, tokens.dragon, 1n, 1n],
        [3n, tokens.items1155, 2n, 50n],
      ]);
    });

    it("starts a round that escrows the items, and returns them once the round is refundable", async () => {
      await card().getByRole("button", { name: "Start round", exact: true }).click();
      await card().getByText("Round started: it shows here as soon as it is indexed.").waitFor(WAIT);
      const [, escrowed] = await itemsRaffle().getRoundItems(3n);
      expect(escrowed.map((item) => item.status)).toEqual([1n, 1n, 1n]);
      // One ticket of the 2 the round needs: it ends refundable.
      await buyTickets(stack.world, stack.raffles.items.deployed, stack.world.players[1], 1);
      await (await Raffle__factory.connect(stack.raffles.items.deployed.raffle, stack.world.merchant).endRound()).wait();

      const roundItems = card().getByRole("list", { name: "Items of round #3" }).getByRole("listitem");
      await settles(() => roundItems.allTextContents(), "toEqual", [
        "1st prize: Legendary Sword · held in escrow",
        `2nd prize: Item #1 of ${short(tokens.dragon)} · held in escrow`,
        "3rd prize: 50 × Potion of Healing · held in escrow",
      ]);
      const next = card().getByRole("list", { name: "Items of the next round" }).getByRole("listitem");
      await settles(
        () => next.nth(1).textContent(),
        "toBe",
        `2nd prize: Item #1 of ${short(tokens.dragon)} · This raffle holds token #1 in escrow for a round: it comes back to your wallet when that round's items are returned.`,
      );
      await card().getByRole("button", { name: "Return items of round #3", exact: true }).click();
      await card().getByText("The items of round #3 are back in your wallet.").waitFor(WAIT);
      await settles(() => roundItems.allTextContents(), "toEqual", [
        "1st prize: Legendary Sword · returned to you",
        `2nd prize: Item #1 of ${short(tokens.dragon)} · returned to you`,
        "3rd prize: 50 × Potion of Healing · returned to you",
      ]);
      expect(await TestCollectible__factory.connect(tokens.dragon, stack.node.provider).ownerOf(1n)).toBe(stack.merchant.address);
      const items1155 = TestItems1155__factory.connect(tokens.items1155, stack.node.provider);
      expect([await items1155.balanceOf(stack.merchant.address, 1n), await items1155.balanceOf(stack.merchant.address, 2n)]).toEqual([4n, 450n]);
      await settles(() => next.allTextContents(), "toEqual", [
        "1st prize: Legendary Sword · in your wallet, approved",
        `2nd prize: Item #1 of ${short(tokens.dragon)} · in your wallet, approved`,
        "3rd prize: 50 × Potion of Healing · in your wallet, approved",
      ]);
      // Returned already: the button is gone.
      expect(await card().getByRole("button", { name: "Return items of round #3", exact: true }).count()).toBe(0);

      for (const width of [1280, 375]) {
        await consolePage.setViewportSize({ width, height: width === 375 ? 812 : 900 });
        await card().getByRole("heading", { name: "Item prizes", exact: true }).waitFor(WAIT);
        await consolePage.screenshot({ path: path.join(SCREENSHOTS, `items-console-${width}.png`), fullPage: true });
        await expectAxeClean(consolePage, width);
      }
    });
  });
});
