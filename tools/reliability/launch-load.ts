import { Signature, Transaction, Wallet, ZeroAddress, getBytes, hexlify, parseUnits, toQuantity } from "ethers";
import { Exchange__factory, FastVoucherSigner, LOCAL_DEV_KEYS, NonceSequence, RAFFLE_PURCHASE_EXTRA, TokenType, signDigest } from "@raffle/chain";
import type { TestRaffle, TestWorld } from "@raffle/chain/testing";

const EXCHANGE = Exchange__factory.createInterface();
/** Purchases a sender keeps in flight at once; past it, a tick's purchases are not sent (counted as `skipped`). */
const MAX_IN_FLIGHT = 256;
/** The load's fee cap: far above anvil's base fee, which a run of full blocks raises 12.5 % a block. */
const MAX_FEE = parseUnits("100", "gwei");
const TIP = parseUnits("1", "gwei");

/** One JSON-RPC call to the node (plain fetch: ethers' provider adds a batching delay and its own checks). */
export async function rpc<T>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const answer = (await response.json()) as { result?: T; error?: { message: string } };
  if (answer.error) throw new Error(`${method}: ${answer.error.message}`);
  return answer.result as T;
}

/** JSON-RPC calls in batches of 100 (receipts of thousands of purchases after the run). */
export async function rpcBatch<T>(url: string, method: string, paramsList: unknown[][]): Promise<T[]> {
  const results: T[] = [];
  for (let start = 0; start < paramsList.length; start += 100) {
    const chunk = paramsList.slice(start, start + 100).map((params, index) => ({ jsonrpc: "2.0", id: index, method, params }));
    const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(chunk) });
    const answers = (await response.json()) as Array<{ id: number; result?: T; error?: { message: string } }>;
    for (const answer of answers.sort((a, b) => a.id - b.id)) {
      if (answer.error) throw new Error(`${method}: ${answer.error.message}`);
      results.push(answer.result as T);
    }
  }
  return results;
}

export interface Sent {
  hash: string;
  at: number;
}

/**
 * Players buying one ticket each, open loop at a given rate: every purchase is a voucher signed with the platform's
 * signer key (as the API signs it: the sign route's own load is the soak's and the bench's) and a raw transaction of
 * one of `buyers` funded accounts, each with its own nonce count, so purchases go out side by side without waiting
 * for each other. Signing uses the native secp256k1 binding: ethers' JavaScript signing would cap the rate first.
 */
export class PurchaseLoad {
  readonly sent: Sent[] = [];
  /** Purchases the node refused at sending, and ticks' purchases not sent because MAX_IN_FLIGHT were still out. */
  refused = 0;
  skipped = 0;
  lastRefusal = "";
  private inFlight = 0;
  private next = 0;
  private readonly nonces: number[];
  private readonly voucherSigner: FastVoucherSigner;
  private readonly voucherNonces = new NonceSequence();

  private constructor(
    private readonly rpcUrl: string,
    private readonly world: TestWorld,
    private readonly raffle: TestRaffle,
    private readonly buyers: Wallet[],
    private readonly gasLimit: bigint,
  ) {
    this.nonces = buyers.map(() => 0);
    this.voucherSigner = new FastVoucherSigner(LOCAL_DEV_KEYS.voucherSigner, world.deployment.chainId, world.deployment.exchange);
  }

  /** Funds `count` fresh buyers on the node and measures a purchase's gas once (its limit: that and half again). */
  static async create(rpcUrl: string, world: TestWorld, raffle: TestRaffle, count: number): Promise<PurchaseLoad> {
    const buyers = Array.from({ length: count }, () => new Wallet(hexlify(crypto.getRandomValues(new Uint8Array(32)))));
    for (const buyer of buyers) await rpc(rpcUrl, "hardhat_setBalance", [buyer.address, toQuantity(parseUnits("1000000", 18))]);
    const load = new PurchaseLoad(rpcUrl, world, raffle, buyers, 0n);
    const probe = load.purchase(0);
    const gas = BigInt(
      await rpc<string>(rpcUrl, "eth_estimateGas", [
        { from: buyers[0].address, to: world.deployment.exchange, data: probe.data, value: toQuantity(probe.value) },
      ]),
    );
    return new PurchaseLoad(rpcUrl, world, raffle, buyers, (gas * 3n) / 2n);
  }

  /** The call data and value of one purchase by buyer `index`, with a fresh voucher. */
  private purchase(index: number): { data: string; value: bigint } {
    const params = {
      externalId: 1n,
      expiresAt: BigInt(Math.floor(Date.now() / 1000) + 3_600),
      nonce: this.voucherNonces.take(),
      extra: RAFFLE_PURCHASE_EXTRA,
      receiver: this.raffle.raffle,
      referrer: ZeroAddress,
    };
    const item = { tokenType: TokenType.ERC721, token: this.raffle.ticket, tokenId: 0n, amount: 1n };
    const price = this.raffle.price;
    const signature = this.voucherSigner.sign({ account: this.buyers[index].address, params, item, price });
    return { data: EXCHANGE.encodeFunctionData("purchaseRaffle", [params, item, price, signature]), value: BigInt(price.amount) };
  }

  /** Signs and sends one purchase of the next buyer in turn; resolves when the node has answered. */
  private async sendOne(): Promise<void> {
    const index = this.next;
    this.next = (this.next + 1) % this.buyers.length;
    const { data, value } = this.purchase(index);
    const tx = Transaction.from({
      type: 2,
      chainId: this.world.deployment.chainId,
      nonce: this.nonces[index],
      to: this.world.deployment.exchange,
      data,
      value,
      gasLimit: this.gasLimit,
      maxFeePerGas: MAX_FEE,
      maxPriorityFeePerGas: TIP,
    });
    this.nonces[index] += 1;
    const { signature, recid } = signDigest(getBytes(tx.unsignedHash), getBytes(this.buyers[index].privateKey));
    tx.signature = Signature.from({ r: hexlify(signature.subarray(0, 32)), s: hexlify(signature.subarray(32, 64)), v: 27 + recid });
    this.inFlight += 1;
    try {
      const hash = await rpc<string>(this.rpcUrl, "eth_sendRawTransaction", [tx.serialized]);
      this.sent.push({ hash, at: Date.now() });
    } catch (error) {
      // The nonce is taken back from the node: a refused transaction must not leave a gap that holds the buyer's next.
      this.refused += 1;
      this.lastRefusal = error instanceof Error ? error.message : String(error);
      this.nonces[index] = Number(
        BigInt(await rpc<string>(this.rpcUrl, "eth_getTransactionCount", [this.buyers[index].address, "pending"]).catch(() => "0x0")),
      );
    } finally {
      this.inFlight -= 1;
    }
  }

  /**
   * Sends `rate` purchases a second for `ms`, open loop: each 10 ms tick sends what the schedule is behind by, so a
   * slow answer of the node does not lower the rate offered. Resolves when every purchase sent has been answered, with
   * the purchases the schedule asked for, those offered (fewer when this process's own event loop fell behind), and
   * those the node accepted.
   */
  async run(rate: number, ms: number): Promise<{ scheduled: number; offered: number; sent: number }> {
    const started = Date.now();
    const before = this.sent.length;
    const pending = new Set<Promise<void>>();
    let offered = 0;
    while (Date.now() - started < ms) {
      const due = Math.floor(((Date.now() - started) / 1_000) * rate);
      for (; offered < due; offered += 1) {
        if (this.inFlight >= MAX_IN_FLIGHT) {
          this.skipped += 1;
          continue;
        }
        const sending = this.sendOne();
        pending.add(sending);
        void sending.finally(() => pending.delete(sending));
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await Promise.all(pending);
    return { scheduled: Math.floor((ms / 1_000) * rate), offered, sent: this.sent.length - before };
  }
}
