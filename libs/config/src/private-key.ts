const HEX_DIGIT = /^[0-9a-fA-F]$/;
// secp256k1's group order: a private key is an integer in [1, n).
const CURVE_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/**
 * What is wrong with a private key's text (null: nothing), in words that never quote it: a message that echoes the
 * value (as ethers' own errors do) ends up in a log line, and the key with it. `setting.privateKey` reports it.
 */
export function privateKeyProblem(raw: string): string | null {
  if (raw.trim() !== raw) return "it has whitespace (a space or a line break) at its start or end";
  const digits = /^0x/i.test(raw) ? raw.slice(2) : raw;
  if (/^0x/i.test(digits)) return 'it starts with "0x" twice';
  const bad = [...digits].findIndex((char) => !HEX_DIGIT.test(char));
  if (bad >= 0) return `character ${bad + 1} of its hex digits is not a hex digit`;
  if (digits.length !== 64) return `it has ${digits.length} hex digits, not 64`;
  const value = BigInt(`0x${digits}`);
  if (value === 0n || value >= CURVE_ORDER) return "it is not a valid secp256k1 private key (out of range)";
  return null;
}
