import { defineChain } from "viem";
import { createConfig, http, injected, type Config } from "wagmi";

import type { RuntimeConfig } from "./runtime-config";

/**
 * wagmi for the configured chains. Wallets are found through EIP-6963 (wagmi's provider discovery, on by default);
 * the plain `injected()` connector is the `window.ethereum` fallback for wallets that do not announce themselves.
 */
export function createWagmiConfig(runtime: RuntimeConfig): Config {
  const chains = runtime.chains.map((chain) =>
    defineChain({
      id: chain.id,
      name: chain.name,
      nativeCurrency: { name: chain.symbol ?? "Ether", symbol: chain.symbol ?? "ETH", decimals: 18 },
      rpcUrls: { default: { http: [chain.rpcUrl] } },
    }),
  );
  return createConfig({
    chains: chains as [ReturnType<typeof defineChain>, ...ReturnType<typeof defineChain>[]],
    connectors: [injected()],
    multiInjectedProviderDiscovery: true,
    transports: Object.fromEntries(runtime.chains.map((chain) => [chain.id, http(chain.rpcUrl)])),
  });
}
