import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo } from "react";

import { ConnectMenu } from "../components/ConnectMenu";
import { ApiError } from "../lib/api";
import { useApp } from "../lib/app-context";
import { useSession } from "../lib/session";
import { consoleApi, type ConsoleApi } from "./console-api";
import { ConsoleContext } from "./console-context";
import { ApiKeysPage } from "./pages/ApiKeysPage";
import { OverviewPage } from "./pages/OverviewPage";
import { RafflesPage } from "./pages/RafflesPage";
import { WebhooksPage } from "./pages/WebhooksPage";
import { CONSOLE_PAGES, useConsoleRoute } from "./route";

/** The merchant console: sign in with the merchant's wallet, then Overview, Raffles, API keys and Webhooks. */
export function ConsoleApp() {
  const page = useConsoleRoute();
  const { api } = useApp();
  const { session, forget } = useSession();
  const queryClient = useQueryClient();
  // A session that ended on the API's side (expired, logged out elsewhere) signs the console out: the page asks again.
  useEffect(() => {
    const ended = (error: unknown) => error instanceof ApiError && ["merchantSessionRequired", "unauthorized"].includes(error.code);
    const unsubscribeQueries = queryClient.getQueryCache().subscribe((event) => {
      if (event.type === "updated" && ended(event.query.state.error)) forget();
    });
    const unsubscribeMutations = queryClient.getMutationCache().subscribe((event) => {
      if (event.type === "updated" && ended(event.mutation?.state.error)) forget();
    });
    return () => {
      unsubscribeQueries();
      unsubscribeMutations();
    };
  }, [queryClient, forget]);
  const client: ConsoleApi | null = useMemo(() => (session ? consoleApi(api, session.token) : null), [api, session]);
  return (
    <>
      <a href="#main" className="skip">
        Skip to content
      </a>
      <header className="top">
        <nav aria-label="Console">
          {CONSOLE_PAGES.map((entry) => (
            <a key={entry.page} href={entry.hash} aria-current={page === entry.page ? "page" : undefined}>
              {entry.title}
            </a>
          ))}
        </nav>
        <ConnectMenu signInLabel="Sign in with Ethereum" />
      </header>
      <main id="main" tabIndex={-1}>
        {!session || !client ? (
          <>
            <h1>Merchant console</h1>
            <p>
              Connect the wallet your raffles are deployed with, then press <strong>Sign in with Ethereum</strong>. Signing in costs nothing; every
              transaction the console prepares is signed by your own wallet.
            </p>
          </>
        ) : (
          <ConsoleContext.Provider value={{ client, merchant: session.address }}>
            {page === "overview" && <OverviewPage />}
            {page === "raffles" && <RafflesPage />}
            {page === "keys" && <ApiKeysPage />}
            {page === "webhooks" && <WebhooksPage />}
          </ConsoleContext.Provider>
        )}
      </main>
    </>
  );
}
