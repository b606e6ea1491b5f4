import { useQuery } from "@tanstack/react-query";

import { BuyPanel } from "../components/BuyPanel";
import { ItemPrize } from "../components/ItemPrize";
import { RichText } from "../components/RichText";
import { RoundFacts, priceOf, useNativeSymbol } from "../components/RoundFacts";
import type { PublicRaffle } from "../lib/api";
import { chainName, useApp } from "../lib/app-context";
import type { RoundRulesView } from "../lib/bundles";
import { prizeName } from "../lib/draw-check";
import { formatAmount } from "../lib/format";
import { useRoundItems, type PrizeItem } from "../lib/items";
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

/** The round's item prizes in a sentence: how many, held in escrow, and the winners who win an item only. */
function itemSentence(shareCount: number, items: PrizeItem[]): string {
  if (items.length === 0) return "";
  const extra = Math.max(0, ...items.map((item) => item.position)) - shareCount;
  const only = extra <= 0 ? "" : extra === 1 ? "; one more winning ticket wins an item only" : `; ${extra} more winning tickets win an item only`;
  const held = items.length === 1 ? "One prize is an item" : `${items.length} prizes are items`;
  return ` ${held}, held in escrow by the raffle until ${items.length === 1 ? "its winner claims it" : "their winners claim them"}${only}.`;
}

/**
 * Each prize of the selling round as its pot stands, labelled as My tickets and Round history label a won prize, with
 * the item a position wins (read from the chain: the round's escrow and the item token's metadata).
 */
function PrizesSoFar({ raffle }: { raffle: PublicRaffle }) {
  const price = priceOf(raffle, useNativeSymbol(raffle.raffle.chainId));
  const { round, pot } = raffle;
  const selling = round?.status === "ACTIVE";
  const items = useRoundItems(raffle.raffle.chainId, raffle.raffle.address, selling ? round.roundId : null);
  if (!round || !selling || !price) return null;
  const money = (amount: string | bigint) => formatAmount(amount, price.decimals, price.symbol);
  const commission = commissionOf(raffle.raffle);
  const shares = pot !== null && BigInt(pot) > 0n ? grossShares(pot, round.rules.prizeShares) : [];
  const roundItems = items.data?.items ?? [];
  const positions = Math.max(shares.length, ...roundItems.map((item) => item.position));
  if (positions === 0) return null;
  return (
    <>
      <h3 id="prizes-so-far">Prizes if the round ended now</h3>
      <ol className="winners" aria-labelledby="prizes-so-far">
        {Array.from({ length: positions }, (_, position) => {
          const item = roundItems.find((each) => each.position === position + 1);
          const gross = shares[position];
          // Before the first ticket the pot is empty: a position's share is said as a percentage.
          const share = round.rules.prizeShares[position];
          const shareText = gross !== undefined ? prizeFiguresText({ gross, commission }, money) : share ? `${share / 100}% of the pot` : null;
          return (
            <li key={position}>
              <strong>{prizeName(position)}</strong>: {item && <ItemPrize chainId={raffle.raffle.chainId} item={item} />}
              {item && shareText && " · plus "}
              {shareText}
            </li>
          );
        })}
      </ol>
    </>
  );
}

/** One raffle: its description, its current round and Buy. */
export function RafflePage({ id }: { id: number }) {
  const { api, config } = useApp();
  const raffle = useQuery({ queryKey: ["raffle", id], queryFn: () => api.raffle(id), refetchInterval: 3_000 });
  const selling = raffle.data?.round?.status === "ACTIVE" ? raffle.data.round.roundId : null;
  const items = useRoundItems(raffle.data?.raffle.chainId ?? 0, raffle.data?.raffle.address ?? "", selling);
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
          {itemSentence(round?.rules.prizeShares.length ?? 1, items.data?.items ?? [])}
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
