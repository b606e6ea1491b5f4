import type { PlatformDeployment } from "@raffle/chain";

import { DEFAULT_REORG_WINDOW_BLOCKS, resolveIndexerOptions } from "./indexer-options";

const deployment = { chainId: 31338 } as PlatformDeployment;

describe("resolveIndexerOptions", () => {
  it("gives the documented defaults, and passes a chain's own reorg window through", () => {
    expect(resolveIndexerOptions({ deployment })).toMatchObject({
      confirmations: 0,
      batchBlocks: 2_000,
      reorgWindowBlocks: DEFAULT_REORG_WINDOW_BLOCKS,
    });
    expect(DEFAULT_REORG_WINDOW_BLOCKS).toBe(256);
    expect(resolveIndexerOptions({ deployment, reorgWindowBlocks: 64 }).reorgWindowBlocks).toBe(64);
  });

  it.each([0, -1, 1.5, Number.NaN])("refuses a reorg window of %p blocks, naming the chain", (reorgWindowBlocks) => {
    expect(() => resolveIndexerOptions({ deployment, reorgWindowBlocks })).toThrow(/reorgWindowBlocks of chain 31338 must be a whole number/);
  });

  it("backs a quiet chain's poll off to 8 poll intervals by default, and refuses a cap below the interval", () => {
    expect(resolveIndexerOptions({ deployment })).toMatchObject({ pollIntervalMs: 1_000, idlePollMaxMs: 8_000 });
    expect(resolveIndexerOptions({ deployment, pollIntervalMs: 50 }).idlePollMaxMs).toBe(400);
    expect(resolveIndexerOptions({ deployment, pollIntervalMs: 50, idlePollMaxMs: 50 }).idlePollMaxMs).toBe(50);
    expect(() => resolveIndexerOptions({ deployment, pollIntervalMs: 100, idlePollMaxMs: 99 })).toThrow(
      /idlePollMaxMs of chain 31338 must be at least pollIntervalMs \(100\), got 99/,
    );
  });
});
