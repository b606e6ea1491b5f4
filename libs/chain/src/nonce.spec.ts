import { NonceSequence } from "./nonce";

describe("NonceSequence", () => {
  it("hands out 256 nonces per random prefix, then moves to a new prefix", () => {
    const sequence = new NonceSequence();
    const nonces = Array.from({ length: 600 }, () => sequence.take());
    expect(new Set(nonces).size).toBe(600);
    for (const nonce of nonces) expect(nonce).toMatch(/^0x[0-9a-f]{64}$/);
    const prefixes = nonces.map((nonce) => nonce.slice(0, 64));
    expect(new Set(prefixes.slice(0, 256)).size).toBe(1);
    expect(prefixes[256]).not.toBe(prefixes[255]);
    expect(nonces[0].slice(-2)).toBe("00");
    expect(nonces[255].slice(-2)).toBe("ff");
    expect(nonces[256].slice(-2)).toBe("00");
  });
});
