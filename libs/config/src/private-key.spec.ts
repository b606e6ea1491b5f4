import { ConfigError } from "./env";
import { readSettings } from "./read-settings";
import { setting } from "./settings";

/** Reads `raw` as SIGNER_PRIVATE_KEY, as the API reads it. */
function readKey(raw: string): string {
  return readSettings({ SIGNER_PRIVATE_KEY: raw }, { SIGNER_PRIVATE_KEY: setting.privateKey() }).SIGNER_PRIVATE_KEY;
}

// Hardhat's public dev account #0: a real key shape, never a secret.
const HEX = "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";

describe("setting.privateKey", () => {
  it("accepts 64 hex digits with or without 0x, in any case", () => {
    expect(readKey(`0x${HEX}`)).toBe(`0x${HEX}`);
    expect(readKey(HEX.toUpperCase())).toBe(`0x${HEX}`);
  });

  it.each([
    ["a trailing newline", `0x${HEX}\n`, /whitespace/],
    ["a trailing space", `0x${HEX} `, /whitespace/],
    ["a leading space", ` 0x${HEX}`, /whitespace/],
    ["0x twice", `0x0x${HEX}`, /"0x" twice/],
    ["63 hex digits", `0x${HEX.slice(1)}`, /63 hex digits, not 64/],
    ["65 hex digits", `0x${HEX}0`, /65 hex digits, not 64/],
    ["one bad character", `0x${HEX.slice(0, 40)}g${HEX.slice(41)}`, /character 41 .* not a hex digit/],
    ["zero", `0x${"0".repeat(64)}`, /out of range/],
    ["the curve order", "0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141", /out of range/],
  ])("refuses %s, naming the setting and the problem but never the value", (_case, raw, problem) => {
    let error: unknown;
    try {
      readKey(raw);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toMatch(/^SIGNER_PRIVATE_KEY is not a private key: /);
    expect(message).toMatch(problem);
    // No run of 8 characters of the value appears in the message.
    const digits = raw.trim().replace(/^(0x)+/i, "");
    for (let i = 0; i + 8 <= digits.length; i += 1) expect(message).not.toContain(digits.slice(i, i + 8));
  });
});
