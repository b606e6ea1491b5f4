import { Wallet, ZeroAddress, hexlify, randomBytes, verifyTypedData, getBytes } from "ethers";

import { PURCHASE_TYPES, RAFFLE_PURCHASE_EXTRA, exchangeDomain } from "./eip712";
import { FastVoucherSigner, PurchaseDigester } from "./fast-voucher";
import { TokenType } from "./token-type";
import { purchaseVoucherDigest, type PurchaseVoucher } from "./voucher";

const EXCHANGE = "0x5FbDB2315678afecb367f032d93F642f64180aa3";

function randomAddress(): string {
  return Wallet.createRandom().address;
}

function randomVoucher(index: number): PurchaseVoucher {
  const big = (bytes: number) => BigInt(hexlify(randomBytes(bytes)));
  return {
    account: randomAddress(),
    params: {
      externalId: big(index % 3 === 0 ? 32 : 4),
      expiresAt: big(5),
      nonce: hexlify(randomBytes(32)),
      extra: RAFFLE_PURCHASE_EXTRA,
      receiver: randomAddress(),
      referrer: index % 2 === 0 ? ZeroAddress : randomAddress(),
    },
    item: { tokenType: TokenType.ERC721, token: randomAddress(), tokenId: 0n, amount: 1n },
    price: {
      tokenType: index % 2 === 0 ? TokenType.NATIVE : TokenType.ERC20,
      token: index % 2 === 0 ? ZeroAddress : randomAddress(),
      tokenId: 0n,
      amount: big(index % 5 === 0 ? 32 : 12),
    },
  };
}

describe("fast voucher signing", () => {
  it("builds exactly ethers' EIP-712 digest", () => {
    for (const chainId of [1n, 31337n]) {
      const digester = new PurchaseDigester(chainId, EXCHANGE);
      for (let i = 0; i < 50; i += 1) {
        const voucher = randomVoucher(i);
        expect(hexlify(digester.digest(voucher))).toBe(purchaseVoucherDigest(chainId, EXCHANGE, voucher));
      }
    }
  });

  it("gives each voucher of one round its own digest (the round's words reused, expiresAt, nonce and referrer not)", () => {
    const digester = new PurchaseDigester(31337n, EXCHANGE);
    const round = randomVoucher(1);
    // Both sides of the 48-bit fast path for integers, and values that differ only in the bytes it writes.
    const expiries = [0n, 1n, 2n ** 48n - 1n, 2n ** 48n, 2n ** 200n + 5n, 1_900_000_000n, 1_900_000_001n];
    const seen = new Set<string>();
    for (const [index, expiresAt] of expiries.entries()) {
      const voucher: PurchaseVoucher = {
        ...round,
        params: { ...round.params, expiresAt, nonce: hexlify(randomBytes(32)), referrer: index % 2 === 0 ? ZeroAddress : randomAddress() },
      };
      const digest = hexlify(digester.digest(voucher));
      expect(digest).toBe(purchaseVoucherDigest(31337n, EXCHANGE, voucher));
      seen.add(digest);
    }
    expect(seen.size).toBe(expiries.length);
    // A round whose words differ (another externalId, another receiver) gets its own template.
    const other = { ...round, params: { ...round.params, externalId: round.params.externalId + 1n, receiver: randomAddress() } };
    expect(hexlify(digester.digest(other))).toBe(purchaseVoucherDigest(31337n, EXCHANGE, other));
  });

  it("signs byte for byte like Wallet.signTypedData, and the signature recovers to the signer", async () => {
    const wallet = Wallet.createRandom();
    const signer = new FastVoucherSigner(wallet.privateKey, 31337n, EXCHANGE);
    for (let i = 0; i < 10; i += 1) {
      const voucher = randomVoucher(i);
      const fast = signer.sign(voucher);
      expect(fast).toBe(await wallet.signTypedData(exchangeDomain(31337n, EXCHANGE), PURCHASE_TYPES, voucher));
      expect(verifyTypedData(exchangeDomain(31337n, EXCHANGE), PURCHASE_TYPES, voucher, fast)).toBe(wallet.address);
      // Low-s only: the Exchange rejects malleable signatures.
      const s = BigInt(hexlify(getBytes(fast).slice(32, 64)));
      expect(s <= 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n).toBe(true);
    }
  });

  it("rejects out-of-range values and bad keys", () => {
    const digester = new PurchaseDigester(1n, EXCHANGE);
    const voucher = randomVoucher(1);
    expect(() => digester.digest({ ...voucher, params: { ...voucher.params, externalId: -1n } })).toThrow(RangeError);
    expect(() => digester.digest({ ...voucher, params: { ...voucher.params, nonce: "0x1234" } })).toThrow(RangeError);
    // Hex is decoded in place, so anything but whole 0x-prefixed hex digits is refused rather than half-written.
    expect(() => digester.digest({ ...voucher, account: `0x${"zz".repeat(20)}` })).toThrow(/invalid hex/);
    expect(() => digester.digest({ ...voucher, account: `${"ab".repeat(21)}` })).toThrow(/invalid hex/);
    expect(() => digester.digest({ ...voucher, account: `0x${"a".repeat(41)}` })).toThrow(/invalid hex/);
    expect(() => new FastVoucherSigner(`0x${"00".repeat(32)}`, 1n, EXCHANGE)).toThrow(/invalid signer private key/);
  });
});
