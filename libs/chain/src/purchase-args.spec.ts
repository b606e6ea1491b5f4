import { ZeroAddress, decodeBytes32String } from "ethers";

import { buildPurchaseArgs, type RoundForPurchase } from "./purchase-args";
import { TokenType } from "./token-type";

const RAFFLE = "0x1000000000000000000000000000000000000001";
const TICKET = "0x2000000000000000000000000000000000000002";
const ERC20 = "0x3000000000000000000000000000000000000003";
const REFERRER = "0x4000000000000000000000000000000000000004";

function round(components: RoundForPurchase["price"]["components"]): RoundForPurchase {
  return { id: 42, contract: { address: RAFFLE }, ticketContract: { address: TICKET }, price: { components } };
}

const erc20Component = {
  tokenType: "ERC20",
  amount: "1000000000000000000000000000001", // above 2^53: must survive as an exact integer
  contract: { address: ERC20 },
  template: { tokens: [{ tokenId: "0" }] },
};
const nativeComponent = {
  tokenType: "NATIVE",
  amount: "25000000000000000",
  contract: { address: ZeroAddress },
  template: { tokens: [{ tokenId: "0" }] },
};
const signature = { nonce: `0x${"ab".repeat(32)}`, signature: `0x${"cd".repeat(65)}`, expiresAt: 1_900_000_000 };

describe("buildPurchaseArgs (spec 4.5)", () => {
  const args = buildPurchaseArgs(round([erc20Component]), signature);

  it("rule 1: params.externalId is the round's id", () => {
    expect(args.params.externalId).toBe(42n);
  });

  it("rule 2: params.expiresAt is the sign response's expiresAt", () => {
    expect(args.params.expiresAt).toBe(1_900_000_000n);
    expect(buildPurchaseArgs(round([erc20Component]), { ...signature, expiresAt: "1900000001" }).params.expiresAt).toBe(1_900_000_001n);
  });

  it("rule 3: params.nonce is the sign response's nonce", () => {
    expect(args.params.nonce).toBe(signature.nonce);
  });

  it('rule 4: params.extra is bytes32 of the short string "0x"', () => {
    expect(args.params.extra).toMatch(/^0x[0-9a-f]{64}$/);
    expect(decodeBytes32String(args.params.extra)).toBe("0x");
  });

  it("rule 5: params.receiver is the round's raffle contract", () => {
    expect(args.params.receiver).toBe(RAFFLE);
  });

  it("rule 6: params.referrer is the zero address unless the sign request named one", () => {
    expect(args.params.referrer).toBe(ZeroAddress);
    expect(buildPurchaseArgs(round([erc20Component]), signature, REFERRER).params.referrer).toBe(REFERRER);
  });

  it("rule 7: item is one ERC721 ticket of the round's ticket contract", () => {
    expect(args.item).toEqual({ tokenType: TokenType.ERC721, token: TICKET, tokenId: 0n, amount: 1n });
    expect(args.item.tokenType).toBe(2);
  });

  it("rule 8: price maps the first price component", () => {
    expect(args.price).toEqual({
      tokenType: TokenType.ERC20,
      token: ERC20,
      tokenId: 0n,
      amount: 1_000_000_000_000_000_000_000_000_000_001n,
    });
    const nft = { ...erc20Component, tokenType: "ERC721", amount: "1", template: { tokens: [{ tokenId: "77" }] } };
    expect(buildPurchaseArgs(round([nft, nativeComponent]), signature).price.tokenId).toBe(77n);
  });

  it("rule 9: signature is the sign response's signature", () => {
    expect(args.signature).toBe(signature.signature);
  });

  it("rule 10: value is the sum of NATIVE components, zero without any", () => {
    expect(args.value).toBe(0n);
    expect(buildPurchaseArgs(round([nativeComponent]), signature).value).toBe(25_000_000_000_000_000n);
    expect(buildPurchaseArgs(round([nativeComponent, erc20Component, nativeComponent]), signature).value).toBe(50_000_000_000_000_000n);
  });

  it("rejects a round without price components and an unknown token type", () => {
    expect(() => buildPurchaseArgs(round([]), signature)).toThrow(/no price component/);
    expect(() => buildPurchaseArgs(round([{ ...erc20Component, tokenType: "GOLD" }]), signature)).toThrow(/unknown token type/);
  });

  it("several tickets: the item is the quantity and the price the signed total, paid in native value when NATIVE", () => {
    const several = buildPurchaseArgs(round([erc20Component]), signature, ZeroAddress, { quantity: 5n, amount: 45n });
    expect(several.item).toEqual({ tokenType: TokenType.ERC721, token: TICKET, tokenId: 0n, amount: 5n });
    expect(several.price).toEqual({ tokenType: TokenType.ERC20, token: ERC20, tokenId: 0n, amount: 45n });
    expect(several.value).toBe(0n);
    const native = buildPurchaseArgs(round([nativeComponent]), signature, ZeroAddress, { quantity: 10n, amount: 80n });
    expect(native.value).toBe(80n);
    expect(() => buildPurchaseArgs(round([erc20Component]), signature, ZeroAddress, { quantity: 0n, amount: 0n })).toThrow(RangeError);
  });
});
