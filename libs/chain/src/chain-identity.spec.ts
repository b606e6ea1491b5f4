import { isRetryable } from "@raffle/config";

import { WrongChainError, servedChainId, verifyServedChain, wrongChainMessage } from "./chain-identity";
import { startTestNode, type DevNode } from "./testing";

describe("the chain-identity check, against a real node serving chain 31338", () => {
  let node: DevNode;

  beforeAll(async () => {
    node = await startTestNode({ chainId: 31338 });
  }, 60_000);
  afterAll(() => node?.stop());

  it("reads the chain the node serves and passes when it is the expected one", async () => {
    expect(await servedChainId(node.provider)).toBe(31338);
    await expect(verifyServedChain(node.provider, 31338, { setting: "CHAIN_31338_RPC_URL" })).resolves.toBeUndefined();
  });

  it("refuses a node of another chain with a WrongChainError that says which setting to change, and is not retryable", async () => {
    const setting = { setting: "RPC_URL", shown: "RPC_URL (http://127.0.0.1:8545)" };
    const error = await verifyServedChain(node.provider, 31337, setting).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WrongChainError);
    expect((error as WrongChainError).message).toBe(
      "RPC_URL (http://127.0.0.1:8545) serves chain 31338, not chain 31337: point RPC_URL at a node of chain 31337",
    );
    expect([(error as WrongChainError).servedChainId, (error as WrongChainError).expectedChainId]).toEqual([31338, 31337]);
    expect(isRetryable(error)).toBe(false);
  });

  it("shows the setting alone when no origin is given", () => {
    expect(wrongChainMessage({ setting: "CHAIN_5_RPC_URL" }, 1, 5)).toBe(
      "CHAIN_5_RPC_URL serves chain 1, not chain 5: point CHAIN_5_RPC_URL at a node of chain 5",
    );
  });
});
