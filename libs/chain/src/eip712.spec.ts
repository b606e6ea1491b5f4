import { TypedDataEncoder, id } from "ethers";

import {
  CLAIM_PRIMARY_TYPE,
  CLAIM_TYPES,
  CLAIM_TYPE_STRING,
  PURCHASE_PRIMARY_TYPE,
  PURCHASE_TYPES,
  PURCHASE_TYPE_STRING,
  exchangeDomain,
} from "./eip712";
import { TOKEN_TYPE_NAMES, TokenType, tokenTypeIndex, tokenTypeName } from "./token-type";

describe("EIP-712 purchase voucher", () => {
  it("encodes exactly the published type string", () => {
    const encoder = TypedDataEncoder.from(PURCHASE_TYPES);
    expect(encoder.primaryType).toBe(PURCHASE_PRIMARY_TYPE);
    expect(encoder.encodeType(PURCHASE_PRIMARY_TYPE)).toBe(PURCHASE_TYPE_STRING);
  });

  it("encodes the claim voucher type string the Exchange hashes", () => {
    const encoder = TypedDataEncoder.from(CLAIM_TYPES);
    expect(encoder.primaryType).toBe(CLAIM_PRIMARY_TYPE);
    expect(encoder.encodeType(CLAIM_PRIMARY_TYPE)).toBe(CLAIM_TYPE_STRING);
  });

  it("uses the EXCHANGE 1.0.0 domain", () => {
    const domain = exchangeDomain(31337, "0x1000000000000000000000000000000000000001");
    expect(domain).toMatchObject({ name: "EXCHANGE", version: "1.0.0", chainId: 31337n });
    expect(TypedDataEncoder.hashDomain(domain)).not.toBe(
      TypedDataEncoder.hashDomain(exchangeDomain(1, "0x1000000000000000000000000000000000000001")),
    );
    expect(id(PURCHASE_TYPE_STRING)).toMatch(/^0x[0-9a-f]{64}$/);
  });
});

describe("TokenType", () => {
  it("keeps the on-chain order NATIVE, ERC20, ERC721, ERC998, ERC1155", () => {
    expect(TOKEN_TYPE_NAMES).toEqual(["NATIVE", "ERC20", "ERC721", "ERC998", "ERC1155"]);
    expect(TOKEN_TYPE_NAMES.map(tokenTypeIndex)).toEqual([0, 1, 2, 3, 4]);
    expect(tokenTypeName(TokenType.ERC721)).toBe("ERC721");
    expect(tokenTypeName(4n)).toBe("ERC1155");
    expect(() => tokenTypeName(5)).toThrow(RangeError);
    expect(() => tokenTypeIndex("toString")).toThrow(RangeError);
  });
});
