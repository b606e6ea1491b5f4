import type { Interface } from "ethers";
import { ERC3009__factory, Exchange__factory, RaffleFactory__factory, Raffle__factory, TestToken__factory } from "@raffle/chain";

/**
 * Contracts whose custom errors a relayed call can revert with: the Exchange, the raffle it forwards to, the
 * platform's factory, and price tokens (ERC-3009's and OpenZeppelin's ERC-20/EIP-2612 errors).
 */
const INTERFACES: Interface[] = [
  Exchange__factory.createInterface(),
  Raffle__factory.createInterface(),
  RaffleFactory__factory.createInterface(),
  ERC3009__factory.createInterface(),
  TestToken__factory.createInterface(),
];

/** Revert data carried by an ethers error from `call` or `estimateGas`, if any. */
export function revertData(error: unknown): string | undefined {
  const direct = (error as { data?: unknown } | null)?.data;
  if (typeof direct === "string" && direct.startsWith("0x")) return direct;
  // Some nodes nest it in the JSON-RPC error.
  const nested = (error as { info?: { error?: { data?: unknown } } } | null)?.info?.error?.data;
  if (typeof nested === "string" && nested.startsWith("0x")) return nested;
  return undefined;
}

/** The custom error's name (`NonceAlreadyUsed`), undefined when the data names none the relayer knows. */
export function customErrorName(data: string): string | undefined {
  if (data.length < 10) return undefined;
  for (const contract of INTERFACES) {
    try {
      const parsed = contract.parseError(data);
      if (parsed) return parsed.name;
    } catch {
      // Not this contract's error (or its arguments do not decode): try the next one.
    }
  }
  return undefined;
}

/** A failure code in the platform's camelCase from a Solidity error name: `NonceAlreadyUsed` → `nonceAlreadyUsed`. */
export function failureCodeOf(errorName: string): string {
  return errorName.charAt(0).toLowerCase() + errorName.slice(1);
}
