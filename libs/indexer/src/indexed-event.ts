import type { EventArgs } from "./decode";

/** A decoded, stored log: what projections are computed from, both forward and when replaying after a reorg. */
export interface IndexedEvent {
  chainId: number;
  blockNumber: number;
  blockTimestamp: Date;
  txHash: string;
  logIndex: number;
  address: string;
  name: string;
  args: EventArgs;
}

export function argString(args: EventArgs, key: string): string {
  const value = args[key];
  if (typeof value !== "string") throw new TypeError(`event argument ${key} is not a scalar`);
  return value;
}
