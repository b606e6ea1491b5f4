import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { WagmiProvider } from "wagmi";

import { PlayerApi } from "../lib/api";
import { AppContext } from "../lib/app-context";
import { loadRuntimeConfig } from "../lib/runtime-config";
import { SessionProvider } from "../lib/session";
import { createWagmiConfig } from "../lib/wagmi-config";
import { ConsoleApp } from "./ConsoleApp";
import "../styles.css";
import "./console.css";

const root = createRoot(document.getElementById("root")!);

// The console is /console/ of the same static files: the one config.json sits next to the player app's index.html.
loadRuntimeConfig("../config.json").then(
  (config) => {
    const wagmiConfig = createWagmiConfig(config);
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: 1 } } });
    root.render(
      <StrictMode>
        <WagmiProvider config={wagmiConfig}>
          <QueryClientProvider client={queryClient}>
            <AppContext.Provider value={{ config, api: new PlayerApi(config.apiUrl) }}>
              <SessionProvider kind="merchant">
                <ConsoleApp />
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
        <h1>Merchant console</h1>
        <p role="alert">{error.message}</p>
      </main>,
    );
  },
);
