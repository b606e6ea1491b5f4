import { createContext, useContext } from "react";

import type { ConsoleApi } from "./console-api";

export interface ConsoleContextValue {
  client: ConsoleApi;
  /** The signed-in merchant's wallet. */
  merchant: string;
}

export const ConsoleContext = createContext<ConsoleContextValue | null>(null);

export function useConsole(): ConsoleContextValue {
  const value = useContext(ConsoleContext);
  if (!value) throw new Error("useConsole outside ConsoleContext");
  return value;
}
