import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { Address, Hex } from "viem";
import { useConfig, useConnection } from "wagmi";
import { simulateContract, waitForTransactionReceipt, writeContract } from "wagmi/actions";

import { RAFFLE_ABI } from "../lib/abi";
import { ApiError, type PlayerTicket } from "../lib/api";
import { chainName, useApp } from "../lib/app-context";
import { formatAmount } from "../lib/format";
import { explain } from "../lib/messages";
import { useSession } from "../lib/session";

const STATE_LABELS: Record<PlayerTicket["state"], string> = {
  ACTIVE: "Active: waiting for the draw",
  WON: "Won",
  LOST: "Not drawn",
  REFUNDABLE: "Refundable: the draw did not happen",
  REFUNDED: "Refunded",
  CLAIMED: "Prize claimed",
  RELEASED: "Prize released to the organiser",
};

/** My tickets: every ticket of the signed-in address, with Claim and Refund where they apply. */
export function MyTicketsPage() {
  const { api } = useApp();
  const connection = useConnection();
  const { session, signIn, forget } = useSession();
  const [error, setError] = useState<string | null>(null);
  const tickets = useQuery({
    queryKey: ["tickets", session?.token],
    queryFn: () => api.tickets(session!.token),
    enabled: Boolean(session),
    refetchInterval: 3_000,
  });
  if (tickets.error instanceof ApiError && tickets.error.code === "sessionRequired") forget();

  return (
    <section aria-labelledby="my-tickets-title">
      <h1 id="my-tickets-title">My tickets</h1>
      {!connection.isConnected && <p>Connect your wallet to see your tickets.</p>}
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
      {session && tickets.data && tickets.data.length === 0 && <p>You have no tickets yet.</p>}
      {session && tickets.data && tickets.data.length > 0 && (
        <ul className="tickets" aria-labelledby="my-tickets-title">
          {tickets.data.map((ticket) => (
            <TicketRow key={`${ticket.raffle}:${ticket.tokenId}`} ticket={ticket} token={session.token} />
          ))}
        </ul>
      )}
    </section>
  );
}

function TicketRow({ ticket, token }: { ticket: PlayerTicket; token: string }) {
  const { api, config } = useApp();
  const wagmiConfig = useConfig();
  const connection = useConnection();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<{ text: string; hash?: Hex; failed?: boolean } | null>(null);
  const symbol = ticket.priceType === "NATIVE" ? (config.chains.find((chain) => chain.id === ticket.chainId)?.symbol ?? "ETH") : ticket.symbol;
  const decimals = ticket.priceType === "NATIVE" ? 18 : ticket.decimals;

  async function act(action: "claim" | "refund") {
    const doneState = action === "claim" ? "CLAIMED" : "REFUNDED";
    try {
      setStatus({ text: "Confirm in your wallet…" });
      const { request } = await simulateContract(wagmiConfig, {
        chainId: ticket.chainId,
        account: connection.address!,
        address: ticket.raffle as Address,
        abi: RAFFLE_ABI,
        // One ticket here; the calls take a batch of them, across rounds of the raffle.
        functionName: action === "claim" ? "claimPrizes" : "refundTickets",
        args: [[{ roundId: BigInt(ticket.roundId), ticketId: BigInt(ticket.tokenId) }]],
      });
      const hash = await writeContract(wagmiConfig, request);
      setStatus({ text: "Sent, waiting for the network…", hash });
      await waitForTransactionReceipt(wagmiConfig, { chainId: ticket.chainId, hash });
      for (;;) {
        const rows = await api.tickets(token);
        if (rows.some((row) => row.raffle === ticket.raffle && row.tokenId === ticket.tokenId && row.state === doneState)) break;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      setStatus({ text: action === "claim" ? "Prize claimed: it is in your wallet." : "Ticket refunded: the price is back in your wallet.", hash });
      await queryClient.invalidateQueries({ queryKey: ["tickets"] });
    } catch (failure) {
      setStatus({ text: explain(failure), failed: true });
    }
  }

  const title = ticket.title || `Raffle ${ticket.contractId}`;
  return (
    <li className="ticket">
      <div>
        <strong>
          <bdi>{title}</bdi>
        </strong>{" "}
        · ticket #{ticket.serial} · round {ticket.roundId}
        <span className="hint"> · {chainName(config, ticket.chainId)}</span>
      </div>
      <div className={`state state-${ticket.state.toLowerCase()}`}>
        {STATE_LABELS[ticket.state]}
        {ticket.prize && <> · prize {formatAmount(ticket.prize, decimals, symbol)}</>}
        {ticket.state === "REFUNDABLE" && <> · {formatAmount(ticket.price, decimals, symbol)} back</>}
      </div>
      {ticket.state === "WON" && (
        <button type="button" className="primary" aria-describedby={`ticket-${ticket.raffle}-${ticket.tokenId}`} onClick={() => void act("claim")}>
          Claim
        </button>
      )}
      {ticket.state === "REFUNDABLE" && (
        <button type="button" className="primary" aria-describedby={`ticket-${ticket.raffle}-${ticket.tokenId}`} onClick={() => void act("refund")}>
          Refund
        </button>
      )}
      <span id={`ticket-${ticket.raffle}-${ticket.tokenId}`} className="visually-hidden">
        <bdi>{title}</bdi> ticket #{ticket.serial}
      </span>
      {status && (
        <p role={status.failed ? "alert" : "status"} className={status.failed ? "error" : "status"}>
          {status.text}
          {status.hash && (
            <>
              {" "}
              Transaction <code>{status.hash}</code>
            </>
          )}
        </p>
      )}
    </li>
  );
}
