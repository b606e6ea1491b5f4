import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Contract, JsonRpcProvider, Wallet, parseEther, parseUnits } from "ethers";
import { DemoItem721__factory, DemoItems1155__factory, Raffle__factory, TokenType } from "@raffle/chain";
import { RaffleApi, buyTicket, refundTickets } from "@raffle/sdk";
import { eventually, freePort } from "@raffle/testing";

import type { StackFile } from "../stack/stack-file";
import { buyWithPackedSdk, installPackedSdk, packSdk, typecheckConsumer } from "./support/packed-sdk";
import { run, waitForOutput } from "./support/processes";

const ROOT = path.resolve(__dirname, "../..");

async function retryRotatedRound<T>(buy: () => Promise<T>, attempts = 6): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await buy();
    } catch (error) {
      if (attempt >= attempts || !/roundEnded|roundNotFound|NoActiveRound|revert/i.test(String(error))) throw error;
      // A random pause: an attempt (a node process started, a voucher signed) can take about the 5 s of a rotation, and
      // fixed pauses then meet the same moment between two rounds again and again.
      await new Promise((resolve) => setTimeout(resolve, 500 + Math.random() * 2_000));
    }
  }
}

function portIsOpen(port: number): Promise<boolean> {
  return fetch(`http://127.0.0.1:${port}`, { method: "POST" }).then(
    () => true,
    () => false,
  );
}

/** The packed SDK, installed in an empty folder outside the workspace; type-checked there while the stack boots. */
async function installedSdk(folder: string): Promise<string> {
  await installPackedSdk(await packSdk(folder), folder);
  await typecheckConsumer(folder);
  return folder;
}

/** `getRoundItems`' statuses (ItemStatus). */
const ESCROWED = 1n;
const RETURNED = 3n;

/**
 * The item raffle's current round holds a sword and 5 potions in escrow, from the item wallet, with their metadata.
 * Every read is of one block (rounds run every few seconds here: a round could end between two reads), and a block
 * between rounds (the last one's items returned, the next not started) is passed over for a later one.
 */
async function expectItemsEscrowed(rpcUrl: string, itemRaffle: StackFile["contracts"]["raffles"][number]): Promise<void> {
  const provider = new JsonRpcProvider(rpcUrl, undefined, { cacheTimeout: -1, staticNetwork: true });
  try {
    const raffle = Raffle__factory.connect(itemRaffle.raffle, provider);
    const { blockTag, merchant, items } = await eventually(async () => {
      const blockTag = await provider.getBlockNumber();
      const { roundId } = await raffle.getCurrentRoundInfo({ blockTag });
      const [merchant, items] = await raffle.getRoundItems(roundId, { blockTag });
      if (items.some((item) => item.status !== ESCROWED)) throw new Error(`round ${roundId} holds no escrowed items at block ${blockTag}`);
      return { blockTag, merchant, items };
    }, 60_000);
    expect(merchant).toBe(itemRaffle.items!.wallet);
    expect(items.map((item) => [item.position, Number(item.asset.tokenType), item.asset.token, item.asset.amount, item.status])).toEqual([
      [1n, TokenType.ERC721, itemRaffle.items!.sword, 1n, ESCROWED],
      [2n, TokenType.ERC1155, itemRaffle.items!.potions, 5n, ESCROWED],
    ]);
    const sword = DemoItem721__factory.connect(itemRaffle.items!.sword, provider);
    expect(await sword.ownerOf(items[0].asset.tokenId, { blockTag })).toBe(itemRaffle.raffle);
    const swordMetadata = await sword.tokenURI(items[0].asset.tokenId, { blockTag });
    const potionMetadata = await DemoItems1155__factory.connect(itemRaffle.items!.potions, provider).uri(1n);
    for (const [uri, name] of [
      [swordMetadata, `Legendary Sword #${items[0].asset.tokenId}`],
      [potionMetadata, "Healing Potion"],
    ]) {
      const document = JSON.parse(Buffer.from(uri.replace("data:application/json;base64,", ""), "base64").toString("utf8"));
      expect(document).toMatchObject({ name, image: expect.stringMatching(/^data:image\/svg\+xml;base64,/) });
    }
  } finally {
    provider.destroy();
  }
}

/**
 * A player buys the only ticket of an item raffle round, which needs two: the round ends refundable, both its items go
 * back to the item wallet they came from (the stack's keeper calls returnItems, as anyone may), and the ticket is
 * refunded its price.
 */
async function refundableRoundReturnsItems(facts: StackFile, itemRaffle: StackFile["contracts"]["raffles"][number]): Promise<void> {
  const provider = new JsonRpcProvider(facts.rpcUrl, undefined, { cacheTimeout: -1, staticNetwork: true });
  try {
    const raffle = Raffle__factory.connect(itemRaffle.raffle, provider);
    const player = new Wallet(facts.players[2].privateKey, provider);
    const api = new RaffleApi({ baseUrl: facts.apiUrl, apiKey: facts.apiKey });
    const bought = await retryRotatedRound(() =>
      buyTicket({ api, signer: player, contractId: itemRaffle.contractId!, exchange: facts.contracts.exchange }),
    );
    const roundId = await raffle.roundOfTicket(bought.ticketId);
    const returned = await eventually(async () => {
      const [merchant, items] = await raffle.getRoundItems(roundId);
      if (items.some((item) => item.status !== RETURNED)) throw new Error(`round ${roundId}'s items are not back yet`);
      return { merchant, items };
    }, 60_000);
    expect(returned.merchant).toBe(itemRaffle.items!.wallet);
    expect(returned.items.map((item) => [item.position, item.asset.token])).toEqual([
      [1n, itemRaffle.items!.sword],
      [2n, itemRaffle.items!.potions],
    ]);
    // Both went to the item wallet, in this round's ItemReturned events.
    const events = await raffle.queryFilter(raffle.filters.ItemReturned(roundId));
    expect(events.map((event) => [event.args.merchant, event.args.position, event.args.asset.token, event.args.asset.amount])).toEqual([
      [itemRaffle.items!.wallet, 1n, itemRaffle.items!.sword, 1n],
      [itemRaffle.items!.wallet, 2n, itemRaffle.items!.potions, 5n],
    ]);
    const refunded = await refundTickets(itemRaffle.raffle, [{ roundId: roundId.toString(), ticketId: bought.ticketId }], player);
    expect(refunded.tickets.map((ticket) => ticket.amount)).toEqual([parseUnits("10", 18)]);
  } finally {
    provider.destroy();
  }
}

describe("npm start, then npm run demo and the packed SDK against it", () => {
  const stackDir = fs.mkdtempSync(path.join(os.tmpdir(), "raffle-stack-"));
  const consumerDir = fs.mkdtempSync(path.join(os.tmpdir(), "raffle-sdk-consumer-"));
  let stack: ChildProcess | null = null;
  let sdk: Promise<string> | undefined;

  afterAll(async () => {
    // A pack still running writes into consumerDir: removing that under it fails the pack.
    await sdk?.catch(() => undefined);
    // Only when the test failed before stopping the stack: never leave its processes behind.
    if (stack?.pid && stack.exitCode === null && stack.signalCode === null) {
      try {
        process.kill(-stack.pid, "SIGKILL");
      } catch {
        // the process group is already gone
      }
    }
    fs.rmSync(stackDir, { recursive: true, force: true });
    fs.rmSync(consumerDir, { recursive: true, force: true });
  });

  it("boots the whole system, runs the demo end to end, buys with the packed SDK installed elsewhere, and stops cleanly on Ctrl-C", async () => {
    const [apiPort, chainPort, secondChainPort, webPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
    const env = {
      ...process.env,
      PORT: String(apiPort),
      WEB_PORT: String(webPort),
      CHAIN_PORT: String(chainPort),
      SECOND_CHAIN_PORT: String(secondChainPort),
      STACK_DIR: stackDir,
      RAFFLE_SCHEDULE: "*/5 * * * * *",
    };
    stack = spawn("npm", ["start", "--", "--fresh"], { cwd: ROOT, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    sdk = installedSdk(consumerDir);
    sdk.catch(() => undefined); // awaited below; this only keeps an early failure from being reported as unhandled
    const boot = await waitForOutput(stack, "\nready\n", 240_000);
    for (const step of ["[1/8]", "[3/8]", "[6/8]", "[7/8]", "[8/8]"]) expect(boot).toContain(step);
    expect(boot).toContain(`http://127.0.0.1:${apiPort}/docs`);
    expect(boot).toMatch(/API key\s+rk_[0-9a-f]{12}_/);

    const facts = JSON.parse(fs.readFileSync(path.join(stackDir, "stack.json"), "utf8")) as StackFile;
    expect(facts).toMatchObject({ apiUrl: `http://127.0.0.1:${apiPort}`, rpcUrl: `http://127.0.0.1:${chainPort}`, chainId: 31337 });
    expect(facts.contracts.raffles.map((raffle) => raffle.kind).sort()).toEqual(["ERC20", "ITEMS", "NATIVE", "THREE_WINNERS"]);
    // The three-winner raffle of issue #28, with its rules in the facts and the banner.
    expect(facts.contracts.raffles.find((raffle) => raffle.kind === "THREE_WINNERS")!.rules).toEqual({
      prizeShares: [5_000, 3_000, 2_000],
      minTickets: 3,
      maxTicketsPerWallet: 0,
      bundles: [
        { quantity: 5, price: parseUnits("45", 18).toString() },
        { quantity: 10, price: parseUnits("80", 18).toString() },
      ],
    });
    expect(boot).toMatch(/Three winners\s+raffle #\d+ on chain 31337: prizes 50% \/ 30% \/ 20%, at least 3 tickets/);
    // The item raffle of issue #53: a sword (ERC721) and potions (ERC1155) with their metadata on chain, escrowed at start.
    const itemRaffle = facts.contracts.raffles.find((raffle) => raffle.kind === "ITEMS")!;
    expect(itemRaffle.items).toMatchObject({ potionId: "1", potionsPerRound: "5", wallet: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/) });
    expect(boot).toMatch(
      /Item prizes\s+raffle #\d+ on chain 31337: 1st prize 70% of the pot and a Legendary Sword \(ERC721 0x[0-9a-fA-F]{40}\), 2nd 30% and 5 Healing Potions \(ERC1155 0x[0-9a-fA-F]{40} id 1\), escrowed when each round starts; at least 2 tickets/,
    );
    expect(boot).toContain("the demo merchant holds Legendary Swords #2 and #3 and 50 Healing Potions of its own to choose as prizes in the console");
    await expectItemsEscrowed(facts.rpcUrl, itemRaffle);
    // The player app: its static files, its runtime config, and the demo raffles on public sale with no API key.
    expect(boot).toContain(`Player app    http://127.0.0.1:${webPort}`);
    expect((await fetch(`http://127.0.0.1:${webPort}/`)).status).toBe(200);
    expect(await (await fetch(`http://127.0.0.1:${webPort}/config.json`)).json()).toMatchObject({ apiUrl: `http://127.0.0.1:${apiPort}` });
    const publicRaffles = (
      (await (await fetch(`http://127.0.0.1:${apiPort}/player/raffles`)).json()) as { rows: Array<{ raffle: { chainId: number } }> }
    ).rows;
    expect(publicRaffles.map((row) => row.raffle.chainId).sort()).toEqual([31337, 31337, 31337, 31337, 31338, 31338]);
    expect(facts.webUrl).toBe(`http://127.0.0.1:${webPort}`);
    // The merchant console: its URL and the account to sign in with are printed, and the page is served.
    expect(facts.consoleUrl).toBe(`http://127.0.0.1:${webPort}/console/`);
    expect(boot).toContain(`Console       ${facts.consoleUrl}`);
    expect(boot).toContain(`Merchant      ${facts.merchant.wallet}`);
    expect(await (await fetch(facts.consoleUrl)).text()).toContain("<title>Merchant console</title>");
    expect(
      ((await (await fetch(`http://127.0.0.1:${webPort}/config.json`)).json()) as { chains: Array<{ factory?: string }> }).chains.map(
        (chain) => chain.factory,
      ),
    ).toEqual(facts.chains.map((chain) => chain.factory));
    // Two chains, both served by the one API: each with its node, platform and indexed demo raffles (the first one also
    // the three-winner raffle).
    expect(facts.chains.map((chain) => [chain.chainId, chain.rpcUrl])).toEqual([
      [31337, `http://127.0.0.1:${chainPort}`],
      [31338, `http://127.0.0.1:${secondChainPort}`],
    ]);
    for (const [index, chain] of facts.chains.entries()) {
      expect(chain.raffles.map((raffle) => raffle.kind).sort()).toEqual(
        index === 0 ? ["ERC20", "ITEMS", "NATIVE", "THREE_WINNERS"] : ["ERC20", "NATIVE"],
      );
      expect(chain.raffles.every((raffle) => Number.isInteger(raffle.contractId))).toBe(true);
      expect(chain).toMatchObject({ exchange: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/), factory: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/) });
    }
    expect(facts.chains[0].raffles).toEqual(facts.contracts.raffles);
    expect(boot).toContain("Chain 31338");
    expect(facts.players.length).toBeGreaterThanOrEqual(2);
    // Buying without gas (issue #52): a player holding GOLD and 0 ETH on both chains, printed with its key, and the demo
    // merchant relaying, so the token-priced raffles offer it.
    expect(boot).toContain(`${facts.gaslessPlayer.address}  ${facts.gaslessPlayer.privateKey}`);
    for (const chain of facts.chains) {
      const chainProvider = new JsonRpcProvider(chain.rpcUrl, undefined, { cacheTimeout: -1, staticNetwork: true });
      const gold = new Contract(chain.priceToken, ["function balanceOf(address) view returns (uint256)"], chainProvider);
      expect({ chainId: chain.chainId, eth: await chainProvider.getBalance(facts.gaslessPlayer.address) }).toEqual({
        chainId: chain.chainId,
        eth: 0n,
      });
      expect(await gold.balanceOf(facts.gaslessPlayer.address)).toBeGreaterThan(0n);
      chainProvider.destroy();
    }
    const erc20Ids = facts.chains.flatMap((chain) => chain.raffles.filter((raffle) => raffle.kind !== "NATIVE").map((raffle) => raffle.contractId));
    // The relayer shows itself with its first poll; until then the API offers nothing.
    const offers = await eventually(async () => {
      const { rows } = (await (await fetch(`http://127.0.0.1:${apiPort}/player/raffles`)).json()) as {
        rows: Array<{ raffle: { id: number }; gasless: { available: boolean } }>;
      };
      if (rows.some((row) => erc20Ids.includes(row.raffle.id) && !row.gasless.available)) throw new Error("gasless not offered yet");
      return rows;
    }, 15_000);
    expect(offers.filter((row) => erc20Ids.includes(row.raffle.id)).map((row) => row.gasless)).toEqual(
      erc20Ids.map(() => ({ available: true, method: "authorization", tokenName: "Demo Gold", tokenVersion: "1", claimsAndRefunds: true })),
    );
    // The demo merchant relays on every chain: an ETH-priced raffle's prizes and refunds go without gas too.
    const nativeOffers = offers.filter((row) => !erc20Ids.includes(row.raffle.id)).map((row) => row.gasless);
    expect(nativeOffers.length).toBeGreaterThan(0);
    expect(nativeOffers).toEqual(
      nativeOffers.map(() => ({ available: false, method: null, tokenName: null, tokenVersion: null, claimsAndRefunds: true })),
    );

    // `npm run api-key` as the README says, while the stack runs: the key lands in the stack's database and works.
    const created = await run("npm", ["run", "api-key", "--", "create", "--merchant", facts.merchant.wallet, "--label", "readme"], {
      cwd: ROOT,
      env,
      timeoutMs: 120_000,
    });
    expect({ code: created.code, output: created.code === 0 ? "" : created.output }).toEqual({ code: 0, output: "" });
    const cliKey = created.output.match(/rk_[0-9a-f]{12}_[A-Za-z0-9_-]{43}/)![0];
    const listed = await fetch(`${facts.apiUrl}/raffle/contracts`, { headers: { Authorization: `Bearer ${cliKey}` } });
    expect(listed.status).toBe(200);
    const listedChains = ((await listed.json()) as { rows: Array<{ chainId: number }> }).rows.map((row) => row.chainId);
    expect([...new Set(listedChains)].sort()).toEqual([31337, 31338]);

    const demo = await run("npm", ["run", "demo"], { cwd: ROOT, env, timeoutMs: 300_000 });
    expect({ code: demo.code, output: demo.code === 0 ? "" : demo.output }).toEqual({ code: 0, output: "" });
    expect(demo.output).toContain("demo complete");
    // Two players in two raffles on each of the two chains.
    expect(demo.output.match(/bought ticket \d+ of round \d+ for [\d.]+ (GOLD|ETH) \(tx 0x[0-9a-f]{64}\)/g)).toHaveLength(8);
    expect(demo.output.match(/chain 31338 (ERC20|NATIVE) raffle #\d+: round \d+ has [12] tickets/g)).toHaveLength(2);
    expect(demo.output).toMatch(/round \d+ has [12] tickets/);
    expect(demo.output).toMatch(/round (\d+) ended, round (\d+) is open/);
    expect(demo.output).toMatch(/won ticket \d+: [\d.]+ GOLD after commission/);
    expect(demo.output).toContain("the API lists the claim as REDEEMED");
    // The three-winner raffle: two bundles at their bundle prices, a draw of three verified from its word, the prizes claimed.
    expect(demo.output).toMatch(/bought a bundle of 5 tickets \(\d+ to \d+\) of round \d+ for 45\.0 GOLD/);
    expect(demo.output).toMatch(/bought a bundle of 10 tickets \(\d+ to \d+\) of round \d+ for 80\.0 GOLD/);
    expect(demo.output.match(/ {5}prize [123] \((50|30|20)%\): ticket \d+ of 0x[0-9a-fA-F]{40}/g)!.length).toBeGreaterThanOrEqual(3);
    expect(demo.output).toMatch(/verifyDraw: the word draws tickets \d+, \d+, \d+ from \d+ tickets, as recorded on-chain and by the API/);
    expect(demo.output).toMatch(/claimed [123] prizes in one transaction/);
    expect(demo.output).toContain("the API lists the players' prizes as CLAIMED");
    // The item raffle: a round with two tickets drawn, and each winner's item claimed by its holder (the demo checks the
    // chain: the item's status is Claimed and the winner holds it).
    expect(demo.output).toMatch(/round \d+ holds in escrow for prize 1: Legendary Sword #\d+/);
    expect(demo.output).toMatch(/round \d+ holds in escrow for prize 2: 5 x Healing Potion/);
    expect(demo.output).toMatch(/claimed item prize 1: Legendary Sword #\d+ went to 0x[0-9a-fA-F]{40}/);
    expect(demo.output).toMatch(/claimed item prize 2: 5 x Healing Potion went to 0x[0-9a-fA-F]{40}/);
    // A refundable round (one ticket, two needed) gives both items back to the item wallet and the ticket its price.
    await refundableRoundReturnsItems(facts, itemRaffle);
    // The demo's game backend got the purchases, the draw and the claim as webhooks, each signature verified.
    for (const type of ["ticket.purchased", "round.drawn", "prize.claimed"]) expect(demo.output).toContain(`[webhook ✓ signature] ${type}`);
    expect(demo.output).not.toContain("[webhook ✗]");

    // buyTicket() of the packed SDK, from a folder that holds nothing of the workspace. The worker rotates the round
    // every 5 s, which can end it between the voucher and the purchase: then a client buys in the next round.
    const folder = await sdk!;
    const native = facts.contracts.raffles.find((raffle) => raffle.kind === "NATIVE")!;
    const buyer = facts.players[facts.players.length - 1];
    const bought = await retryRotatedRound(() =>
      buyWithPackedSdk(folder, {
        API_URL: facts.apiUrl,
        API_KEY: facts.apiKey,
        RPC_URL: facts.rpcUrl,
        PLAYER_PRIVATE_KEY: buyer.privateKey,
        CONTRACT_ID: String(native.contractId),
        EXCHANGE: facts.contracts.exchange,
      }),
    );
    expect(bought.sdk).toBe(fs.realpathSync(path.join(folder, "node_modules/@raffle/sdk/dist/index.js")));
    expect(bought).toMatchObject({ ticketId: expect.stringMatching(/^\d+$/), txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });

    // An ERC20-priced ticket from a fresh account: its first purchase needs an approve first, and the purchase must not
    // reuse the approve's nonce (the chain mines at once, within ethers' 250 ms cache of the pending nonce).
    const erc20 = facts.contracts.raffles.find((raffle) => raffle.kind === "ERC20")!;
    const fresh = Wallet.createRandom();
    const provider = new JsonRpcProvider(facts.rpcUrl, undefined, { cacheTimeout: -1 });
    try {
      const funder = new Wallet(facts.players[0].privateKey, provider);
      await (await funder.sendTransaction({ to: fresh.address, value: parseEther("1") })).wait();
      const gold = new Contract(facts.contracts.priceToken, ["function transfer(address to, uint256 amount) returns (bool)"], funder);
      await (await gold.transfer(fresh.address, parseUnits("100", 18))).wait();
    } finally {
      provider.destroy();
    }
    const boughtWithToken = await retryRotatedRound(() =>
      buyWithPackedSdk(folder, {
        API_URL: facts.apiUrl,
        API_KEY: facts.apiKey,
        RPC_URL: facts.rpcUrl,
        PLAYER_PRIVATE_KEY: fresh.privateKey,
        CONTRACT_ID: String(erc20.contractId),
        EXCHANGE: facts.contracts.exchange,
      }),
    );
    expect(boughtWithToken).toMatchObject({ ticketId: expect.stringMatching(/^\d+$/), txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });

    // The stack's chain keeps wall time however fast blocks come (a second per block would expire vouchers on arrival).
    const rpc = (method: string) =>
      fetch(facts.rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: method === "eth_getBlockByNumber" ? ["latest", false] : [] }),
      }).then(async (response) => ((await response.json()) as { result: { timestamp: string } }).result);
    for (let i = 0; i < 300; i += 1) await rpc("evm_mine");
    expect(Number((await rpc("eth_getBlockByNumber")).timestamp) - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(5);

    let shutdownOutput = "";
    stack.stdout!.on("data", (chunk: Buffer) => (shutdownOutput += chunk.toString()));
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
      stack!.once("exit", (code, signal) => resolve({ code, signal })),
    );
    // Ctrl-C reaches the whole process group, as in a terminal; npm itself then ends by that signal.
    process.kill(-stack.pid!, "SIGINT");
    const { code, signal } = await exited;
    expect(code === 0 || signal === "SIGINT").toBe(true);
    expect(shutdownOutput).toContain("stopped");
    // The facts of a running stack go with it: `npm run api-key` then uses the stack's folder directly.
    expect(fs.existsSync(path.join(stackDir, "stack.json"))).toBe(false);
    // Nothing of the stack is left: neither the API nor the chain answers.
    expect(await portIsOpen(apiPort)).toBe(false);
    expect(await portIsOpen(chainPort)).toBe(false);
    expect(await portIsOpen(secondChainPort)).toBe(false);
    // The boot's (120 s) and the demo's (300 s) own limits, the packed SDK's install and the shutdown: a hang still
    // fails, at the step that hung, before the test's own limit.
  }, 600_000);
});
