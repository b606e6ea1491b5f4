import createKeccakHash from "keccak";

/**
 * Keccak-256 through the `keccak` package, which uses its native binding (and its own JS code where the binding
 * cannot load). The signing path hashes five times per request; natively that is several times faster than JS.
 */
export function keccak256(data: Uint8Array): Buffer {
  return createKeccakHash("keccak256").update(Buffer.from(data.buffer, data.byteOffset, data.byteLength)).digest();
}

const ADDRESS_TEXT = /^0x[0-9a-fA-F]{40}$/;

/** The EIP-55 form of a 0x-prefixed 20-byte hex address, whatever its case; throws on anything else. */
export function checksumAddress(address: string): string {
  if (!ADDRESS_TEXT.test(address)) throw new TypeError(`not a 20-byte hex address: ${address}`);
  const lower = address.slice(2).toLowerCase();
  const hash = keccak256(Buffer.from(lower, "ascii"));
  let result = "0x";
  for (let i = 0; i < 40; i += 1) {
    // Letter i is upper case when nibble i of the hash of the lower-case text is 8 or more (EIP-55).
    const nibble = (hash[i >> 1] >> (i % 2 === 0 ? 4 : 0)) & 0x0f;
    result += nibble >= 8 ? lower[i].toUpperCase() : lower[i];
  }
  return result;
}

/** True for a hex address written all lower case, all upper case, or with a correct EIP-55 checksum. */
export function isAddressText(value: unknown): value is string {
  if (typeof value !== "string" || !ADDRESS_TEXT.test(value)) return false;
  const digits = value.slice(2);
  if (digits === digits.toLowerCase() || digits === digits.toUpperCase()) return true;
  return checksumAddress(value) === value;
}
