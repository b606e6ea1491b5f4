import { useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { Address, Hex } from "viem";
import { useConfig, useConnection, type Config } from "wagmi";
import { readContract, simulateContract, waitForTransactionReceipt, writeContract } from "wagmi/actions";

import { openConnectMenu } from "../components/ConnectMenu";
import { GaslessStatus } from "../components/GaslessStatus";
import { GaslessHolderActions } from "../components/GaslessHolderActions";
import { ItemPrize } from "../components/ItemPrize";
import { RAFFLE_ABI } from "../lib/abi";
import { ApiError, type PlayerTicket } from "../lib/api";
import { chainName, useApp } from "../lib/app-context";
import { formatAmount } from "../lib/format";
import { itemLabelQuery, readRoundItems, type ItemStatus, type PrizeItem } from "../lib/items";
import { explain } from "../lib/messages";
import { basisPointsOf, prizeFiguresText } from "../lib/prize";
import { refundReasonText } from "../lib/refund-reason";
import { useSession } from "../lib/session";

const STATE_LABELS: Record<PlayerTicket["state"], string> = {
  ACTIVE: "Active: waiting for the draw",
  WON: "Won",
  LOST: "Did not win",
  REFUNDABLE: "Refundable",
  REFUNDED: "Refunded",
  CLAIMED: "Prize claimed",
  RELEASED: "Prize released to the organiser",
};

/** Rounds (groups of tickets) per page. */
const GROUPS_PER_PAGE = 20;
/** The Raffle's most tickets in one claimPrizes or refundTickets call (`MAX_BATCH`). */
const MAX_BATCH = 100;

/** What a step of Claim all or Refund all says; the last one stays on the page once its tickets are no longer open. */
interface ActionStatus {
  text: string;
  hash?: Hex;
  failed?: boolean;
}

function StatusLine({ status }: { status: ActionStatus }) {
  return (
    <p role={status.failed ? "alert" : "status"} className={status.failed ? "error" : "status"}>
      {status.text}
      {status.hash && (
        <>
          {" "}
          Transaction <code>{status.hash}</code>
        </>
      )}
    </p>
  );
}

interface TicketGroup {
  key: string;
  raffle: string;
  contractId: number;
  chainId: number;
  title: string;
  roundId: string;
  tickets: PlayerTicket[];
}

/** The tickets by raffle and round, in the API's order (newest first). */
function groupTickets(tickets: PlayerTicket[]): TicketGroup[] {
  const groups = new Map<string, TicketGroup>();
  for (const ticket of tickets) {
    const key = `${ticket.chainId}:${ticket.raffle}:${ticket.roundId}`;
    let group = groups.get(key);
    if (!group) {
      group = {
        key,
        raffle: ticket.raffle,
        contractId: ticket.contractId,
        chainId: ticket.chainId,
        title: ticket.title || `Raffle ${ticket.contractId}`,
        roundId: ticket.roundId,
        tickets: [],
      };
      groups.set(key, group);
    }
    group.tickets.push(ticket);
  }
  return [...groups.values()];
}

function useMoney(ticket: Pick<PlayerTicket, "priceType" | "chainId" | "symbol" | "decimals">) {
  const { config } = useApp();
  const symbol = ticket.priceType === "NATIVE" ? (config.chains.find((chain) => chain.id === ticket.chainId)?.symbol ?? "ETH") : ticket.symbol;
  const decimals = ticket.priceType === "NATIVE" ? 18 : ticket.decimals;
  return (amount: string | bigint) => formatAmount(amount, decimals, symbol);
}

/** My tickets: the signed-in address's tickets by raffle and round, paged, with Claim all and Refund all per raffle. */
export function MyTicketsPage() {
  const { api } = useApp();
  const connection = useConnection();
  const { session, signIn, forget } = useSession();
  const [error, setError] = useState<string | null>(null);
  const [skip, setSkip] = useState(0);
  const [done, setDone] = useState<ActionStatus | null>(null);
  // Claims and refunds sent without gas, followed here: a row goes once its tickets are paid, its request's state stays.
  const [relayed, setRelayed] = useState<string[]>([]);
  const tickets = useQuery({
    queryKey: ["tickets", session?.token],
    queryFn: () => api.tickets(session!.token),
    enabled: Boolean(session),
    refetchInterval: 3_000,
  });
  if (tickets.error instanceof ApiError && tickets.error.code === "sessionRequired") forget();
  const groups = tickets.data ? groupTickets(tickets.data) : [];
  const shown = groups.slice(skip, skip + GROUPS_PER_PAGE);

  return (
    <section aria-labelledby="my-tickets-title">
      <h1 id="my-tickets-title">My tickets</h1>
      {!connection.isConnected && (
        <button type="button" className="primary" onClick={openConnectMenu}>
          Connect your wallet to see your tickets
        </button>
      )}
      {connection.isConnected && !session && (
        <>
          <p>Sign in with your wallet to see your tickets. Signing in costs nothing.</p>
          <button type="button" className="primary" onClick={() => signIn().catch((failure) => setError(explain(failure)))}>
            Sign in
          </button>
        </>
      )}
      {error && <p role="alert">{error}</p>}
      {tickets.error && !(tickets.error instanceof ApiError && tickets.error.code === "sessionRequired") && (
        <p role="alert">{explain(tickets.error)}</p>
      )}
      {session && tickets.data && tickets.data.length === 0 && (
        <p>
          You have no tickets yet. <a href="#/">See the raffles on sale</a>.
        </p>
      )}
      {session && tickets.data && tickets.data.length > 0 && (
        <>
          {done && <StatusLine status={done} />}
          {relayed.map((id) => (
            <GaslessStatus key={id} id={id} />
          ))}
          <BatchActions tickets={tickets.data} token={session.token} onDone={setDone} onRelayed={(id) => setRelayed((ids) => [...ids, id])} />
          <ul className="ticket-groups" aria-label="Your tickets by round">
            {shown.map((group) => (
              <li key={group.key}>
                <RoundGroup group={group} />
              </li>
            ))}
          </ul>
          {groups.length > GROUPS_PER_PAGE && (
            <nav aria-label="Ticket pages" className="pages">
              <button type="button" disabled={skip === 0} onClick={() => setSkip(Math.max(0, skip - GROUPS_PER_PAGE))}>
                Newer rounds
              </button>
              <span>
                Rounds {skip + 1}–{Math.min(skip + GROUPS_PER_PAGE, groups.length)} of {groups.length}
              </span>
              <button type="button" disabled={skip + GROUPS_PER_PAGE >= groups.length} onClick={() => setSkip(skip + GROUPS_PER_PAGE)}>
                Older rounds
              </button>
            </nav>
          )}
        </>
      )}
    </section>
  );
}

/** One round of one raffle: its tickets, each with its state and, for a prize, the figures that make it up. */
function RoundGroup({ group }: { group: TicketGroup }) {
  const { config } = useApp();
  const money = useMoney(group.tickets[0]);
  const headingId = `group-${group.key.replaceAll(":", "-")}`;
  const items = useWinningItems(group);
  return (
    <article className="panel ticket-group" aria-labelledby={headingId}>
      <h2 id={headingId}>
        <bdi>{group.title}</bdi> · round {group.roundId}
      </h2>
      <p className="hint">
        On {chainName(config, group.chainId)} · {group.tickets.length} {group.tickets.length === 1 ? "ticket" : "tickets"}
      </p>
      <ul className="tickets">
        {group.tickets.map((ticket) => (
          <li key={ticket.tokenId} className="ticket">
            <span>Ticket #{ticket.serial}</span> <span className={`state state-${ticket.state.toLowerCase()}`}>{ticketStateText(ticket, money)}</span>
            {items.data?.get(ticket.tokenId) && <TicketItem chainId={group.chainId} item={items.data.get(ticket.tokenId)!} />}
          </li>
        ))}
      </ul>
    </article>
  );
}

/** Ticket states whose round was drawn and the ticket won a position. */
const WINNING = new Set<PlayerTicket["state"]>(["WON", "CLAIMED", "RELEASED"]);

/**
 * The item each winning ticket of a round wins, by ticket id (read from the chain: the round's winners and its
 * escrowed items), or none when the round has no items.
 */
function useWinningItems(group: TicketGroup) {
  const wagmiConfig = useConfig();
  return useQuery({
    queryKey: ["winning-items", group.chainId, group.raffle, group.roundId],
    enabled: group.tickets.some((ticket) => WINNING.has(ticket.state)),
    refetchInterval: 5_000,
    queryFn: () => readWinningItems(wagmiConfig, group.chainId, group.raffle as Address, group.roundId),
  });
}

/** A round's items by the id of the winning ticket that wins each (empty when the round has no items). */
async function readWinningItems(wagmiConfig: Config, chainId: number, raffle: Address, round: string): Promise<Map<string, PrizeItem>> {
  const roundId = BigInt(round);
  const { items } = await readRoundItems(wagmiConfig, chainId, raffle, roundId);
  const byTicket = new Map<string, PrizeItem>();
  if (items.length === 0) return byTicket;
  const winners = await readContract(wagmiConfig, { chainId, address: raffle, abi: RAFFLE_ABI, functionName: "getWinners", args: [roundId] });
  winners.forEach((winner, index) => {
    const item = items.find((each) => each.position === index + 1);
    if (item) byTicket.set(winner.ticketId.toString(), item);
  });
  return byTicket;
}

/** ", with Legendary Sword and 50 × Potion of Healing": the items a claim sent to the wallet, by name. */
async function claimedItemsText(wagmiConfig: Config, queryClient: QueryClient, batch: PlayerTicket[]): Promise<string> {
  const claimed: Array<{ position: number; name: string }> = [];
  const { chainId, raffle } = batch[0];
  for (const roundId of new Set(batch.map((ticket) => ticket.roundId))) {
    const byTicket = await readWinningItems(wagmiConfig, chainId, raffle as Address, roundId);
    for (const ticket of batch.filter((each) => each.roundId === roundId)) {
      const item = byTicket.get(ticket.tokenId);
      if (item?.status === "Claimed") {
        claimed.push({ position: item.position, name: (await queryClient.fetchQuery(itemLabelQuery(wagmiConfig, chainId, item))).text });
      }
    }
  }
  if (claimed.length === 0) return "";
  // First prize first, as the pages list prizes.
  const names = claimed.sort((a, b) => a.position - b.position).map((each) => each.name);
  return `, with ${names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`}`;
}

const TICKET_ITEM_STATUS: Record<ItemStatus, string> = {
  None: "not escrowed",
  Escrowed: "to claim",
  Claimed: "claimed: it is in your wallet",
  Returned: "returned to the organiser",
};

/** A winning ticket's item and whether it was claimed. */
function TicketItem({ chainId, item }: { chainId: number; item: PrizeItem }) {
  return (
    <span className="ticket-item">
      {" "}
      · item: <ItemPrize chainId={chainId} item={item} /> ({TICKET_ITEM_STATUS[item.status ?? "None"]})
    </span>
  );
}

/** A ticket's state in words, with a prize's labelled figures or the refund it is owed and why. */
function ticketStateText(ticket: PlayerTicket, money: (amount: string | bigint) => string): string {
  if (ticket.state === "REFUNDABLE") {
    const why = refundReasonText(ticket.refundReason, ticket.roundTicketCount, ticket.roundMinTickets) ?? "the round was not drawn";
    return `Refundable: ${why} · ${money(ticket.price)} back`;
  }
  if (ticket.prize) {
    const figures = prizeFiguresText({ gross: ticket.grossShare, commission: basisPointsOf(ticket.commission), net: ticket.prize }, money);
    return `${STATE_LABELS[ticket.state]} · ${figures}`;
  }
  return STATE_LABELS[ticket.state];
}

/** Per raffle with prizes or refunds open: one button that claims (or refunds) them all, across its rounds, in one transaction. */
function BatchActions({
  tickets,
  token,
  onDone,
  onRelayed,
}: {
  tickets: PlayerTicket[];
  token: string;
  onDone: (status: ActionStatus) => void;
  onRelayed: (id: string) => void;
}) {
  const byRaffle = new Map<string, PlayerTicket[]>();
  for (const ticket of tickets) {
    if (ticket.state !== "WON" && ticket.state !== "REFUNDABLE") continue;
    const key = `${ticket.chainId}:${ticket.raffle}`;
    byRaffle.set(key, [...(byRaffle.get(key) ?? []), ticket]);
  }
  if (byRaffle.size === 0) return null;
  return (
    <section aria-labelledby="open-actions-title" className="panel">
      <h2 id="open-actions-title">Waiting for you</h2>
      <ul className="batch-actions">
        {[...byRaffle.entries()].map(([key, open]) => (
          <RaffleActions key={key} tickets={open} token={token} onDone={onDone} onRelayed={onRelayed} />
        ))}
      </ul>
    </section>
  );
}

function RaffleActions({
  tickets,
  token,
  onDone,
  onRelayed,
}: {
  tickets: PlayerTicket[];
  token: string;
  onDone: (status: ActionStatus) => void;
  onRelayed: (id: string) => void;
}) {
  const { api } = useApp();
  const wagmiConfig = useConfig();
  const connection = useConnection();
  const queryClient = useQueryClient();
  const money = useMoney(tickets[0]);
  const [status, setStatus] = useState<ActionStatus | null>(null);
  const [busy, setBusy] = useState(false);
  const won = tickets.filter((ticket) => ticket.state === "WON");
  const refundable = tickets.filter((ticket) => ticket.state === "REFUNDABLE");
  const { raffle, chainId, contractId } = tickets[0];
  const title = tickets[0].title || `Raffle ${contractId}`;
  const sum = (rows: PlayerTicket[], pick: (ticket: PlayerTicket) => string) => rows.reduce((total, ticket) => total + BigInt(pick(ticket)), 0n);
  const describedBy = `actions-${chainId}-${raffle}`;

  async function act(action: "claim" | "refund") {
    const chosen = action === "claim" ? won : refundable;
    const doneState = action === "claim" ? "CLAIMED" : "REFUNDED";
    setBusy(true);
    try {
      // One transaction for up to the contract's batch size: a player with more prizes than that confirms once per batch.
      for (let start = 0; start < chosen.length; start += MAX_BATCH) {
        const batch = chosen.slice(start, start + MAX_BATCH);
        setStatus({ text: "Confirm in your wallet…" });
        const { request } = await simulateContract(wagmiConfig, {
          chainId,
          account: connection.address!,
          address: raffle as Address,
          abi: RAFFLE_ABI,
          functionName: action === "claim" ? "claimPrizes" : "refundTickets",
          args: [batch.map((ticket) => ({ roundId: BigInt(ticket.roundId), ticketId: BigInt(ticket.tokenId) }))],
        });
        const hash = await writeContract(wagmiConfig, request);
        setStatus({ text: "Sent, waiting for the network…", hash });
        await waitForTransactionReceipt(wagmiConfig, { chainId, hash });
        const ids = new Set(batch.map((ticket) => ticket.tokenId));
        for (;;) {
          const rows = await api.tickets(token);
          const done = rows.filter((row) => row.raffle === raffle && ids.has(row.tokenId) && row.state === doneState).length;
          if (done === ids.size) break;
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
        const items = action === "claim" ? await claimedItemsText(wagmiConfig, queryClient, batch).catch(() => "") : "";
        const text =
          action === "claim"
            ? `${batch.length === 1 ? "Prize" : `${batch.length} prizes`} claimed: ${money(sum(batch, (ticket) => ticket.prize ?? "0"))} is in your wallet${items}.`
            : `${batch.length === 1 ? "Ticket" : `${batch.length} tickets`} refunded: ${money(sum(batch, (ticket) => ticket.price))} is back in your wallet.`;
        // Said by the page, not this row: once its tickets are paid, the row is gone.
        setStatus(null);
        onDone({ text, hash });
      }
      await queryClient.invalidateQueries({ queryKey: ["tickets"] });
    } catch (failure) {
      setStatus({ text: explain(failure), failed: true });
    }
    setBusy(false);
  }

  return (
    <li>
      <strong id={describedBy}>
        <bdi>{title}</bdi>
      </strong>
      {won.length > 0 && (
        <p>
          {won.length === 1 ? "1 prize" : `${won.length} prizes`} to claim, {money(sum(won, (ticket) => ticket.prize ?? "0"))} in all.{" "}
          <button type="button" className="primary" disabled={busy} aria-describedby={describedBy} onClick={() => void act("claim")}>
            Claim all
          </button>
        </p>
      )}
      {refundable.length > 0 && (
        <p>
          {refundable.length === 1 ? "1 ticket" : `${refundable.length} tickets`} to refund, {money(sum(refundable, (ticket) => ticket.price))} in
          all.{" "}
          <button type="button" className="primary" disabled={busy} aria-describedby={describedBy} onClick={() => void act("refund")}>
            Refund all
          </button>
        </p>
      )}
      <GaslessHolderActions won={won} refundable={refundable} describedBy={describedBy} busy={busy} onRelayed={onRelayed} />
      {status && <StatusLine status={status} />}
    </li>
  );
}
