import type { EventArgs } from "./decode";

/**
 * A decoded, stored log: what projections are computed from, both forward and when replaying after a reorg. `Arg` is
 * the event's argument names when the handler knows its event (handlers/contract-events.ts).
 */
export interface IndexedEvent<Arg extends string = string> {
  chainId: number;
  blockNumber: number;
  blockTimestamp: Date;
  txHash: string;
  logIndex: number;
  address: string;
  name: string;
  args: EventArgs<Arg>;
}

/** A scalar argument as its decimal or hex string; with typed args, `key` must be one of the event's argument names. */
export function argString<Arg extends string>(args: EventArgs<Arg>, key: NoInfer<Arg>): string {
  const value = args[key];
  if (typeof value !== "string") throw new TypeError(`event argument ${key} is not a scalar`);
  return value;
}
