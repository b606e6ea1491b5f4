import type { PublicRaffle } from "../lib/api";
import { useApp } from "../lib/app-context";
import { formatAmount, timeUntil } from "../lib/format";

export interface TicketPrice {
  amount: string;
  decimals: number;
  symbol: string;
  isNative: boolean;
}

/** The price of one ticket of a raffle's current round, in its token. */
export function priceOf(raffle: PublicRaffle, nativeSymbol: string): TicketPrice | null {
  return raffle.round ? priceOfRound(raffle.round, nativeSymbol) : null;
}

/** The price of one ticket of a round, in its token. */
export function priceOfRound(round: NonNullable<PublicRaffle["round"]>, nativeSymbol: string): TicketPrice | null {
  const component = round.price.components[0];
  if (!component) return null;
  const isNative = component.tokenType === "NATIVE";
  return {
    amount: component.amount,
    decimals: isNative ? 18 : component.contract.decimals,
    symbol: isNative ? nativeSymbol : component.contract.symbol,
    isNative,
  };
}

export function useNativeSymbol(chainId: number): string {
  const { config } = useApp();
  return config.chains.find((chain) => chain.id === chainId)?.symbol ?? "ETH";
}

/** Price, tickets sold (as a bar when `bar`), pot and the next draw: the round at a glance. */
export function RoundFacts({ raffle, bar = false }: { raffle: PublicRaffle; bar?: boolean }) {
  const symbol = useNativeSymbol(raffle.raffle.chainId);
  const price = priceOf(raffle, symbol);
  const round = raffle.round;
  if (!round || !price) return <p>No round is open yet.</p>;
  const sold = round.ticketCount;
  const max = round.maxTickets;
  const label = max > 0 ? `${sold} / ${max} sold` : `${sold} sold (no limit)`;
  return (
    <dl className="facts">
      <div>
        <dt>Price</dt>
        <dd>{formatAmount(price.amount, price.decimals, price.symbol)}</dd>
      </div>
      <div>
        <dt>Tickets</dt>
        <dd>
          {label}
          {bar && max > 0 && <progress className="sold" max={max} value={sold} aria-label={`Tickets sold: ${label}`} />}
        </dd>
      </div>
      {raffle.pot !== null && (
        <div>
          <dt>Pot so far</dt>
          <dd>{formatAmount(raffle.pot, price.decimals, price.symbol)}</dd>
        </div>
      )}
      <div>
        <dt>Next draw</dt>
        <dd>{round.endTimestamp ? "Round ended; the next one starts soon" : raffle.nextDrawAt ? timeUntil(raffle.nextDrawAt) : "Not scheduled"}</dd>
      </div>
    </dl>
  );
}
