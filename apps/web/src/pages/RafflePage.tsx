import { useQuery } from "@tanstack/react-query";

import { BuyPanel } from "../components/BuyPanel";
import { RichText } from "../components/RichText";
import { RoundFacts, priceOf, useNativeSymbol } from "../components/RoundFacts";
import type { PublicRaffle } from "../lib/api";
import { chainName, useApp } from "../lib/app-context";
import type { RoundRulesView } from "../lib/bundles";
import { prizeName } from "../lib/draw-check";
import { formatAmount } from "../lib/format";
import { explain } from "../lib/messages";
import { commissionOf, grossShares, prizeFiguresText, rateText } from "../lib/prize";

/** How the pot is shared, from the round's rules (one winner by default). */
function prizeSentence(rules: RoundRulesView | undefined, commission: bigint | null): string {
  const shares = rules?.prizeShares ?? [10_000];
  const less = commission === null ? "less the organiser's commission" : `less the organiser's ${rateText(commission)} commission on each prize`;
  const minimum =
    rules && rules.minTickets > 1 ? ` A round needs ${rules.minTickets} tickets to be drawn; below that, every ticket is refunded.` : "";
  if (shares.length === 1) return `The whole pot, ${less}, goes to one winning ticket.${minimum}`;
  const split = shares.map((share) => `${share / 100}%`).join(", ");
  return `${shares.length} winning tickets share the pot (${split}), ${less}.${minimum}`;
}

/** Each prize of the selling round as its pot stands, labelled as My tickets and Round history label a won prize. */
function PrizesSoFar({ raffle }: { raffle: PublicRaffle }) {
  const price = priceOf(raffle, useNativeSymbol(raffle.raffle.chainId));
  const { round, pot } = raffle;
  if (!round || round.status !== "ACTIVE" || !price || pot === null || BigInt(pot) === 0n) return null;
  const money = (amount: string | bigint) => formatAmount(amount, price.decimals, price.symbol);
  const commission = commissionOf(raffle.raffle);
  return (
    <>
      <h3 id="prizes-so-far">Prizes if the round ended now</h3>
      <ol className="winners" aria-labelledby="prizes-so-far">
        {grossShares(pot, round.rules.prizeShares).map((gross, position) => (
          <li key={position}>
            <strong>{prizeName(position)}</strong>: {prizeFiguresText({ gross, commission }, money)}
          </li>
        ))}
      </ol>
    </>
  );
}

/** One raffle: its description, its current round and Buy. */
export function RafflePage({ id }: { id: number }) {
  const { api, config } = useApp();
  const raffle = useQuery({ queryKey: ["raffle", id], queryFn: () => api.raffle(id), refetchInterval: 3_000 });
  if (raffle.isPending) return <p role="status">Loading the raffle…</p>;
  if (raffle.error) {
    return (
      <>
        <h1>Raffle not found</h1>
        <p role="alert">{explain(raffle.error)}</p>
        <p>
          <a href="#/">See the raffles on sale</a>
        </p>
      </>
    );
  }
  const { raffle: contract, round } = raffle.data;
  return (
    <>
      <p>
        <a href="#/">← All raffles</a>
      </p>
      <h1>
        <bdi>{contract.title || `Raffle ${contract.id}`}</bdi>
      </h1>
      {contract.imageUrl && <img src={contract.imageUrl} alt="" className="hero" />}
      <RichText source={contract.description} unlessOnly={contract.title} />
      <section aria-labelledby="round-title" className="panel">
        <h2 id="round-title">{round ? `Round ${round.number ?? round.roundId}` : "No round yet"}</h2>
        <p className="hint">
          On {chainName(config, contract.chainId)}. {prizeSentence(round?.rules, commissionOf(contract))}
        </p>
        <RoundFacts raffle={raffle.data} bar />
        <PrizesSoFar raffle={raffle.data} />
        {round && <BuyPanel raffle={raffle.data} />}
      </section>
      <p>
        <a href={`#/raffle/${id}/rounds`}>Round history</a>: every round's winners and its draw, which you can verify against the chain.
      </p>
    </>
  );
}
