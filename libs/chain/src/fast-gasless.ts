import { TypedDataEncoder, getBytes, id, type TypedDataDomain } from "ethers";
import secp256k1 from "secp256k1";

import { writeHex, writeUint } from "./fast-voucher";
import { checksumAddress, keccak256 } from "./keccak";

/**
 * The gasless intake's hot checks done natively (issue #52): recovering a signature's signer and building the ERC-3009
 * authorization digest. ethers' `recoverAddress` (pure JS) took about 40 times the native binding's time and
 * `TypedDataEncoder.hash` about 10 times a hand-built digest; tests hold both equal to ethers.
 */

/** Half the curve order: OpenZeppelin's ECDSA (and so the Exchange and the tokens) refuses a larger `s`. */
const HALF_ORDER = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n;
const SIGNATURE_TEXT = /^0x[0-9a-fA-F]{130}$/;
const DIGEST_TEXT = /^0x[0-9a-fA-F]{64}$/;

/**
 * The address whose key signed `digest` with a 65-byte signature (r, s, v), or null where the chain's `ecrecover`
 * behind OpenZeppelin's ECDSA finds none: not 65 bytes of hex, `v` other than 27 or 28, `s` in the upper half, or no
 * point recovered. (ethers also takes `v` 0 or 1 and an upper-half `s` whose top bit is clear, which the chain refuses.)
 */
export function recoverDigestSigner(digest: string | Uint8Array, signature: string): string | null {
  if (typeof signature !== "string" || !SIGNATURE_TEXT.test(signature)) return null;
  if (typeof digest === "string" && !DIGEST_TEXT.test(digest)) return null;
  const bytes = Buffer.from(signature.slice(2), "hex");
  const v = bytes[64];
  if (v !== 27 && v !== 28) return null;
  if (BigInt(`0x${signature.slice(66, 130)}`) > HALF_ORDER) return null;
  const message = typeof digest === "string" ? Buffer.from(digest.slice(2), "hex") : digest;
  if (message.length !== 32) return null;
  try {
    const publicKey = secp256k1.ecdsaRecover(bytes.subarray(0, 64), v - 27, message, false);
    return checksumAddress(`0x${keccak256(publicKey.subarray(1)).subarray(12).toString("hex")}`);
  } catch {
    // r or s zero or beyond the curve order, or no point with this x: nothing signed it.
    return null;
  }
}

const RECEIVE_WITH_AUTHORIZATION_TYPEHASH = getBytes(
  id("ReceiveWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)"),
);
/** Domain separators of the price tokens seen (a handful): each hashed once. */
const domainSeparators = new Map<string, Uint8Array>();
const MAX_DOMAINS = 1_000;

function domainSeparator(domain: TypedDataDomain): Uint8Array {
  const key = `${domain.name}\u0000${domain.version}\u0000${domain.chainId}\u0000${String(domain.verifyingContract).toLowerCase()}`;
  let separator = domainSeparators.get(key);
  if (!separator) {
    if (domainSeparators.size >= MAX_DOMAINS) domainSeparators.clear();
    separator = getBytes(TypedDataEncoder.hashDomain(domain));
    domainSeparators.set(key, separator);
  }
  return separator;
}

/** ERC-3009's `ReceiveWithAuthorization` digest on the token's domain, built word by word (equal to ethers' encoder). */
export function receiveAuthorizationDigest(
  token: TypedDataDomain,
  message: { from: string; to: string; value: bigint; validAfter: bigint; validBefore: bigint; nonce: string | Uint8Array },
): string {
  const struct = Buffer.alloc(32 * 7);
  struct.set(RECEIVE_WITH_AUTHORIZATION_TYPEHASH, 0);
  writeHex(struct, 32, message.from, 20);
  writeHex(struct, 64, message.to, 20);
  writeUint(struct, 96, message.value);
  writeUint(struct, 128, message.validAfter);
  writeUint(struct, 160, message.validBefore);
  if (typeof message.nonce === "string") writeHex(struct, 192, message.nonce, 32);
  else if (message.nonce.length === 32) struct.set(message.nonce, 192);
  else throw new RangeError(`expected a 32-byte nonce, got ${message.nonce.length} bytes`);
  const envelope = Buffer.alloc(2 + 32 + 32);
  envelope[0] = 0x19;
  envelope[1] = 0x01;
  envelope.set(domainSeparator(token), 2);
  envelope.set(keccak256(struct), 34);
  return `0x${keccak256(envelope).toString("hex")}`;
}
