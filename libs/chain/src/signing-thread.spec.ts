import { spawnSync } from "node:child_process";
import * as path from "node:path";
import type { Worker } from "node:worker_threads";
import { Wallet, ZeroAddress, getAddress, hexlify, randomBytes } from "ethers";

import { PURCHASE_TYPES, RAFFLE_PURCHASE_EXTRA, exchangeDomain } from "./eip712";
import { FastVoucherSigner } from "./fast-voucher";
import { SigningThread } from "./signing-thread";
import { TokenType } from "./token-type";
import type { PurchaseVoucher } from "./voucher";

const EXCHANGE = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const CHAIN_ID = 31337n;

function voucher(index: number): PurchaseVoucher {
  return {
    account: getAddress(hexlify(randomBytes(20))),
    params: {
      externalId: BigInt(index),
      expiresAt: 1_900_000_000n + BigInt(index),
      nonce: hexlify(randomBytes(32)),
      extra: RAFFLE_PURCHASE_EXTRA,
      receiver: ZeroAddress,
      referrer: ZeroAddress,
    },
    item: { tokenType: TokenType.ERC721, token: EXCHANGE, tokenId: 0n, amount: 1n },
    price: { tokenType: TokenType.NATIVE, token: ZeroAddress, tokenId: 0n, amount: 10n ** 15n },
  };
}

/** The thread's worker, to end it as a crash would. */
function workerOf(thread: SigningThread): Worker {
  return (thread as unknown as { worker: Worker }).worker;
}

describe("signing thread", () => {
  const wallets = [Wallet.createRandom(), Wallet.createRandom()];

  it("gives ethers' own signatures, for several keys, the vouchers of one pass in one batch", async () => {
    const thread = new SigningThread();
    try {
      const signers = wallets.map((wallet) => new FastVoucherSigner(wallet.privateKey, CHAIN_ID, EXCHANGE, thread));
      const vouchers = Array.from({ length: 40 }, (_, index) => voucher(index));
      const signatures = await Promise.all(vouchers.map((each, index) => signers[index % 2].signAsync(each)));
      const expected = await Promise.all(
        vouchers.map((each, index) => wallets[index % 2].signTypedData(exchangeDomain(CHAIN_ID, EXCHANGE), PURCHASE_TYPES, each)),
      );
      expect(signatures).toEqual(expected);
      // All forty were asked for in one pass: one message to the thread.
      expect((thread as unknown as { nextBatchId: number }).nextBatchId).toBe(1);
    } finally {
      await thread.close();
    }
  });

  it("signs with a key added after the thread started", async () => {
    const thread = new SigningThread();
    try {
      const first = new FastVoucherSigner(wallets[0].privateKey, CHAIN_ID, EXCHANGE, thread);
      await first.signAsync(voucher(1));
      const later = new FastVoucherSigner(wallets[1].privateKey, CHAIN_ID, EXCHANGE, thread);
      const each = voucher(2);
      expect(await later.signAsync(each)).toBe(later.sign(each));
      expect(later.sign(each)).not.toBe(first.sign(each));
    } finally {
      await thread.close();
    }
  });

  it("signs on the calling thread what a failed thread owed, and every voucher after, and reports the failure once", async () => {
    const failures: Error[] = [];
    const thread = new SigningThread((error) => failures.push(error));
    const signer = new FastVoucherSigner(wallets[0].privateKey, CHAIN_ID, EXCHANGE, thread);
    await signer.signAsync(voucher(0));
    const vouchers = Array.from({ length: 50 }, (_, index) => voucher(index));
    const owed = vouchers.map((each) => signer.signAsync(each));
    // A message the thread cannot read, ahead of the batch above (sent on the next tick): the thread throws and ends
    // with that batch unanswered.
    workerOf(thread).postMessage({ id: -1 });
    expect(await Promise.all(owed)).toEqual(vouchers.map((each) => signer.sign(each)));
    const after = voucher(7);
    expect(await signer.signAsync(after)).toBe(signer.sign(after));
    expect(failures).toHaveLength(1);
    expect(failures[0].message).not.toContain(wallets[0].privateKey.slice(2));
    expect(workerOf(thread)).toBeNull();
  });

  it("settles what it owed on close, then signs on the calling thread", async () => {
    const thread = new SigningThread();
    const signer = new FastVoucherSigner(wallets[1].privateKey, CHAIN_ID, EXCHANGE, thread);
    const vouchers = Array.from({ length: 500 }, (_, index) => voucher(index));
    const owed = vouchers.map((each) => signer.signAsync(each));
    await new Promise((resolve) => process.nextTick(resolve));
    await thread.close();
    expect(await Promise.all(owed)).toEqual(vouchers.map((each) => signer.sign(each)));
    const after = voucher(3);
    expect(await signer.signAsync(after)).toBe(signer.sign(after));
  });

  it("lets the process exit with its own code while the thread is signing (the binding would abort it)", () => {
    const script = `
      const { SigningThread } = require(${JSON.stringify(path.join(__dirname, "signing-thread"))});
      const { randomBytes } = require("node:crypto");
      const thread = new SigningThread();
      const key = thread.addKey(randomBytes(32));
      for (let i = 0; i < 20000; i += 1) void thread.sign(key, randomBytes(32));
      // Exits once the thread is inside the binding (its busy slot set), as a crash or a signal could.
      setInterval(() => thread.state[0] === 1 && process.exit(3), 1);
      setTimeout(() => process.exit(4), 20000);`;
    const child = spawnSync(process.execPath, ["-r", "ts-node/register/transpile-only", "-e", script], { encoding: "utf8", timeout: 30_000 });
    expect(child.stderr).not.toContain("terminate called");
    expect(child.status).toBe(3);
  });

  it("refuses a key it was never given, and keeps signing", async () => {
    const thread = new SigningThread();
    try {
      const signer = new FastVoucherSigner(wallets[0].privateKey, CHAIN_ID, EXCHANGE, thread);
      await expect(thread.sign(1, new Uint8Array(32))).rejects.toThrow(RangeError);
      const each = voucher(9);
      expect(await signer.signAsync(each)).toBe(signer.sign(each));
    } finally {
      await thread.close();
    }
  });

  it("signs here without a thread", async () => {
    const signer = new FastVoucherSigner(wallets[0].privateKey, CHAIN_ID, EXCHANGE);
    const each = voucher(5);
    expect(await signer.signAsync(each)).toBe(await wallets[0].signTypedData(exchangeDomain(CHAIN_ID, EXCHANGE), PURCHASE_TYPES, each));
  });
});
