import { Transaction, Wallet, hexlify, randomBytes, type HDNodeWallet } from "ethers";

import { signEip1559Call, type Eip1559Call } from "./eip1559-tx";

const MAX = (1n << 256n) - 1n;

/** ethers' Wallet signature of the same call: the bytes the hand-built transaction must equal. */
function reference(call: Eip1559Call, wallet: HDNodeWallet): { raw: string; hash: string } {
  const tx = Transaction.from({ type: 2, ...call });
  tx.signature = wallet.signingKey.sign(tx.unsignedHash);
  return { raw: tx.serialized, hash: tx.hash! };
}

describe("signEip1559Call", () => {
  const wallet = Wallet.createRandom();
  const key = Buffer.from(wallet.privateKey.slice(2), "hex");
  const base: Eip1559Call = {
    chainId: 31337,
    nonce: 7,
    maxPriorityFeePerGas: 1_000_000_000n,
    maxFeePerGas: 500_000_000_000n,
    gasLimit: 400_000n,
    to: Wallet.createRandom().address,
    data: hexlify(randomBytes(900)),
    value: 0n,
  };

  it("equals ethers' signed transaction and hash, byte for byte, across RLP's length and integer edges", () => {
    const cases: Eip1559Call[] = [
      base,
      { ...base, nonce: 0, maxPriorityFeePerGas: 0n, value: 0n, data: "0x" },
      // One byte below 0x80 is its own encoding; 0x80 and up take a prefix; 55/56-byte strings switch header forms.
      { ...base, nonce: 0x7f, data: "0x7f" },
      { ...base, nonce: 0x80, data: "0x80" },
      { ...base, data: hexlify(randomBytes(55)) },
      { ...base, data: hexlify(randomBytes(56)) },
      { ...base, data: hexlify(randomBytes(70_000)), gasLimit: MAX, maxFeePerGas: MAX, value: MAX },
      { ...base, chainId: 1, nonce: 2 ** 32, to: base.to.toLowerCase() },
    ];
    for (const call of cases) expect(signEip1559Call(call, key)).toEqual(reference(call, wallet));
  });

  it("recovers to the key's address, as the node reads it", () => {
    const { raw } = signEip1559Call(base, key);
    expect(Transaction.from(raw).from).toBe(wallet.address);
  });

  it("refuses what is no transaction field: a bad address, odd hex, a negative or too large number", () => {
    expect(() => signEip1559Call({ ...base, to: "0x1234" }, key)).toThrow(/address/);
    expect(() => signEip1559Call({ ...base, data: "0xabc" }, key)).toThrow(/hex/);
    expect(() => signEip1559Call({ ...base, value: -1n }, key)).toThrow(/range/);
    expect(() => signEip1559Call({ ...base, gasLimit: MAX + 1n }, key)).toThrow(/range/);
  });
});
