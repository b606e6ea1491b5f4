import { TypedDataEncoder, getBytes, id } from "ethers";
import secp256k1 from "secp256k1";

import { PURCHASE_TYPE_STRING, exchangeDomain } from "./eip712";
import { keccak256 } from "./keccak";
import type { AssetStruct, PurchaseParamsStruct } from "./purchase-args";
import { signDigest, type RecoverableSignature, type SigningThread } from "./signing-thread";
import type { PurchaseVoucher } from "./voucher";

const ASSET_TYPEHASH = getBytes(id("Asset(uint256 tokenType,address token,uint256 tokenId,uint256 amount)"));
const PARAMS_TYPEHASH = getBytes(id("Params(uint256 externalId,uint256 expiresAt,bytes32 nonce,bytes32 extra,address receiver,address referrer)"));
const PURCHASE_TYPEHASH = getBytes(id(PURCHASE_TYPE_STRING));

/** Largest value Buffer#writeUIntBE writes (6 bytes); timestamps, round ids and small amounts fit. */
const MAX_UINT48 = 2 ** 48 - 1;

/**
 * Writes `value` as one big-endian 32-byte ABI word at `offset`, whose bytes must be zero (a fresh or template
 * buffer). Values that fit in 48 bits skip the BigInt arithmetic (one allocation per byte otherwise).
 */
export function writeUint(target: Buffer, offset: number, value: bigint | number): void {
  if (typeof value === "number" ? Number.isSafeInteger(value) && value >= 0 && value <= MAX_UINT48 : value >= 0n && value <= MAX_UINT48) {
    target.writeUIntBE(Number(value), offset + 26, 6);
    return;
  }
  let remaining = BigInt(value);
  if (remaining < 0n || remaining >= 1n << 256n) throw new RangeError(`value out of uint256 range: ${value}`);
  for (let i = 31; i >= 0 && remaining > 0n; i -= 1) {
    target[offset + i] = Number(remaining & 0xffn);
    remaining >>= 8n;
  }
}

const HEX = /^0x[0-9a-fA-F]*$/;

/** Writes 0x-prefixed hex of exactly `byteLength` bytes right-aligned in the word at `offset`, decoding in place. */
export function writeHex(target: Buffer, offset: number, hex: string, byteLength: number): void {
  if (!HEX.test(hex) || hex.length % 2 !== 0) throw new RangeError(`invalid hex: ${hex}`);
  const length = (hex.length - 2) / 2;
  if (length !== byteLength) throw new RangeError(`expected ${byteLength} bytes, got ${length}`);
  target.write(hex.slice(2), offset + 32 - byteLength, byteLength, "hex");
}

function hashAsset(asset: AssetStruct): Uint8Array {
  const buffer = Buffer.alloc(32 * 5);
  buffer.set(ASSET_TYPEHASH, 0);
  writeUint(buffer, 32, asset.tokenType);
  writeHex(buffer, 64, asset.token, 20);
  writeUint(buffer, 96, asset.tokenId);
  writeUint(buffer, 128, asset.amount);
  return keccak256(buffer);
}

/** The encoded Params words a round's vouchers share (type hash, externalId, extra, receiver); the others zero. */
function paramsTemplate(params: PurchaseParamsStruct): Buffer {
  const buffer = Buffer.alloc(32 * 7);
  buffer.set(PARAMS_TYPEHASH, 0);
  writeUint(buffer, 32, params.externalId);
  writeHex(buffer, 128, params.extra, 32);
  writeHex(buffer, 160, params.receiver, 20);
  return buffer;
}

/** Caches hold at most this many entries; when full they are emptied (a round's entries come back at once). */
const MAX_CACHED = 10_000;

/**
 * The purchase voucher's EIP-712 digest built word by word, with the type hashes and the domain separator computed
 * once. It is about ten times faster than ethers' generic encoder, and a test holds it equal to that encoder.
 */
export class PurchaseDigester {
  private readonly domainSeparator: Uint8Array;
  private readonly assetHashes = new Map<string, Uint8Array>();
  private readonly paramsTemplates = new Map<string, Buffer>();

  constructor(chainId: bigint | number, exchange: string) {
    this.domainSeparator = getBytes(TypedDataEncoder.hashDomain(exchangeDomain(chainId, exchange)));
  }

  digest(voucher: PurchaseVoucher): Uint8Array {
    const struct = Buffer.alloc(32 * 5);
    struct.set(PURCHASE_TYPEHASH, 0);
    writeHex(struct, 32, voucher.account, 20);
    struct.set(this.hashParams(voucher.params), 64);
    struct.set(this.assetHash(voucher.item), 96);
    struct.set(this.assetHash(voucher.price), 128);
    const message = new Uint8Array(2 + 32 + 32);
    message[0] = 0x19;
    message[1] = 0x01;
    message.set(this.domainSeparator, 2);
    message.set(keccak256(struct), 34);
    return keccak256(message);
  }

  /** Only expiresAt, the nonce and the referrer change between the vouchers of a round: the rest is copied. */
  private hashParams(params: PurchaseParamsStruct): Uint8Array {
    const key = `${params.externalId}:${params.extra}:${params.receiver}`;
    let template = this.paramsTemplates.get(key);
    if (!template) {
      if (this.paramsTemplates.size >= MAX_CACHED) this.paramsTemplates.clear();
      template = paramsTemplate(params);
      this.paramsTemplates.set(key, template);
    }
    const buffer = Buffer.allocUnsafe(template.length);
    template.copy(buffer);
    writeUint(buffer, 64, params.expiresAt);
    writeHex(buffer, 96, params.nonce, 32);
    writeHex(buffer, 192, params.referrer, 20);
    return keccak256(buffer);
  }

  /** Ticket and price assets repeat across vouchers of a round: hash each distinct one once (bounded cache). */
  private assetHash(asset: AssetStruct): Uint8Array {
    const key = `${asset.tokenType}:${asset.token}:${asset.tokenId}:${asset.amount}`;
    let hash = this.assetHashes.get(key);
    if (!hash) {
      if (this.assetHashes.size >= MAX_CACHED) this.assetHashes.clear();
      hash = hashAsset(asset);
      this.assetHashes.set(key, hash);
    }
    return hash;
  }
}

/**
 * Signs purchase vouchers with the native secp256k1 binding (deterministic RFC 6979, low-s), giving byte-for-byte
 * the signature ethers' `Wallet.signTypedData` gives, at ~20k signatures per second per core. With a signing thread,
 * `signAsync` builds the digest here and leaves the signature to that thread.
 */
export class FastVoucherSigner {
  private readonly digester: PurchaseDigester;
  private readonly privateKey: Uint8Array;
  private readonly keyId: number | undefined;

  constructor(
    privateKey: string,
    chainId: bigint | number,
    exchange: string,
    private readonly thread?: SigningThread,
  ) {
    this.privateKey = getBytes(privateKey);
    if (!secp256k1.privateKeyVerify(this.privateKey)) throw new Error("invalid signer private key");
    this.digester = new PurchaseDigester(chainId, exchange);
    this.keyId = thread?.addKey(this.privateKey);
  }

  sign(voucher: PurchaseVoucher): string {
    return signatureHex(signDigest(this.digester.digest(voucher), this.privateKey));
  }

  /** The same signature as `sign`, made on the signing thread when there is one. */
  async signAsync(voucher: PurchaseVoucher): Promise<string> {
    if (!this.thread || this.keyId === undefined) return this.sign(voucher);
    return signatureHex(await this.thread.sign(this.keyId, this.digester.digest(voucher)));
  }
}

/** r, s and v (27 or 28) as one 0x-prefixed 65-byte hex string, as ethers writes a signature. */
function signatureHex({ signature, recid }: RecoverableSignature): string {
  return `0x${Buffer.from(signature.buffer, signature.byteOffset, signature.byteLength).toString("hex")}${(27 + recid).toString(16)}`;
}
