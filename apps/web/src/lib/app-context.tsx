import { createContext, useContext } from "react";

import type { PlayerApi } from "./api";
import type { RuntimeConfig } from "./runtime-config";

export interface AppContextValue {
  config: RuntimeConfig;
  api: PlayerApi;
}

export const AppContext = createContext<AppContextValue | null>(null);

export function useApp(): AppContextValue {
  const value = useContext(AppContext);
  if (!value) throw new Error("useApp outside AppContext");
  return value;
}

export function chainName(config: RuntimeConfig, chainId: number): string {
  return config.chains.find((chain) => chain.id === chainId)?.name ?? `chain ${chainId}`;
}
