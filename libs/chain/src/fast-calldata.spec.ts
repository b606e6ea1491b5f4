import { Wallet, getAddress, hexlify, randomBytes } from "ethers";

import { encodePurchaseWithAuthorization, type PurchaseAuthorization } from "./fast-calldata";
import { Exchange__factory } from "./typechain";
import type { PurchaseVoucher } from "./voucher";

const EXCHANGE = Exchange__factory.createInterface();
const MAX = (1n << 256n) - 1n;

/** ethers' encoding of the same call: what the fast encoder must equal, byte for byte. */
function reference(voucher: PurchaseVoucher, signature: string, authorization: PurchaseAuthorization): string {
  return EXCHANGE.encodeFunctionData("purchaseRaffleWithAuthorization", [
    voucher.params,
    voucher.item,
    voucher.price,
    signature,
    { from: voucher.account, ...authorization },
  ]);
}

function randomVoucher(): PurchaseVoucher {
  const address = () => Wallet.createRandom().address;
  return {
    account: address(),
    params: {
      externalId: 7n,
      expiresAt: 1_900_000_000n,
      nonce: hexlify(randomBytes(32)),
      extra: hexlify(randomBytes(32)),
      receiver: address(),
      referrer: address(),
    },
    item: { tokenType: 3, token: address(), tokenId: 1n, amount: 5n },
    price: { tokenType: 1, token: address(), tokenId: 0n, amount: 10n ** 18n },
  };
}

const bytes = (length: number) => hexlify(randomBytes(length));

describe("encodePurchaseWithAuthorization", () => {
  it("equals ethers' encoding for signatures of every length around the word boundaries (ERC-1271 wallets sign any length)", () => {
    for (const [voucherLength, authLength] of [
      [65, 65],
      [0, 0],
      [1, 31],
      [32, 33],
      [64, 96],
      [200, 1],
      [65, 1000],
    ]) {
      const voucher = randomVoucher();
      const authorization = { validAfter: 0n, validBefore: 1_900_000_000n, signature: bytes(authLength) };
      const signature = bytes(voucherLength);
      expect(encodePurchaseWithAuthorization(voucher, signature, authorization)).toBe(reference(voucher, signature, authorization));
    }
  });

  it("equals ethers' encoding at the edges of every number, and for addresses in any case ethers accepts", () => {
    const voucher = randomVoucher();
    const lower = { ...voucher, account: voucher.account.toLowerCase() };
    const upper = { ...voucher, params: { ...voucher.params, receiver: `0x${voucher.params.receiver.slice(2).toUpperCase()}` } };
    const edges: PurchaseVoucher = {
      ...voucher,
      params: { ...voucher.params, externalId: MAX, expiresAt: 0n, nonce: `0x${"FF".repeat(32)}`, extra: `0x${"00".repeat(32)}` },
      item: { ...voucher.item, tokenType: 255, tokenId: MAX, amount: 2n ** 48n },
      price: { ...voucher.price, tokenType: 0, tokenId: 2n ** 48n - 1n, amount: MAX },
    };
    const authorization = { validAfter: MAX, validBefore: 0n, signature: bytes(65) };
    const signature = `0x${"ab".repeat(65)}`;
    for (const each of [voucher, lower, upper, edges]) {
      expect(encodePurchaseWithAuthorization(each, signature, authorization)).toBe(reference(each, signature, authorization));
    }
  });

  it("refuses what ethers refuses: out-of-range numbers, a wrong checksum, a short bytes32, bad hex", () => {
    const voucher = randomVoucher();
    const authorization = { validAfter: 0n, validBefore: 1n, signature: bytes(65) };
    const checksummed = getAddress(voucher.params.referrer);
    const wrongChecksum =
      checksummed.slice(0, 2) +
      [...checksummed.slice(2)].map((c) => (/[a-f]/.test(c) ? c.toUpperCase() : /[A-F]/.test(c) ? c.toLowerCase() : c)).join("");
    const hostile: Array<[PurchaseVoucher, string, PurchaseAuthorization]> = [
      [{ ...voucher, params: { ...voucher.params, externalId: MAX + 1n } }, bytes(65), authorization],
      [{ ...voucher, item: { ...voucher.item, amount: -1n } }, bytes(65), authorization],
      [{ ...voucher, item: { ...voucher.item, tokenType: 256 } }, bytes(65), authorization],
      [{ ...voucher, params: { ...voucher.params, nonce: bytes(31) } }, bytes(65), authorization],
      [voucher, "0xabc", authorization],
      [voucher, bytes(65), { ...authorization, signature: "0xzz" }],
    ];
    if (wrongChecksum !== checksummed && wrongChecksum !== checksummed.toLowerCase()) {
      hostile.push([{ ...voucher, params: { ...voucher.params, referrer: wrongChecksum } }, bytes(65), authorization]);
    }
    for (const [badVoucher, signature, badAuthorization] of hostile) {
      expect(() => reference(badVoucher, signature, badAuthorization)).toThrow();
      expect(() => encodePurchaseWithAuthorization(badVoucher, signature, badAuthorization)).toThrow();
    }
  });

  it("encodes what ethers coerces (numbers for amounts, an address without 0x) exactly as ethers does", () => {
    const voucher = randomVoucher();
    const authorization = { validAfter: 0n, validBefore: 1n, signature: bytes(65) };
    const coerced = {
      ...voucher,
      item: { ...voucher.item, amount: 5 as unknown as bigint },
      price: { ...voucher.price, token: voucher.price.token.slice(2) },
    };
    expect(encodePurchaseWithAuthorization(coerced, bytes(0), authorization)).toBe(reference(coerced, "0x", authorization));
  });
});
