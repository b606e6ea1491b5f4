import { useQuery } from "@tanstack/react-query";

import { RoundFacts } from "../components/RoundFacts";
import type { PublicRaffle } from "../lib/api";
import { useApp } from "../lib/app-context";
import { explain } from "../lib/messages";

/** What sets a raffle apart at a glance: several winners, bundle prices, a wallet cap. */
function CardMarkers({ raffle }: { raffle: PublicRaffle }) {
  const rules = raffle.round?.rules;
  const markers = [
    rules && rules.prizeShares.length > 1 && `${rules.prizeShares.length} winners`,
    rules && rules.bundles.length > 0 && "Bundles",
  ].filter((marker): marker is string => Boolean(marker));
  if (markers.length === 0) return null;
  return (
    <ul className="markers" aria-label="Features">
      {markers.map((marker) => (
        <li key={marker}>{marker}</li>
      ))}
    </ul>
  );
}

/** Raffles on public sale, one section per chain the site serves. */
export function RafflesPage() {
  const { api, config } = useApp();
  const raffles = useQuery({ queryKey: ["raffles"], queryFn: api.raffles, refetchInterval: 5_000 });
  return (
    <>
      <h1>Raffles</h1>
      {raffles.isPending && <p role="status">Loading raffles…</p>}
      {raffles.error && <p role="alert">{explain(raffles.error)}</p>}
      {config.chains.map((chain) => {
        const rows = (raffles.data ?? []).filter((row) => row.raffle.chainId === chain.id);
        return (
          <section key={chain.id} aria-labelledby={`chain-${chain.id}`}>
            <h2 id={`chain-${chain.id}`}>{chain.name}</h2>
            {raffles.data && rows.length === 0 && <p>No raffle is on sale on this network right now.</p>}
            <ul className="cards">
              {rows.map((row) => (
                <li key={row.raffle.id} className="card">
                  {row.raffle.imageUrl && <img src={row.raffle.imageUrl} alt="" className="thumb" />}
                  <h3>
                    <a href={`#/raffle/${row.raffle.id}`}>
                      <bdi>{row.raffle.title || `Raffle ${row.raffle.id}`}</bdi>
                    </a>
                  </h3>
                  <CardMarkers raffle={row} />
                  <RoundFacts raffle={row} />
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </>
  );
}
