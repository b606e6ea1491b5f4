import { Interface, Wallet, type JsonRpcProvider } from "ethers";
import { Exchange__factory } from "@raffle/chain";

import { WorkerLogger } from "../logger";
import type { TxSender } from "../tx-sender";
import { ChainRelayer, PURCHASE_GAS_BOUND } from "./chain-relayer";
import type { RelayMailbox } from "./relay-mailbox";

/** A node whose `eth_call` and `estimateGas` answer as each test sets them, recording what was asked. */
class SimulatingNode {
  readonly calls: Array<{ gasLimit?: bigint }> = [];
  estimates = 0;
  constructor(
    private readonly callAnswer: () => Promise<string>,
    private readonly estimate: () => Promise<bigint> = async () => 200_000n,
  ) {}

  call(tx: { gasLimit?: bigint }): Promise<string> {
    this.calls.push(tx);
    return this.callAnswer();
  }

  estimateGas(): Promise<bigint> {
    this.estimates += 1;
    return this.estimate();
  }
}

const exchange = Wallet.createRandom().address;
const intent = { to: exchange, data: "0x12345678", label: "relay purchase" };
const EXCHANGE: Interface = Exchange__factory.createInterface();

function relayerOn(node: SimulatingNode): { simulate(intent: unknown, kind: string): Promise<{ gasLimit: bigint } | { failureCode: string }> } {
  const relayer = new ChainRelayer({
    chainId: 31337,
    exchange,
    mailbox: { relayerId: "test" } as RelayMailbox,
    sender: { address: Wallet.createRandom().address } as TxSender,
    provider: node as unknown as JsonRpcProvider,
    logger: new WorkerLogger({ level: "error" }),
    pollIntervalMs: 100,
    maxInFlight: 10,
  });
  // The simulation is private: these tests hold its choice of node call, the rest is the e2e suites'.
  return relayer as unknown as ReturnType<typeof relayerOn>;
}

/** An ethers call error carrying revert data, as JsonRpcProvider throws it. */
function reverted(data: string): Error {
  return Object.assign(new Error("execution reverted"), { code: "CALL_EXCEPTION", data });
}

describe("ChainRelayer's simulation of a job", () => {
  it("simulates a purchase by one eth_call under the gas bound and sends with that limit, without estimateGas", async () => {
    const node = new SimulatingNode(async () => "0x");
    await expect(relayerOn(node).simulate(intent, "purchase")).resolves.toEqual({ gasLimit: PURCHASE_GAS_BOUND });
    expect(node.calls.map((call) => call.gasLimit)).toEqual([PURCHASE_GAS_BOUND]);
    expect(node.estimates).toBe(0);
  });

  it("reports a purchase's named revert from the eth_call, without estimateGas", async () => {
    const data = EXCHANGE.encodeErrorResult("NonceAlreadyUsed", [`0x${"11".repeat(32)}`]);
    const node = new SimulatingNode(async () => Promise.reject(reverted(data)));
    await expect(relayerOn(node).simulate(intent, "purchase")).resolves.toEqual({ failureCode: "nonceAlreadyUsed" });
    expect(node.estimates).toBe(0);
  });

  it("falls back to the estimate (plus a fifth) when the purchase runs out of gas under the bound", async () => {
    const node = new SimulatingNode(
      async () => Promise.reject(Object.assign(new Error("out of gas"), { code: "CALL_EXCEPTION" })),
      async () => 500_000n,
    );
    await expect(relayerOn(node).simulate(intent, "purchase")).resolves.toEqual({ gasLimit: 600_000n });
    expect(node.estimates).toBe(1);
  });

  it("estimates a claim or a refund as before, with no eth_call", async () => {
    const node = new SimulatingNode(async () => "0x");
    await expect(relayerOn(node).simulate(intent, "claim")).resolves.toEqual({ gasLimit: 240_000n });
    expect(node.calls).toHaveLength(0);
  });
});
