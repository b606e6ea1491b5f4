import { Signature, TypedDataEncoder, Wallet, hexlify, randomBytes, recoverAddress, toBeHex } from "ethers";

import { recoverDigestSigner, receiveAuthorizationDigest } from "./fast-gasless";
import { RECEIVE_WITH_AUTHORIZATION_TYPES, tokenDomain } from "./gasless";

const ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

describe("fast gasless checks", () => {
  it("recovers the signer as ethers does, for many keys and digests", () => {
    for (let i = 0; i < 20; i += 1) {
      const wallet = Wallet.createRandom();
      const digest = hexlify(randomBytes(32));
      const signature = wallet.signingKey.sign(digest).serialized;
      expect(recoverDigestSigner(digest, signature)).toBe(wallet.address);
      expect(recoverDigestSigner(Buffer.from(digest.slice(2), "hex"), signature)).toBe(recoverAddress(digest, signature));
      // Another digest recovers another address, never the signer.
      expect(recoverDigestSigner(hexlify(randomBytes(32)), signature)).not.toBe(wallet.address);
    }
  });

  it("finds no signer where the chain's ECDSA finds none: malformed, v 0/1 or 29, upper-half s, zero r", () => {
    const wallet = Wallet.createRandom();
    const digest = hexlify(randomBytes(32));
    const signature = Signature.from(wallet.signingKey.sign(digest));
    const body = signature.serialized.slice(0, 130);
    expect(recoverDigestSigner(digest, "0x")).toBeNull();
    expect(recoverDigestSigner(digest, `${signature.serialized}00`)).toBeNull();
    expect(recoverDigestSigner(digest, `0x${"zz".repeat(65)}`)).toBeNull();
    expect(recoverDigestSigner(digest, `${body}${(signature.v - 27).toString(16).padStart(2, "0")}`)).toBeNull();
    expect(recoverDigestSigner(digest, `${body}1d`)).toBeNull();
    // The malleable twin (n - s, the other v) recovers the same key in ethers' eyes; the Exchange refuses it.
    const highS = toBeHex(ORDER - BigInt(signature.s), 32).slice(2);
    const twin = `${signature.r}${highS}${(signature.v === 27 ? 28 : 27).toString(16)}`;
    expect(recoverDigestSigner(digest, twin)).toBeNull();
    expect(recoverDigestSigner(digest, `0x${"00".repeat(32)}${signature.s.slice(2)}${signature.v.toString(16)}`)).toBeNull();
    expect(recoverDigestSigner("0x1234", signature.serialized)).toBeNull();
  });

  it("builds the ERC-3009 authorization digest equal to ethers' encoder", () => {
    for (let i = 0; i < 10; i += 1) {
      const domain = tokenDomain(i % 2 ? "USD Coin" : "Demo Token", i % 2 ? "2" : "1", 31337 + i, Wallet.createRandom().address);
      const message = {
        from: Wallet.createRandom().address,
        to: Wallet.createRandom().address.toLowerCase(),
        value: BigInt(hexlify(randomBytes(i % 3 === 0 ? 32 : 5))),
        validAfter: BigInt(i),
        validBefore: BigInt(hexlify(randomBytes(6))),
        nonce: hexlify(randomBytes(32)),
      };
      const expected = TypedDataEncoder.hash(domain, RECEIVE_WITH_AUTHORIZATION_TYPES, message);
      expect(receiveAuthorizationDigest(domain, message)).toBe(expected);
      expect(receiveAuthorizationDigest(domain, { ...message, nonce: Buffer.from(message.nonce.slice(2), "hex") })).toBe(expected);
    }
  });
});
