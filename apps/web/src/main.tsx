import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { WagmiProvider } from "wagmi";

import { App } from "./App";
import { PlayerApi } from "./lib/api";
import { AppContext } from "./lib/app-context";
import { loadRuntimeConfig } from "./lib/runtime-config";
import { SessionProvider } from "./lib/session";
import { createWagmiConfig } from "./lib/wagmi-config";
import "./styles.css";

const root = createRoot(document.getElementById("root")!);

loadRuntimeConfig().then(
  (config) => {
    const wagmiConfig = createWagmiConfig(config);
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: 1 } } });
    root.render(
      <StrictMode>
        <WagmiProvider config={wagmiConfig}>
          <QueryClientProvider client={queryClient}>
            <AppContext.Provider value={{ config, api: new PlayerApi(config.apiUrl) }}>
              <SessionProvider>
                <App />
              </SessionProvider>
            </AppContext.Provider>
          </QueryClientProvider>
        </WagmiProvider>
      </StrictMode>,
    );
  },
  (error: Error) => {
    root.render(
      <main>
        <h1>Raffles</h1>
        <p role="alert">{error.message}</p>
      </main>,
    );
  },
);
