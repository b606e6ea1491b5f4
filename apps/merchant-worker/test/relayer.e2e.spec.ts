import { Wallet, parseUnits, toQuantity, type JsonRpcProvider } from "ethers";
import { RaffleTicket__factory, TestToken__factory } from "@raffle/chain";
import { deployTestRaffle, rpcProvider, setUpWorld, startTestNode, type HardhatNode, type TestRaffle, type TestWorld } from "@raffle/chain/testing";

import { WorkerLogger } from "../src/logger";
import { ChainRelayer, type ChainRelayerOptions } from "../src/relayer/chain-relayer";
import type { RelayMailbox } from "../src/relayer/relay-mailbox";
import { TxSender } from "../src/tx-sender";
import { fundedBuyer, signedPurchase, type SignedPurchase } from "./support/gasless-jobs";
import { LogCapture } from "./support/log-capture";
import { MemoryMailboxStore, type MailboxFaults } from "./support/memory-mailbox";

/**
 * The relayer's core against a real local chain (Hardhat, or anvil with TEST_NODE=anvil), the platform's real
 * Exchange and ERC-3009 token, and the mailbox's semantics in memory: what it sends, how often, with which nonces.
 */
describe("ChainRelayer against a local node", () => {
  let node: HardhatNode;
  let world: TestWorld;
  let raffle: TestRaffle;

  beforeAll(async () => {
    node = await startTestNode();
    world = await setUpWorld(node.provider);
    raffle = await deployTestRaffle(world, "ERC20", 0n);
  });

  afterAll(async () => {
    await node?.stop();
  });

  afterEach(async () => {
    await node.provider.send("evm_setAutomine", [true]);
  });

  interface Relayer {
    relayer: ChainRelayer;
    wallet: Wallet;
    logs: LogCapture;
    provider: JsonRpcProvider;
  }

  /** A fresh key with 10 ETH, so each test's nonces start at 0 and are its own. */
  async function fundedKey(): Promise<string> {
    const wallet = Wallet.createRandom();
    await node.provider.send("hardhat_setBalance", [wallet.address, toQuantity(parseUnits("10", 18))]);
    return wallet.privateKey;
  }

  /** A relayer on its own funded key and its own provider (destroying it kills the relayer mid-run). */
  async function relayerOf(mailbox: RelayMailbox, options: Partial<ChainRelayerOptions> = {}, givenKey?: string): Promise<Relayer> {
    const key = givenKey ?? (await fundedKey());
    const provider = rpcProvider(node.rpcUrl);
    const wallet = new Wallet(key, provider);
    const logs = new LogCapture();
    const logger = new WorkerLogger({ level: "debug", sink: logs.sink });
    const sender = new TxSender(wallet, {
      chainId: world.deployment.chainId,
      confirmations: 1,
      pollMs: 25,
      fees: { maxFeePerGas: parseUnits("1000", "gwei"), bumpPercent: 25, receiptTimeoutMs: 300 },
    });
    const relayer = new ChainRelayer({
      chainId: world.deployment.chainId,
      exchange: world.deployment.exchange,
      mailbox,
      sender,
      provider,
      logger,
      pollIntervalMs: 50,
      maxInFlight: 50,
      ...options,
    });
    return { relayer, wallet, logs, provider };
  }

  async function purchases(count: number, options: Parameters<typeof signedPurchase>[3] = {}): Promise<SignedPurchase[]> {
    const made: SignedPurchase[] = [];
    for (let i = 0; i < count; i += 1) made.push(await signedPurchase(world, raffle, await fundedBuyer(world), options));
    return made;
  }

  async function ticketsOf(buyer: string): Promise<bigint> {
    return RaffleTicket__factory.connect(raffle.ticket, node.provider).balanceOf(buyer);
  }

  async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error("condition not met in time");
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  /** Nonces of every transaction `account` sent, from its mined blocks since `fromBlock`. */
  async function minedNonces(account: string, fromBlock: number): Promise<number[]> {
    const head = await node.provider.getBlockNumber();
    const nonces: number[] = [];
    for (let number = fromBlock; number <= head; number += 1) {
      const block = await node.provider.getBlock(number, true);
      for (const tx of block!.prefetchedTransactions) if (tx.from === account) nonces.push(tx.nonce);
    }
    return nonces.sort((a, b) => a - b);
  }

  it("relays many purchases at once: each mined once, tickets to the buyer, nonces without gaps", async () => {
    const store = new MemoryMailboxStore();
    const made = await purchases(16, { quantity: 2n });
    for (const purchase of made) store.add(purchase.job);
    const { relayer, wallet } = await relayerOf(store.mailbox("relayer-a"));
    const fromBlock = await node.provider.getBlockNumber();
    await relayer.pollOnce();
    await relayer.idle();

    for (const purchase of made) {
      const stored = store.get(purchase.job.id);
      expect(stored.outcomes).toEqual([{ outcome: "mined", txHash: stored.attempts[0].txHash, relayerId: "relayer-a" }]);
      expect(stored.attempts).toHaveLength(1);
      expect(await ticketsOf(purchase.buyer.address)).toBe(2n);
      // The buyer paid with the token alone: not one wei of ETH.
      expect(await node.provider.getBalance(purchase.buyer.address)).toBe(0n);
    }
    expect(await minedNonces(wallet.address, fromBlock + 1)).toEqual(made.map((_, index) => index));
    expect(relayer.health().totals).toEqual({ sent: 16, resent: 0, mined: 16, failed: 0 });
  });

  it("resends a dropped transaction with a higher fee under the same nonce, and buys once", async () => {
    const store = new MemoryMailboxStore();
    const [purchase] = await purchases(1);
    store.add(purchase.job);
    const { relayer, wallet } = await relayerOf(store.mailbox("relayer-a"));
    await node.provider.send("evm_setAutomine", [false]);
    await relayer.pollOnce();
    await waitFor(() => store.get(purchase.job.id).attempts.length === 1);
    const dropped = store.get(purchase.job.id).attempts[0].txHash;
    await node.provider.send("hardhat_dropTransaction", [dropped]).catch(() => node.provider.send("anvil_dropTransaction", [dropped]));
    await waitFor(() => store.get(purchase.job.id).attempts.length === 2);
    await node.provider.send("evm_setAutomine", [true]);
    await node.provider.send("evm_mine", []);
    await relayer.idle();

    const [first, second] = store.get(purchase.job.id).attempts;
    expect(second.nonce).toBe(first.nonce);
    expect(BigInt(second.maxFeePerGas)).toBeGreaterThan(BigInt(first.maxFeePerGas));
    expect(store.get(purchase.job.id).outcomes).toEqual([{ outcome: "mined", txHash: second.txHash, relayerId: "relayer-a" }]);
    expect(await node.provider.getTransactionReceipt(dropped)).toBeNull();
    expect(await ticketsOf(purchase.buyer.address)).toBe(1n);
    expect(await node.provider.getTransactionCount(wallet.address, "latest")).toBe(1);
  });

  it("replaces a stuck transaction with rising fees under one nonce until it is mined", async () => {
    const store = new MemoryMailboxStore();
    const [purchase] = await purchases(1);
    store.add(purchase.job);
    const { relayer, wallet } = await relayerOf(store.mailbox("relayer-a"));
    await node.provider.send("evm_setAutomine", [false]);
    await relayer.pollOnce();
    await waitFor(() => store.get(purchase.job.id).attempts.length >= 3);
    await node.provider.send("evm_mine", []);
    await relayer.idle();

    const attempts = store.get(purchase.job.id).attempts;
    expect(new Set(attempts.map((attempt) => attempt.nonce))).toEqual(new Set([0]));
    for (let i = 1; i < attempts.length; i += 1) {
      expect(BigInt(attempts[i].maxFeePerGas)).toBeGreaterThan(BigInt(attempts[i - 1].maxFeePerGas));
    }
    const [outcome] = store.get(purchase.job.id).outcomes;
    expect(outcome.outcome).toBe("mined");
    expect(attempts.map((attempt) => attempt.txHash)).toContain((outcome as { txHash: string }).txHash);
    expect(relayer.health().totals.resent).toBe(attempts.length - 1);
    expect(await node.provider.getTransactionCount(wallet.address, "latest")).toBe(1);
  });

  describe("a relayer killed mid-run loses and repeats nothing", () => {
    it("a new instance waits for the attempt still pending instead of sending again", async () => {
      const store = new MemoryMailboxStore();
      const [purchase] = await purchases(1);
      store.add(purchase.job);
      const key = await fundedKey();
      const first = await relayerOf(store.mailbox("relayer-a"), {}, key);
      await node.provider.send("evm_setAutomine", [false]);
      const killed = first.relayer.pollOnce().then(() => first.relayer.idle());
      // Killed once its transaction reached the node's pool.
      await waitFor(async () => {
        const [attempt] = store.get(purchase.job.id).attempts;
        return attempt !== undefined && (await node.provider.getTransaction(attempt.txHash)) !== null;
      });
      first.provider.destroy();
      await killed;

      const second = await relayerOf(store.mailbox("relayer-a"), {}, key);
      await second.relayer.pollOnce();
      await waitFor(() => second.logs.messages().includes("resuming a pending attempt"));
      await node.provider.send("evm_mine", []);
      await second.relayer.idle();

      const stored = store.get(purchase.job.id);
      expect(stored.outcomes.map((outcome) => outcome.outcome)).toEqual(["mined"]);
      expect(new Set(stored.attempts.map((attempt) => attempt.nonce))).toEqual(new Set([0]));
      expect(await ticketsOf(purchase.buyer.address)).toBe(1n);
      expect(await node.provider.getTransactionCount(first.wallet.address, "latest")).toBe(1);
    });

    it("a mined attempt not yet reported is reported by the next instance, without a new transaction", async () => {
      const store = new MemoryMailboxStore();
      const [purchase] = await purchases(1);
      store.add(purchase.job);
      const key = await fundedKey();
      const first = await relayerOf(store.mailbox("relayer-a", { outcome: new Error("killed before reporting") }), {}, key);
      await first.relayer.pollOnce();
      await first.relayer.idle();
      expect(store.get(purchase.job.id).outcomes).toEqual([]);

      const second = await relayerOf(store.mailbox("relayer-a"), {}, key);
      await second.relayer.pollOnce();
      await second.relayer.idle();
      const stored = store.get(purchase.job.id);
      expect(stored.outcomes).toEqual([{ outcome: "mined", txHash: stored.attempts[0].txHash, relayerId: "relayer-a" }]);
      expect(stored.attempts).toHaveLength(1);
      expect(await node.provider.getTransactionCount(first.wallet.address, "latest")).toBe(1);
      expect(second.relayer.health().totals.sent).toBe(0);
    });

    it("an attempt recorded but never broadcast is sent by the next instance, and the purchase is made once", async () => {
      const store = new MemoryMailboxStore();
      const [purchase] = await purchases(1);
      store.add(purchase.job);
      const key = await fundedKey();
      const crash: MailboxFaults = {
        afterSent: () => {
          throw new Error("killed between recording and broadcasting");
        },
      };
      const first = await relayerOf(store.mailbox("relayer-a", crash), {}, key);
      await first.relayer.pollOnce();
      await first.relayer.idle();
      expect(store.get(purchase.job.id).attempts).toHaveLength(1);
      expect(await node.provider.getTransactionCount(first.wallet.address, "latest")).toBe(0);

      const second = await relayerOf(store.mailbox("relayer-a"), {}, key);
      await second.relayer.pollOnce();
      await second.relayer.idle();
      const stored = store.get(purchase.job.id);
      expect(stored.attempts).toHaveLength(2);
      expect(stored.outcomes).toEqual([{ outcome: "mined", txHash: stored.attempts[1].txHash, relayerId: "relayer-a" }]);
      expect(await ticketsOf(purchase.buyer.address)).toBe(1n);
    });

    it("a job whose lease expired goes to another replica with its attempts, which reports the first one's mined tx", async () => {
      const store = new MemoryMailboxStore();
      const [purchase] = await purchases(1);
      store.add(purchase.job);
      const first = await relayerOf(store.mailbox("relayer-a", { outcome: new Error("killed before reporting") }));
      await first.relayer.pollOnce();
      await first.relayer.idle();
      store.expireLeases();

      const other = await relayerOf(store.mailbox("relayer-b"));
      await other.relayer.pollOnce();
      await other.relayer.idle();
      const stored = store.get(purchase.job.id);
      expect(stored.outcomes).toEqual([{ outcome: "mined", txHash: stored.attempts[0].txHash, relayerId: "relayer-b" }]);
      expect(await node.provider.getTransactionCount(other.wallet.address, "latest")).toBe(0);
    });
  });

  it("two replicas (own ids and keys) sharing one mailbox never submit the same job", async () => {
    const store = new MemoryMailboxStore();
    const made = await purchases(20);
    for (const purchase of made) store.add(purchase.job);
    const replicas = await Promise.all([
      relayerOf(store.mailbox("replica-1"), { maxInFlight: 6 }),
      relayerOf(store.mailbox("replica-2"), { maxInFlight: 6 }),
    ]);
    for (const replica of replicas) replica.relayer.start();
    await waitFor(
      () =>
        store
          .all()
          .filter((stored) => made.some((p) => p.job.id === stored.job.id))
          .every((stored) => stored.state === "mined"),
      60_000,
    );
    await Promise.all(replicas.map((replica) => replica.relayer.stop()));

    for (const purchase of made) {
      const stored = store.get(purchase.job.id);
      expect(stored.attempts).toHaveLength(1);
      expect(stored.outcomes).toHaveLength(1);
      expect(await ticketsOf(purchase.buyer.address)).toBe(1n);
    }
    const sent = replicas.map((replica) => replica.relayer.health().totals.sent);
    expect(sent[0] + sent[1]).toBe(20);
    expect(sent.every((count) => count > 0)).toBe(true);
  });

  it("never sends after notAfter: an expired job fails with voucherExpired and no transaction", async () => {
    const store = new MemoryMailboxStore();
    const [purchase] = await purchases(1, { lifetimeSeconds: 30 });
    store.add(purchase.job);
    const { relayer, wallet } = await relayerOf(store.mailbox("relayer-a"), { now: () => (purchase.job.notAfter + 1) * 1000 });
    await relayer.pollOnce();
    await relayer.idle();
    expect(store.get(purchase.job.id).outcomes).toEqual([{ outcome: "failed", failureCode: "voucherExpired", relayerId: "relayer-a" }]);
    expect(await node.provider.getTransactionCount(wallet.address, "latest")).toBe(0);
  });

  it("cancels a transaction still pending at notAfter; the buyer's tokens never move", async () => {
    const store = new MemoryMailboxStore();
    const [purchase] = await purchases(1);
    store.add(purchase.job);
    let clock = Date.now();
    const { relayer, wallet, logs } = await relayerOf(store.mailbox("relayer-a"), { now: () => clock });
    const token = TestToken__factory.connect(world.token, node.provider);
    const before = await token.balanceOf(purchase.buyer.address);
    await node.provider.send("evm_setAutomine", [false]);
    await relayer.pollOnce();
    await waitFor(() => store.get(purchase.job.id).attempts.length === 1);
    clock = (purchase.job.notAfter + 1) * 1000;
    await waitFor(() => logs.messages().some((message) => message.startsWith("transaction not mined in time")));
    await node.provider.send("evm_mine", []);
    await relayer.idle();

    expect(store.get(purchase.job.id).outcomes).toEqual([{ outcome: "failed", failureCode: "voucherExpired", relayerId: "relayer-a" }]);
    expect(store.get(purchase.job.id).attempts).toHaveLength(1);
    expect(await token.balanceOf(purchase.buyer.address)).toBe(before);
    expect(await ticketsOf(purchase.buyer.address)).toBe(0n);
    expect(await node.provider.getTransactionCount(wallet.address, "latest")).toBe(1);
  });

  it("refuses a job whose target is not the chain's Exchange, without sending", async () => {
    const store = new MemoryMailboxStore();
    const [purchase] = await purchases(1);
    store.add({ ...purchase.job, to: world.token });
    const { relayer, wallet } = await relayerOf(store.mailbox("relayer-a"));
    await relayer.pollOnce();
    await relayer.idle();
    expect(store.get(purchase.job.id).outcomes).toEqual([{ outcome: "failed", failureCode: "relayTargetRefused", relayerId: "relayer-a" }]);
    expect(await node.provider.getTransactionCount(wallet.address, "latest")).toBe(0);
  });

  it("reports a replayed voucher as the contract's error, but the voucher used by its own attempt as mined", async () => {
    const store = new MemoryMailboxStore();
    const [purchase] = await purchases(1);
    // Someone else submitted the same signed purchase first.
    const outsider = new Wallet(await fundedKey(), node.provider);
    await (await outsider.sendTransaction({ to: purchase.job.to, data: purchase.job.data })).wait();
    store.add(purchase.job);
    const replay = { ...purchase.job, id: `${purchase.job.id}-again` };
    store.add(replay);
    const { relayer, wallet } = await relayerOf(store.mailbox("relayer-a"));
    await relayer.pollOnce();
    await relayer.idle();
    expect(store.get(purchase.job.id).outcomes).toEqual([{ outcome: "failed", failureCode: "nonceAlreadyUsed", relayerId: "relayer-a" }]);
    expect(await node.provider.getTransactionCount(wallet.address, "latest")).toBe(0);

    // The same voucher used by this job's own earlier attempt: the purchase is made, so the job is mined.
    const [own] = await purchases(1);
    const mined = await (await wallet.sendTransaction({ to: own.job.to, data: own.job.data })).wait();
    store.add(own.job, [{ txHash: mined!.hash, nonce: 0, maxFeePerGas: "1", maxPriorityFeePerGas: "1", sentAt: new Date().toISOString() }]);
    await relayer.pollOnce();
    await relayer.idle();
    expect(store.get(own.job.id).outcomes).toEqual([{ outcome: "mined", txHash: mined!.hash, relayerId: "relayer-a" }]);
  });

  it("reports an altered purchase (another buyer's signature) with the token's error and sends nothing", async () => {
    const store = new MemoryMailboxStore();
    const [purchase] = await purchases(1);
    // The buyer's signature over a different voucher nonce: the token recovers another signer.
    const [other] = await purchases(1);
    const tampered = purchase.job.data.slice(0, -130) + other.job.data.slice(-130);
    store.add({ ...purchase.job, data: tampered });
    const { relayer, wallet } = await relayerOf(store.mailbox("relayer-a"));
    await relayer.pollOnce();
    await relayer.idle();
    const [outcome] = store.get(purchase.job.id).outcomes;
    expect(outcome).toMatchObject({ outcome: "failed" });
    expect((outcome as { failureCode: string }).failureCode).toMatch(/^[a-z][A-Za-z]+$/);
    expect((outcome as { failureCode: string }).failureCode).not.toBe("relayReverted");
    expect(await node.provider.getTransactionCount(wallet.address, "latest")).toBe(0);
  });
});
