import { Wallet, parseUnits } from "ethers";
import { startTestNode, type HardhatNode } from "@raffle/chain/testing";

import { NonceTakenError } from "../src/errors";
import { WorkerLogger } from "../src/logger";
import { TxSender, bumpFee, type TxSenderOptions } from "../src/tx-sender";
import { hardhatAccountKey } from "./support/accounts";
import { LogCapture } from "./support/log-capture";

const RECIPIENT = "0x000000000000000000000000000000000000dEaD";

describe("TxSender against a local node (Hardhat, or anvil with TEST_NODE=anvil)", () => {
  let node: HardhatNode;
  let accountIndex = 10;

  beforeAll(async () => {
    node = await startTestNode();
  });

  afterAll(async () => {
    await node?.stop();
  });

  afterEach(async () => {
    await node.provider.send("evm_setAutomine", [true]);
  });

  /** A sender on a fresh funded account, so tests never share nonces. */
  function sender(options: Partial<TxSenderOptions> = {}, feeOverrides: Partial<TxSenderOptions["fees"]> = {}) {
    const wallet = new Wallet(hardhatAccountKey((accountIndex += 1)), node.provider);
    const logs = new LogCapture();
    const txSender = new TxSender(wallet, {
      chainId: 31337,
      confirmations: 1,
      pollMs: 25,
      fees: { maxFeePerGas: parseUnits("1000", "gwei"), bumpPercent: 25, receiptTimeoutMs: 250, ...feeOverrides },
      ...options,
    });
    return { wallet, txSender, logs, logger: new WorkerLogger({ level: "debug", sink: logs.sink }) };
  }

  const intent = { to: RECIPIENT, data: "0x", label: "transfer" };

  async function waitFor(check: () => boolean, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!check()) {
      if (Date.now() > deadline) throw new Error("condition not met in time");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it("sends, waits for the receipt and keeps its own nonce count", async () => {
    const { txSender, wallet, logger } = sender();
    const first = await txSender.send(intent, logger);
    const second = await txSender.send(intent, logger);
    expect(second.blockNumber).toBe(first.blockNumber + 1);
    expect(await node.provider.getTransactionCount(wallet.address, "latest")).toBe(2);
    expect((await node.provider.getTransaction(second.hash))!.nonce).toBe(1);
  });

  it("replaces a stuck transaction with the same nonce and fees raised by 25 % each time", async () => {
    const { txSender, wallet, logs, logger } = sender();
    await node.provider.send("evm_setAutomine", [false]);
    const sent = txSender.send(intent, logger);
    await waitFor(() => logs.messages().filter((message) => message.startsWith("transaction not mined in time")).length >= 2);
    await node.provider.send("evm_mine", []);
    const result = await sent;

    const firstSend = logs.lines.find((line) => line.message === "transaction sent")!;
    const replacements = logs.lines.filter((line) => String(line.message).startsWith("transaction not mined in time"));
    const fees = [firstSend, ...replacements].map((line) => BigInt(String(line.maxFeePerGas)));
    for (let i = 1; i < fees.length; i += 1) {
      expect(fees[i]).toBeGreaterThanOrEqual(bumpFee(fees[i - 1], 25));
      expect(replacements[i - 1].nonce).toBe(0);
      expect(replacements[i - 1].replaces).toBe(i === 1 ? firstSend.txHash : replacements[i - 2].txHash);
    }
    // The mined transaction is one of the replacements, and the account used exactly one nonce.
    const mined = (await node.provider.getTransaction(result.hash))!;
    expect(replacements.map((line) => line.txHash)).toContain(result.hash);
    expect(mined.nonce).toBe(0);
    expect(mined.maxFeePerGas! >= fees[1]).toBe(true);
    expect(await node.provider.getTransactionCount(wallet.address, "latest")).toBe(1);
  });

  it("never raises the fee above MAX_FEE_PER_GAS_GWEI and says once that it is waiting at the cap", async () => {
    const probe = sender();
    const market = await probe.txSender.marketFees();
    // Room for two 25 % bumps (×1.5625) but not a third.
    const cap = (market.maxFeePerGas * 16n) / 10n;
    const { txSender, logs, logger } = sender({}, { maxFeePerGas: cap });
    await node.provider.send("evm_setAutomine", [false]);
    const sent = txSender.send(intent, logger);
    await waitFor(() => logs.messages().includes("transaction still pending and its fee is at the cap MAX_FEE_PER_GAS_GWEI; waiting"));
    await new Promise((resolve) => setTimeout(resolve, 600));
    await node.provider.send("evm_mine", []);
    const result = await sent;

    const replacements = logs.lines.filter((line) => String(line.message).startsWith("transaction not mined in time"));
    expect(replacements).toHaveLength(2);
    const feesSeen = logs.lines.filter((line) => line.maxFeePerGas !== undefined).map((line) => BigInt(String(line.maxFeePerGas)));
    expect(feesSeen.every((fee) => fee <= cap)).toBe(true);
    expect(logs.messages().filter((message) => message.includes("at the cap"))).toHaveLength(1);
    expect((await node.provider.getTransaction(result.hash))!.maxFeePerGas! <= cap).toBe(true);
  });

  it("re-syncs its nonce from the node when another sender used it", async () => {
    const { txSender, wallet, logs, logger } = sender();
    await txSender.send(intent, logger);
    // A second process with the same key sends nonce 1 behind this sender's back.
    const twin = new Wallet(wallet.privateKey, node.provider);
    await (await twin.sendTransaction({ to: RECIPIENT, value: 1n, nonce: 1 })).wait();
    const result = await txSender.send(intent, logger);
    expect((await node.provider.getTransaction(result.hash))!.nonce).toBe(2);
    expect(logs.messages()).toContain("nonce refused by the node; re-synced from its pending count");
  });

  it("sends concurrent calls of one wallet in nonce order (an automining node refuses a nonce gap)", async () => {
    const { txSender, wallet, logs, logger } = sender();
    const results = await Promise.all(Array.from({ length: 8 }, () => txSender.send(intent, logger)));
    const nonces = await Promise.all(results.map(async (result) => (await node.provider.getTransaction(result.hash))!.nonce));
    expect([...nonces].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(logs.messages("warn")).toEqual([]);
    expect(await node.provider.getTransactionCount(wallet.address, "latest")).toBe(8);
  });

  it("records concurrent sends side by side, and no transaction reaches the node before its record", async () => {
    const { txSender, wallet, logger } = sender();
    const recorded = new Set<string>();
    let recordsAtOnce = 0;
    let mostAtOnce = 0;
    const beforeBroadcast = async (attempt: { txHash: string }) => {
      // A slow mailbox: 300 ms per record. One record after another, eight would take 2.4 s.
      mostAtOnce = Math.max(mostAtOnce, (recordsAtOnce += 1));
      expect(await node.provider.getTransaction(attempt.txHash)).toBeNull();
      await new Promise((resolve) => setTimeout(resolve, 300));
      recordsAtOnce -= 1;
      recorded.add(attempt.txHash);
    };
    const results = await Promise.all(Array.from({ length: 8 }, () => txSender.send(intent, logger, { beforeBroadcast })));
    expect(mostAtOnce).toBeGreaterThan(1);
    expect(results.every((result) => recorded.has(result.hash))).toBe(true);
    const nonces = await Promise.all(results.map(async (result) => (await node.provider.getTransaction(result.hash))!.nonce));
    expect([...nonces].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(await node.provider.getTransactionCount(wallet.address, "latest")).toBe(8);
  });

  it("leaves no nonce gap when one record of concurrent sends is refused", async () => {
    const { txSender, wallet, logger } = sender();
    let calls = 0;
    const beforeBroadcast = async () => {
      calls += 1;
      const refuse = calls === 2;
      await new Promise((resolve) => setTimeout(resolve, 100));
      if (refuse) throw new Error("the mailbox refused the record");
    };
    const outcomes = await Promise.allSettled(Array.from({ length: 5 }, () => txSender.send(intent, logger, { beforeBroadcast })));
    const failed = outcomes.filter((outcome) => outcome.status === "rejected");
    expect(failed).toHaveLength(1);
    expect(String((failed[0] as PromiseRejectedResult).reason)).toContain("the mailbox refused the record");
    // The refused one was never broadcast; the others (those behind it re-sent under fresh nonces) all mined, gap-free.
    expect(await node.provider.getTransactionCount(wallet.address, "latest")).toBe(4);
    expect(await node.provider.getTransactionCount(wallet.address, "pending")).toBe(4);
    const next = await txSender.send(intent, logger);
    expect((await node.provider.getTransaction(next.hash))!.nonce).toBe(4);
  });

  it("gives up with NonceTakenError when another transaction of the key displaces the pending one", async () => {
    const { txSender, wallet, logs, logger } = sender({}, { receiptTimeoutMs: 60_000 });
    await node.provider.send("evm_setAutomine", [false]);
    const sent = txSender.send(intent, logger).catch((error: unknown) => error);
    await waitFor(() => logs.messages().includes("transaction sent"));
    const twin = new Wallet(wallet.privateKey, node.provider);
    const fees = await txSender.marketFees();
    await twin.sendTransaction({
      to: RECIPIENT,
      value: 1n,
      nonce: 0,
      maxFeePerGas: fees.maxFeePerGas * 2n,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas * 2n,
    });
    await node.provider.send("evm_mine", []);
    expect(await sent).toBeInstanceOf(NonceTakenError);
  });
});
