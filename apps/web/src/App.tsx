import { ConnectMenu } from "./components/ConnectMenu";
import { NetworkNeedProvider } from "./lib/network-need";
import { useRoute } from "./lib/route";
import { MyTicketsPage } from "./pages/MyTicketsPage";
import { RafflePage } from "./pages/RafflePage";
import { RafflesPage } from "./pages/RafflesPage";
import { RoundHistoryPage } from "./pages/RoundHistoryPage";

export function App() {
  const route = useRoute();
  return (
    <NetworkNeedProvider>
      <a href="#main" className="skip">
        Skip to content
      </a>
      <header className="top">
        <nav aria-label="Main">
          <a href="#/" aria-current={route.page === "raffles" ? "page" : undefined}>
            Raffles
          </a>
          <a href="#/tickets" aria-current={route.page === "tickets" ? "page" : undefined}>
            My tickets
          </a>
        </nav>
        <ConnectMenu />
      </header>
      <main id="main" tabIndex={-1}>
        {route.page === "raffles" && <RafflesPage />}
        {route.page === "raffle" && <RafflePage id={route.id} />}
        {route.page === "rounds" && <RoundHistoryPage id={route.id} />}
        {route.page === "tickets" && <MyTicketsPage />}
      </main>
    </NetworkNeedProvider>
  );
}
