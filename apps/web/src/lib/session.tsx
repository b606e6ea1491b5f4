import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { createSiweMessage } from "viem/siwe";
import { MERCHANT_CONSOLE_SIWE_RESOURCE } from "@raffle/db/siwe";
import { useConfig, useConnection } from "wagmi";
import { signMessage } from "wagmi/actions";

import { useApp } from "./app-context";

export interface PlayerSession {
  token: string;
  address: string;
  chainId: number;
  expiresAt: string;
}

/** Who signs in: a player (the player pages) or a merchant with its wallet (the console). */
export type SessionKind = "player" | "merchant";

/**
 * What differs between the two sign-ins: the API's routes, where the tab keeps the session, and what the wallet shows.
 * The console's message carries its own Resources entry and names the console in its statement: the API opens a
 * console session for no other message, and a player session for none with that entry.
 */
const KINDS: Record<SessionKind, { storageKey: string; statement: string; minutes: number; resources?: string[] }> = {
  player: { storageKey: "raffle.playerSession", statement: "Sign in to buy raffle tickets and see your tickets. This costs nothing.", minutes: 60 },
  merchant: {
    storageKey: "raffle.merchantSession",
    statement: "Sign in to the merchant console of your raffles. This costs nothing.",
    minutes: 8 * 60,
    resources: [MERCHANT_CONSOLE_SIWE_RESOURCE],
  },
};

interface SessionValue {
  /** The session of the connected address, if it signed in (and it has not ended). */
  session: PlayerSession | null;
  /**
   * Signs in for `chainId` (a served chain: a purchase without gas signs in for the raffle's chain, wherever the wallet
   * is), else for the wallet's current chain.
   */
  signIn(chainId?: number): Promise<PlayerSession>;
  signOut(): Promise<void>;
}

const SessionContext = createContext<SessionValue | null>(null);

/** Kept for this tab only (sessionStorage), never in a cookie: the API reads it from the Authorization header. */
function stored(storageKey: string): PlayerSession | null {
  try {
    const value = JSON.parse(sessionStorage.getItem(storageKey) ?? "null") as PlayerSession | null;
    return value && new Date(value.expiresAt).getTime() > Date.now() ? value : null;
  } catch {
    return null;
  }
}

/** Sign-In with Ethereum (EIP-4361): a nonce from the API, a message for this site and chain, the wallet's signature. */
export function SessionProvider({ children, kind = "player" }: { children: ReactNode; kind?: SessionKind }) {
  const { api } = useApp();
  const wagmiConfig = useConfig();
  const connection = useConnection();
  const { storageKey, statement, minutes, resources } = KINDS[kind];
  const [saved, setSaved] = useState<PlayerSession | null>(() => stored(storageKey));

  useEffect(() => {
    if (saved) sessionStorage.setItem(storageKey, JSON.stringify(saved));
    else sessionStorage.removeItem(storageKey);
  }, [saved, storageKey]);

  const session = saved && connection.address && saved.address.toLowerCase() === connection.address.toLowerCase() ? saved : null;

  const signIn = useCallback(
    async (forChain?: number) => {
      const address = connection.address;
      const chainId = forChain ?? connection.chainId;
      if (!address || !chainId) throw new Error("not connected");
      const { nonce } = await api.nonce(kind);
      const now = new Date();
      const message = createSiweMessage({
        domain: window.location.host,
        uri: window.location.origin,
        address,
        chainId,
        version: "1",
        nonce,
        issuedAt: now,
        expirationTime: new Date(now.getTime() + minutes * 60_000),
        statement,
        resources,
      });
      const signature = await signMessage(wagmiConfig, { account: address, message });
      const signedIn = await api.verify(message, signature, kind);
      const next: PlayerSession = { token: signedIn.token, address: signedIn.address, chainId: signedIn.chainId, expiresAt: signedIn.expiresAt };
      setSaved(next);
      return next;
    },
    [api, connection.address, connection.chainId, wagmiConfig, kind, minutes, statement, resources],
  );

  const signOut = useCallback(async () => {
    const token = saved?.token;
    setSaved(null);
    if (token) await api.logout(token, kind).catch(() => undefined);
  }, [api, saved, kind]);

  const value = useMemo(() => ({ session, signIn, signOut }), [session, signIn, signOut]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionValue & { forget(): void } {
  const value = useContext(SessionContext);
  if (!value) throw new Error("useSession outside SessionProvider");
  return { ...value, forget: () => void value.signOut() };
}
