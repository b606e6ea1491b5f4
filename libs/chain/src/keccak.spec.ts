import { Wallet, getAddress, hexlify, isAddress, keccak256 as ethersKeccak256, randomBytes } from "ethers";

import { checksumAddress, isAddressText, keccak256 } from "./keccak";

describe("native keccak and EIP-55 addresses", () => {
  it("hashes like ethers' keccak256 for empty, short and multi-block inputs", () => {
    for (const length of [0, 1, 31, 32, 135, 136, 137, 224, 1000]) {
      const data = randomBytes(length);
      expect(hexlify(keccak256(data))).toBe(ethersKeccak256(data));
    }
    // A view into a larger buffer hashes only its own bytes.
    const whole = randomBytes(64);
    expect(hexlify(keccak256(whole.subarray(16, 48)))).toBe(ethersKeccak256(whole.subarray(16, 48)));
  });

  it("checksums like ethers' getAddress from any case", () => {
    for (let i = 0; i < 200; i += 1) {
      const address = Wallet.createRandom().address;
      expect(checksumAddress(address.toLowerCase())).toBe(address);
      expect(checksumAddress(`0x${address.slice(2).toUpperCase()}`)).toBe(getAddress(address));
    }
    expect(checksumAddress("0x0000000000000000000000000000000000000000")).toBe("0x0000000000000000000000000000000000000000");
  });

  it("refuses text that is not a 20-byte hex address", () => {
    for (const bad of ["", "0x", "0x123", `0x${"g".repeat(40)}`, `${"a".repeat(42)}`, `0x${"a".repeat(41)}`, ` 0x${"a".repeat(40)}`]) {
      expect(() => checksumAddress(bad)).toThrow(TypeError);
      expect(isAddressText(bad)).toBe(false);
    }
  });

  it("accepts a mixed-case address only when its checksum is right, like ethers' isAddress", () => {
    for (let i = 0; i < 100; i += 1) {
      const address = hexlify(randomBytes(20));
      const mixed = getAddress(address);
      const flipped = mixed.replace(/[a-f]/, (letter) => letter.toUpperCase());
      for (const candidate of [address, mixed, `0x${address.slice(2).toUpperCase()}`, flipped]) {
        expect(isAddressText(candidate)).toBe(isAddress(candidate));
      }
    }
    expect(isAddressText(42)).toBe(false);
  });
});
