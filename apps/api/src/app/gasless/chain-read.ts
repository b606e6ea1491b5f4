import type { ApiProblem } from "../../common/problem";
import { problems } from "../../common/problem";

/** Whether ethers says the contract itself refused the call (it reverted, or answered nothing that decodes). */
export function refusedByContract(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code === "CALL_EXCEPTION" || code === "BAD_DATA";
}

/**
 * A read of the chain on a request's path: the contract's refusal becomes `refused` (a named 4xx), anything else (the
 * node down, a timeout) the 503 `serviceUnavailable` of the chain, never a 500.
 */
export async function chainRead<T>(read: Promise<T>, refused: () => ApiProblem): Promise<T> {
  try {
    return await read;
  } catch (error) {
    throw refusedByContract(error) ? refused() : problems.serviceUnavailable("chain");
  }
}

/** A read whose refusal cannot be a caller's fault: the node's trouble either way. */
export function nodeRead<T>(read: Promise<T>): Promise<T> {
  return chainRead(read, () => problems.serviceUnavailable("chain"));
}
