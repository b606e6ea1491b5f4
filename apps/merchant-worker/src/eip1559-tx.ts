import { encodeRlp, toBeHex } from "ethers";
import { keccak256, signDigest } from "@raffle/chain";

/** The fields of an EIP-1559 (type 2) call without an access list: what the merchant worker sends. */
export interface Eip1559Call {
  chainId: number;
  nonce: number;
  maxPriorityFeePerGas: bigint;
  maxFeePerGas: bigint;
  gasLimit: bigint;
  to: string;
  data: string;
  value: bigint;
}

const ADDRESS_TEXT = /^0x[0-9a-fA-F]{40}$/;
const BYTES_TEXT = /^0x(?:[0-9a-fA-F]{2})*$/;
const MAX_UINT256 = (1n << 256n) - 1n;

/**
 * Signs a type-2 transaction, hashed and signed natively: ethers' `Transaction` hashed it in JavaScript twice (its
 * unsigned hash, then the raw bytes' hash) and re-read the calldata's hex into bytes each time, about 2 ms a send,
 * inside the nonce lock that orders a key's sends. The RLP is ethers' own (`encodeRlp`), and a test holds the bytes
 * equal to ethers' serialization and hash. Answers the raw transaction and its hash.
 */
export function signEip1559Call(call: Eip1559Call, privateKey: Uint8Array): { raw: string; hash: string } {
  if (!ADDRESS_TEXT.test(call.to)) throw new TypeError(`not a 20-byte hex address: ${call.to}`);
  if (!BYTES_TEXT.test(call.data)) throw new TypeError("calldata is not 0x-prefixed hex of whole bytes");
  const fields = [
    rlpUint(call.chainId),
    rlpUint(call.nonce),
    rlpUint(call.maxPriorityFeePerGas),
    rlpUint(call.maxFeePerGas),
    rlpUint(call.gasLimit),
    call.to,
    rlpUint(call.value),
    call.data,
    // The empty access list.
    [],
  ];
  const unsigned = typed(encodeRlp(fields));
  const { signature, recid } = signDigest(keccak256(unsigned), privateKey);
  const r = BigInt(`0x${Buffer.from(signature.subarray(0, 32)).toString("hex")}`);
  const s = BigInt(`0x${Buffer.from(signature.subarray(32, 64)).toString("hex")}`);
  const raw = typed(encodeRlp([...fields, rlpUint(recid), rlpUint(r), rlpUint(s)]));
  return { raw: `0x${raw.toString("hex")}`, hash: `0x${keccak256(raw).toString("hex")}` };
}

/** The type byte, then the RLP payload. */
function typed(rlpHex: string): Buffer {
  return Buffer.concat([Buffer.from([0x02]), Buffer.from(rlpHex.slice(2), "hex")]);
}

/** An unsigned integer as RLP reads it: big-endian bytes without leading zeros (zero is the empty string). */
function rlpUint(value: number | bigint): string {
  const big = BigInt(value);
  if (big < 0n || big > MAX_UINT256) throw new RangeError(`value out of uint256 range: ${value}`);
  return big === 0n ? "0x" : toBeHex(big);
}
