import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useConnection } from "wagmi";

import { useApp } from "../../lib/app-context";
import { explain } from "../../lib/messages";
import { CreateRaffleForm } from "../components/CreateRaffleForm";
import { RaffleCard } from "../components/RaffleCard";
import { useConsole } from "../console-context";

/** The merchant's raffles on every served chain, and Create raffle on the wallet's chain. */
export function RafflesPage() {
  const { config } = useApp();
  const { client } = useConsole();
  const connection = useConnection();
  const raffles = useQuery({ queryKey: ["console", "raffles"], queryFn: client.raffles, refetchInterval: 3_000 });
  const [creating, setCreating] = useState(false);
  const chainId = config.chains.some((chain) => chain.id === connection.chainId) ? connection.chainId! : config.chains[0].id;

  return (
    <>
      <h1>Raffles</h1>
      <div className="actions">
        <button type="button" className="primary" aria-expanded={creating} onClick={() => setCreating(!creating)}>
          Create raffle
        </button>
      </div>
      {creating && <CreateRaffleForm chainId={chainId} onDone={() => void raffles.refetch()} />}
      {raffles.error && <p role="alert">{explain(raffles.error)}</p>}
      {raffles.isPending && <p role="status">Loading raffles…</p>}
      {config.chains.map((chain) => {
        const rows = (raffles.data ?? []).filter((raffle) => raffle.chainId === chain.id);
        return (
          <section key={chain.id} aria-labelledby={`raffles-chain-${chain.id}`}>
            <h2 id={`raffles-chain-${chain.id}`} className="chain-heading">
              {chain.name}
            </h2>
            {raffles.data && rows.length === 0 && <p>No raffle on this network yet.</p>}
            {rows.map((raffle) => (
              <RaffleCard key={raffle.id} raffle={raffle} />
            ))}
          </section>
        );
      })}
    </>
  );
}
