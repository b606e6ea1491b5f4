import { FetchRequest, JsonRpcProvider, Network, type JsonRpcApiProviderOptions, type JsonRpcPayload, type JsonRpcResult } from "ethers";

/** Longest wait for one JSON-RPC answer: a node that hangs must not hold /ready or the indexer for minutes. */
const RPC_TIMEOUT_MS = 10_000;

/**
 * The API's provider for RPC_URL. The network is given, never detected: detection of an unreachable node would print
 * ethers' plain-text "failed to detect network" line every second into the JSON log. Whether the node really serves
 * CHAIN_ID is checked by the chain monitor and by the indexer on every step.
 */
export function chainProvider(rpcUrl: string, chainId: number, onRpcError?: () => void): JsonRpcProvider {
  const request = new FetchRequest(rpcUrl);
  request.timeout = RPC_TIMEOUT_MS;
  const network = Network.from(chainId);
  const options: JsonRpcApiProviderOptions = { staticNetwork: network, cacheTimeout: -1, pollingInterval: 100 };
  return onRpcError ? new CountingProvider(request, network, options, onRpcError) : new JsonRpcProvider(request, network, options);
}

/** Counts failed JSON-RPC calls (no answer, a timeout, or an error answer) for the metrics: API and indexer share it. */
class CountingProvider extends JsonRpcProvider {
  constructor(
    request: FetchRequest,
    network: Network,
    options: JsonRpcApiProviderOptions,
    private readonly onRpcError: () => void,
  ) {
    super(request, network, options);
  }

  override async _send(payload: JsonRpcPayload | JsonRpcPayload[]): Promise<JsonRpcResult[]> {
    let results: JsonRpcResult[];
    try {
      results = await super._send(payload);
    } catch (error) {
      this.onRpcError();
      throw error;
    }
    // The declared type hides it: a node's error answers (JsonRpcError) come back in the same array.
    for (const result of results) if ("error" in result) this.onRpcError();
    return results;
  }
}
