import { FetchRequest, JsonRpcProvider, Network } from "ethers";

/** Longest wait for one JSON-RPC answer: a node that hangs must not hold /ready or the indexer for minutes. */
const RPC_TIMEOUT_MS = 10_000;

/**
 * The API's provider for RPC_URL. The network is given, never detected: detection of an unreachable node would print
 * ethers' plain-text "failed to detect network" line every second into the JSON log. Whether the node really serves
 * CHAIN_ID is checked by the chain monitor and by the indexer on every step.
 */
export function chainProvider(rpcUrl: string, chainId: number): JsonRpcProvider {
  const request = new FetchRequest(rpcUrl);
  request.timeout = RPC_TIMEOUT_MS;
  const network = Network.from(chainId);
  return new JsonRpcProvider(request, network, { staticNetwork: network, cacheTimeout: -1, pollingInterval: 100 });
}
