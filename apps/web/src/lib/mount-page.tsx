import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { StrictMode, type ReactNode } from "react";
import { createRoot } from "react-dom/client";
import { WagmiProvider } from "wagmi";

import { PageErrorBoundary } from "../components/PageErrorBoundary";
import { PlayerApi } from "./api";
import { AppContext } from "./app-context";
import { loadRuntimeConfig } from "./runtime-config";
import { SessionProvider, type SessionKind } from "./session";
import { createWagmiConfig } from "./wagmi-config";

/**
 * Starts one of the app's pages (the player app, the merchant console): loads the deployment's config.json, then
 * renders `page` inside the wallet, data, app and session providers. A config that cannot load, or a page that fails to
 * render, is a sentence under the page's `title`.
 */
export function mountPage(options: {
  title: string;
  /** Where the error sentence's way back goes (see PageErrorBoundary). */
  home: { href: string; label: string };
  configUrl?: string;
  session: SessionKind;
  page: ReactNode;
}): void {
  const root = createRoot(document.getElementById("root")!);
  loadRuntimeConfig(options.configUrl).then(
    (config) => {
      const wagmiConfig = createWagmiConfig(config);
      const queryClient = new QueryClient({ defaultOptions: { queries: { retry: 1 } } });
      root.render(
        <StrictMode>
          <PageErrorBoundary title={options.title} home={options.home} onRetry={() => queryClient.clear()}>
            <WagmiProvider config={wagmiConfig}>
              <QueryClientProvider client={queryClient}>
                <AppContext.Provider value={{ config, api: new PlayerApi(config.apiUrl) }}>
                  <SessionProvider kind={options.session}>{options.page}</SessionProvider>
                </AppContext.Provider>
              </QueryClientProvider>
            </WagmiProvider>
          </PageErrorBoundary>
        </StrictMode>,
      );
    },
    (error: Error) => {
      root.render(
        <main>
          <h1>{options.title}</h1>
          <p role="alert">{error.message}</p>
        </main>,
      );
    },
  );
}
