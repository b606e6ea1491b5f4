import { createRequire } from "node:module";
import * as path from "node:path";
import createKeccakHash from "keccak";

/** The sponge of the `keccak` package's native addon, when it loads (its public API wraps it in a stream object). */
interface NativeKeccakState {
  initialize(rate: number, capacity: number): void;
  absorb(data: Buffer): void;
  squeeze(length: number): Buffer;
}

function loadNativeState(): NativeKeccakState | null {
  try {
    // node-gyp-build is keccak's own dependency: load it (and the addon) from the package's folder.
    const keccakDir = path.dirname(require.resolve("keccak/package.json"));
    const nodeGypBuild = createRequire(path.join(keccakDir, "package.json"))("node-gyp-build") as (dir: string) => unknown;
    const Addon = nodeGypBuild(keccakDir) as new () => NativeKeccakState;
    return typeof Addon === "function" ? new Addon() : null;
  } catch {
    return null;
  }
}

// Keccak-256: rate 1088 bits, capacity 512 bits. One state, reset before each use: hashing is synchronous.
const nativeState = loadNativeState();

/**
 * Keccak-256 through the native addon of the pinned `keccak` package, driven directly (a keccak-256 test holds it
 * equal to ethers), else through the package's public API. The signing path hashes several times per request;
 * natively that is several times faster than JS, and skipping the package's stream wrapper halves it again.
 */
export function keccak256(data: Uint8Array): Buffer {
  const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (!nativeState) return createKeccakHash("keccak256").update(bytes).digest();
  nativeState.initialize(1088, 512);
  nativeState.absorb(bytes);
  return nativeState.squeeze(32);
}

const ADDRESS_TEXT = /^0x[0-9a-fA-F]{40}$/;

// Buyers come back, and a request is checked (isAddressText) then normalised (checksumAddress): remember recent ones.
const recentChecksums = new Map<string, string>();
const RECENT_CHECKSUMS_MAX = 20_000;

/** The EIP-55 form of a 0x-prefixed 20-byte hex address, whatever its case; throws on anything else. */
export function checksumAddress(address: string): string {
  const known = recentChecksums.get(address);
  if (known) return known;
  if (!ADDRESS_TEXT.test(address)) throw new TypeError(`not a 20-byte hex address: ${address}`);
  const lower = address.slice(2).toLowerCase();
  const hash = keccak256(Buffer.from(lower, "ascii"));
  let result = "0x";
  for (let i = 0; i < 40; i += 1) {
    // Letter i is upper case when nibble i of the hash of the lower-case text is 8 or more (EIP-55).
    const nibble = (hash[i >> 1] >> (i % 2 === 0 ? 4 : 0)) & 0x0f;
    result += nibble >= 8 ? lower[i].toUpperCase() : lower[i];
  }
  if (recentChecksums.size >= RECENT_CHECKSUMS_MAX) recentChecksums.clear();
  recentChecksums.set(address, result);
  return result;
}

/** True for a hex address written all lower case, all upper case, or with a correct EIP-55 checksum. */
export function isAddressText(value: unknown): value is string {
  if (typeof value !== "string" || !ADDRESS_TEXT.test(value)) return false;
  const digits = value.slice(2);
  if (digits === digits.toLowerCase() || digits === digits.toUpperCase()) return true;
  return checksumAddress(value) === value;
}
