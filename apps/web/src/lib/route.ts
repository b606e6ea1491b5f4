import { useEffect, useState } from "react";

/** The page, from the URL's hash (`#/raffle/3`): static hosting needs no rewrite rule. */
export type Route = { page: "raffles" } | { page: "raffle"; id: number } | { page: "rounds"; id: number } | { page: "tickets" };

export function parseRoute(hash: string): Route {
  const raffle = /^#\/raffle\/(\d+)$/.exec(hash);
  if (raffle) return { page: "raffle", id: Number(raffle[1]) };
  const rounds = /^#\/raffle\/(\d+)\/rounds$/.exec(hash);
  if (rounds) return { page: "rounds", id: Number(rounds[1]) };
  if (hash === "#/tickets") return { page: "tickets" };
  return { page: "raffles" };
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(window.location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseRoute(window.location.hash));
    window.addEventListener("hashchange", onChange);
    return () => window.removeEventListener("hashchange", onChange);
  }, []);
  return route;
}
