import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { parseAbi, type Address } from "viem";
import { useConfig, useConnection } from "wagmi";
import { readContract, signTypedData } from "wagmi/actions";

import { gaslessOf, type PlayerTicket } from "../lib/api";
import { useApp } from "../lib/app-context";
import { HOLDER_INTENT_SECONDS, claimIntentTypedData, refundIntentTypedData } from "../lib/gasless";
import { explain } from "../lib/messages";
import { useActsWithoutSwitch } from "../lib/network-need";
import { useSession } from "../lib/session";
import { duplicateRequestId } from "../lib/gasless-state";

/** The Raffle's Exchange: the EIP-712 domain a ClaimIntent or RefundIntent is signed on. */
const RAFFLE_EXCHANGE_ABI = parseAbi(["function exchange() view returns (address)"]);
/** The API's most tickets in one ClaimIntent or RefundIntent: a holder with more signs once per batch. */
const MAX_BATCH = 20;

/**
 * "Claim without gas" and "Refund without gas" for one raffle's open tickets, where its merchant relays: the holder
 * signs a ClaimIntent (or RefundIntent) per batch, the API queues it, a relayer sends it, and the prize or refund is
 * paid to the holder whoever sends it. Each request's state is followed by the page (`onRelayed`).
 */
export function GaslessHolderActions({
  won,
  refundable,
  describedBy,
  busy,
  onRelayed,
}: {
  won: PlayerTicket[];
  refundable: PlayerTicket[];
  describedBy: string;
  busy: boolean;
  onRelayed: (id: string) => void;
}) {
  const { api } = useApp();
  const wagmiConfig = useConfig();
  const connection = useConnection();
  const { session, signIn } = useSession();
  const { contractId, chainId, raffle } = (won[0] ?? refundable[0])!;
  // The raffle's public page says whether its merchant relays; a raffle off public sale offers no gasless path.
  const offer = useQuery({ queryKey: ["raffle", contractId], queryFn: () => api.raffle(contractId), retry: false, refetchInterval: 10_000 });
  const [working, setWorking] = useState<"claim" | "refund" | null>(null);
  const [sent, setSent] = useState<Set<string>>(new Set());
  const [failure, setFailure] = useState<string | null>(null);
  // Whatever the price (ETH or a token): the holder's signature alone moves the prize or the refund.
  const offered = Boolean(offer.data && gaslessOf(offer.data)?.claimsAndRefunds);
  const openWon = won.filter((ticket) => !sent.has(ticket.tokenId));
  const openRefundable = refundable.filter((ticket) => !sent.has(ticket.tokenId));
  useActsWithoutSwitch(offered && (openWon.length > 0 || openRefundable.length > 0));
  if (!offered) return null;

  async function relay(kind: "claim" | "refund", chosen: PlayerTicket[]) {
    const holder = connection.address;
    if (!holder) return;
    setWorking(kind);
    setFailure(null);
    try {
      const current = session ?? (await signIn(chainId));
      const exchange = await readContract(wagmiConfig, { chainId, address: raffle as Address, abi: RAFFLE_EXCHANGE_ABI, functionName: "exchange" });
      for (let start = 0; start < chosen.length; start += MAX_BATCH) {
        const batch = chosen.slice(start, start + MAX_BATCH);
        const tickets = batch.map((ticket) => ({ roundId: ticket.roundId, ticketId: ticket.tokenId }));
        const deadline = BigInt(Math.floor(Date.now() / 1000) + HOLDER_INTENT_SECONDS);
        const place = { chainId, exchange, raffle };
        const signature =
          kind === "claim"
            ? await signTypedData(wagmiConfig, { account: holder, ...claimIntentTypedData(place, holder, tickets, deadline) })
            : await signTypedData(wagmiConfig, { account: holder, ...refundIntentTypedData(place, holder, tickets, deadline) });
        let id: string;
        try {
          id = (await api.gaslessHolder(current.token, kind, { contractId, tickets, deadline: deadline.toString(), signature })).id;
        } catch (error) {
          const already = duplicateRequestId(error);
          if (!already) throw error;
          id = already;
        }
        setSent((ids) => new Set([...ids, ...batch.map((ticket) => ticket.tokenId)]));
        onRelayed(id);
      }
    } catch (error) {
      setFailure(explain(error));
    }
    setWorking(null);
  }

  if (openWon.length === 0 && openRefundable.length === 0 && !failure) return null;
  return (
    <div className="gasless">
      {openWon.length > 0 && (
        <button type="button" disabled={busy || working !== null} aria-describedby={describedBy} onClick={() => void relay("claim", openWon)}>
          Claim without gas
        </button>
      )}{" "}
      {openRefundable.length > 0 && (
        <button type="button" disabled={busy || working !== null} aria-describedby={describedBy} onClick={() => void relay("refund", openRefundable)}>
          Refund without gas
        </button>
      )}
      {working && <p role="status">Sign in your wallet. It costs no gas: the organiser sends it and pays the fee.</p>}
      {failure && (
        <p role="alert" className="error">
          {failure}
        </p>
      )}
    </div>
  );
}
