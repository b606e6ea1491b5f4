import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";

/**
 * Whether the page on show offers an action without gas (buy, claim, refund) the wallet can take from any network:
 * the header then says calmly that no switch is needed instead of warning about the wallet's network. Each part of
 * the page that offers one registers while it does; outside the provider (the console) nothing registers.
 */
const NetworkNeed = createContext<{ withoutSwitch: number; register: (change: 1 | -1) => void } | null>(null);

export function NetworkNeedProvider({ children }: { children: ReactNode }) {
  const [withoutSwitch, setWithoutSwitch] = useState(0);
  const register = useCallback((change: 1 | -1) => setWithoutSwitch((count) => count + change), []);
  const value = useMemo(() => ({ withoutSwitch, register }), [withoutSwitch, register]);
  return <NetworkNeed.Provider value={value}>{children}</NetworkNeed.Provider>;
}

/** While `active`, the page can act from any network (a relayer sends it; the wallet only signs). */
export function useActsWithoutSwitch(active: boolean): void {
  const register = useContext(NetworkNeed)?.register;
  useEffect(() => {
    if (!active || !register) return;
    register(1);
    return () => register(-1);
  }, [active, register]);
}

/** True when some part of the page acts without a network switch. */
export function usePageActsWithoutSwitch(): boolean {
  return (useContext(NetworkNeed)?.withoutSwitch ?? 0) > 0;
}
