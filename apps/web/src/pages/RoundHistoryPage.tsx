import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { Address } from "viem";
import { useConfig } from "wagmi";

import { ItemPrize } from "../components/ItemPrize";
import { priceOfRound, useNativeSymbol } from "../components/RoundFacts";
import type { PublicRound } from "../lib/api";
import { chainName, useApp } from "../lib/app-context";
import { checkDraw, prizeName, readDrawRecordFromChain, type DrawCheck } from "../lib/draw-check";
import { formatAmount, shortAddress } from "../lib/format";
import { ITEM_STATUS_TEXT, useRoundItems } from "../lib/items";
import { explain } from "../lib/messages";
import { commissionOf, prizeFiguresText, rateText } from "../lib/prize";
import { refundReasonText } from "../lib/refund-reason";
import { formatDateTime } from "../lib/locale";

/** Rounds per page of the history. */
const PAGE_SIZE = 10;

const STATUS_LABELS: Record<PublicRound["status"], string> = {
  ACTIVE: "Selling tickets",
  DRAWING: "Ended: waiting for the random word",
  WINNERS_PENDING: "Ended: random word received, winners being drawn",
  DRAWN: "Drawn",
  CLOSED: "Ended without tickets",
  REFUNDABLE: "Refundable",
  CLAIMED: "Drawn: every prize claimed",
  RELEASED: "Drawn: unclaimed prizes released to the organiser",
};

const CLAIM_LABELS: Record<string, string> = {
  UNCLAIMED: "not claimed yet",
  CLAIMED: "claimed",
  RELEASED: "released to the organiser",
};

/** Statuses whose winners are drawn, so the draw can be verified. */
const DRAWN = new Set<PublicRound["status"]>(["DRAWN", "CLAIMED", "RELEASED"]);

function when(iso: string | null): string {
  return iso ? formatDateTime(iso, { dateStyle: "medium", timeStyle: "short" }) : "not yet";
}

/** Round history: every round of a public-sale raffle, newest first, with its winners, its draw record and a check of it. */
export function RoundHistoryPage({ id }: { id: number }) {
  const { api } = useApp();
  const [skip, setSkip] = useState(0);
  const raffle = useQuery({ queryKey: ["raffle", id], queryFn: () => api.raffle(id) });
  const rounds = useQuery({
    queryKey: ["rounds", id, skip],
    queryFn: () => api.rounds(id, skip, PAGE_SIZE),
    placeholderData: keepPreviousData,
    refetchInterval: 5_000,
  });
  const title = raffle.data ? raffle.data.raffle.title || `Raffle ${id}` : `Raffle ${id}`;
  const failure = raffle.error ?? rounds.error;

  return (
    <>
      <p>
        <a href={`#/raffle/${id}`}>← Back to the raffle</a>
      </p>
      <h1>
        Round history: <bdi>{title}</bdi>
      </h1>
      <p className="hint">
        Newest round first. Winners are drawn on chain from a Chainlink VRF random word; <strong>Verify this draw</strong> reads that word from the
        chain and recomputes the winners in your browser.
      </p>
      {failure && <p role="alert">{explain(failure)}</p>}
      {!failure && rounds.isPending && <p role="status">Loading the rounds…</p>}
      {rounds.data && rounds.data.count === 0 && <p>This raffle has no rounds yet.</p>}
      {rounds.data && rounds.data.rows.length > 0 && (
        <>
          <ol className="rounds" aria-label="Rounds, newest first">
            {rounds.data.rows.map((round) => (
              <li key={round.id}>
                <RoundCard round={round} commission={commissionOf(raffle.data?.raffle)} />
              </li>
            ))}
          </ol>
          {rounds.data.count > PAGE_SIZE && (
            <nav aria-label="Round pages" className="pages">
              <button type="button" disabled={skip === 0} onClick={() => setSkip(Math.max(0, skip - PAGE_SIZE))}>
                Newer rounds
              </button>
              <span>
                Rounds {skip + 1}–{Math.min(skip + PAGE_SIZE, rounds.data.count)} of {rounds.data.count}
              </span>
              <button type="button" disabled={skip + PAGE_SIZE >= rounds.data.count} onClick={() => setSkip(skip + PAGE_SIZE)}>
                Older rounds
              </button>
            </nav>
          )}
        </>
      )}
    </>
  );
}

function RoundCard({ round, commission }: { round: PublicRound; commission: bigint | null }) {
  const { config } = useApp();
  const symbol = useNativeSymbol(round.contract.chainId);
  const price = priceOfRound(round, symbol);
  const money = (amount: string | bigint) => (price ? formatAmount(amount, price.decimals, price.symbol) : String(amount));
  const headingId = `round-${round.id}-title`;
  const name = `Round ${round.number ?? round.roundId}`;
  const refundReason = refundReasonText(round.refundReason, round.ticketCount, round.rules.minTickets);
  const shares = round.rules.prizeShares.map((share) => `${share / 100}%`).join(", ");

  return (
    <article className="panel round" aria-labelledby={headingId}>
      <h2 id={headingId}>{name}</h2>
      <p className={`state state-${round.status.toLowerCase()}`}>
        {STATUS_LABELS[round.status]}
        {refundReason && `: ${refundReason}`}
      </p>
      <dl className="facts">
        <div>
          <dt>Started</dt>
          <dd>{when(round.startTimestamp)}</dd>
        </div>
        <div>
          <dt>Ended</dt>
          <dd>{when(round.endTimestamp)}</dd>
        </div>
        {price && (
          <div>
            <dt>Price</dt>
            <dd>{money(price.amount)}</dd>
          </div>
        )}
        <div>
          <dt>Tickets</dt>
          <dd>{round.maxTickets > 0 ? `${round.ticketCount} / ${round.maxTickets} sold` : `${round.ticketCount} sold (no limit)`}</dd>
        </div>
        <div>
          <dt>Pot</dt>
          <dd>{money(round.pot)}</dd>
        </div>
        <div>
          <dt>Prize shares</dt>
          <dd>{shares}</dd>
        </div>
        {commission !== null && (
          <div>
            <dt>Commission rate</dt>
            <dd>{rateText(commission)} of each prize</dd>
          </div>
        )}
      </dl>
      {round.winners.length > 0 && (
        <>
          <h3>Winners</h3>
          <ol className="winners" aria-label={`Winners of ${name}`}>
            {round.winners.map((winner) => (
              <li key={winner.position}>
                <strong>{prizeName(winner.position)}</strong>: ticket #{winner.ticketId} · held by{" "}
                <span title={winner.account} className="mono address">
                  {shortAddress(winner.account)}
                </span>{" "}
                · {prizeFiguresText({ gross: winner.amount, commission }, money)} · {CLAIM_LABELS[winner.claimStatus] ?? winner.claimStatus}
              </li>
            ))}
          </ol>
        </>
      )}
      <RoundItems round={round} roundName={name} />
      {(round.vrfRequestId || round.randomWord || round.drawTxHash) && (
        <>
          <h3>Draw record</h3>
          <dl className="record">
            <div>
              <dt>VRF request</dt>
              <dd className="mono">{round.vrfRequestId ?? "none (one ticket won outright)"}</dd>
            </div>
            <div>
              <dt>Random word</dt>
              <dd className="mono">{round.randomWord ?? "not received yet"}</dd>
            </div>
            <div>
              <dt>Recorded in transaction</dt>
              <dd className="mono">{round.drawTxHash ?? "not indexed yet"}</dd>
            </div>
          </dl>
        </>
      )}
      {DRAWN.has(round.status) && round.winners.length > 0 && <VerifyDraw round={round} roundName={name} />}
      <p className="hint">On {chainName(config, round.contract.chainId)}.</p>
    </article>
  );
}

/** The round's item prizes, read from its escrow on chain: each position's item and where it is now. */
function RoundItems({ round, roundName }: { round: PublicRound; roundName: string }) {
  const { chainId, address } = round.contract;
  const items = useRoundItems(chainId, address, round.roundId);
  if (!items.data || items.data.items.length === 0) return null;
  return (
    <>
      <h3>Item prizes</h3>
      <ol className="winners items" aria-label={`Item prizes of ${roundName}`}>
        {items.data.items.map((item) => (
          <li key={item.position}>
            <strong>{prizeName(item.position - 1)}</strong>: <ItemPrize chainId={chainId} item={item} /> · {ITEM_STATUS_TEXT[item.status ?? "None"]}
          </li>
        ))}
      </ol>
    </>
  );
}

/** The button that checks a drawn round against the chain, and the sentence it answers with. */
function VerifyDraw({ round, roundName }: { round: PublicRound; roundName: string }) {
  const wagmiConfig = useConfig();
  const [state, setState] = useState<{ busy: true } | { busy: false; check: DrawCheck } | { busy: false; error: string } | null>(null);

  async function verify() {
    setState({ busy: true });
    try {
      const record = await readDrawRecordFromChain(wagmiConfig, round.contract.chainId, round.contract.address as Address, BigInt(round.roundId));
      setState({ busy: false, check: checkDraw(record, round) });
    } catch {
      // Only reads happen here: whatever failed, the chain did not answer them.
      setState({ busy: false, error: "The chain could not be read right now, so the draw was not checked. Try again in a moment." });
    }
  }

  const describedBy = `verify-${round.id}`;
  return (
    <div className="verify">
      <button type="button" className="primary" aria-describedby={describedBy} disabled={state?.busy === true} onClick={() => void verify()}>
        Verify this draw
      </button>
      <span id={describedBy} className="visually-hidden">
        {roundName}
      </span>
      {state?.busy && <p role="status">Reading the draw from the chain…</p>}
      {state && !state.busy && "check" in state && (
        <p role="status" className={state.check.agrees ? "verdict agrees" : "verdict differs"}>
          {state.check.sentence}
        </p>
      )}
      {state && !state.busy && "error" in state && <p role="alert">{state.error}</p>}
    </div>
  );
}
