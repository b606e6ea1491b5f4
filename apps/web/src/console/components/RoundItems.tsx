import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { Address } from "viem";
import { useConfig } from "wagmi";
import { waitForTransactionReceipt, writeContract } from "wagmi/actions";

import { ItemPrize } from "../../components/ItemPrize";
import { prizeName } from "../../lib/draw-check";
import { ITEM_PRIZES_ABI, useRoundItems, type ItemStatus } from "../../lib/items";
import type { RoundHistory } from "../console-api";
import { explainItemError } from "../item-checks";

/** Where a round's item is, as the merchant it came from reads it. */
const STATUS: Record<ItemStatus, string> = {
  None: "not escrowed",
  Escrowed: "held in escrow",
  Claimed: "claimed by the winner",
  Returned: "returned to you",
};

/** Round states whose items go back to the merchant at once; a drawn round's, once its release time has passed. */
const RETURNABLE_NOW = new Set(["CLOSED", "REFUNDABLE", "RELEASED"]);

function releaseTimePassed(round: RoundHistory): boolean {
  const times = round.winners.map((winner) => winner.releasableAt).filter((at): at is string => Boolean(at));
  return (round.status === "DRAWN" || round.status === "CLAIMED") && times.length > 0 && times.every((at) => new Date(at).getTime() <= Date.now());
}

/**
 * A round's escrowed items (read from the chain) and where each is: held, claimed, returned. While a round that can pay
 * no winner (closed, refundable) or is past its release time still holds some, **Return items of round #N** sends them
 * back to the merchant (`returnItems`, which anyone may call and which pays only the merchant).
 */
export function RoundItems({ chainId, raffle, round }: { chainId: number; raffle: Address; round: RoundHistory }) {
  const config = useConfig();
  const queryClient = useQueryClient();
  const items = useRoundItems(chainId, raffle, round.roundId);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!items.data || items.data.items.length === 0) return null;
  const held = items.data.items.some((item) => item.status === "Escrowed");
  const returnable = held && (RETURNABLE_NOW.has(round.status) || releaseTimePassed(round));

  async function returnItems() {
    setError(null);
    setBusy(true);
    try {
      setStatus("Confirm the return in your wallet…");
      const hash = await writeContract(config, {
        chainId,
        address: raffle,
        abi: ITEM_PRIZES_ABI,
        functionName: "returnItems",
        args: [BigInt(round.roundId)],
      });
      setStatus("Returning the items…");
      await waitForTransactionReceipt(config, { chainId, hash });
      await queryClient.invalidateQueries({ queryKey: ["round-items", chainId, raffle, round.roundId] });
      // What the wallet holds changed: the next round's checks are read again.
      await queryClient.invalidateQueries({ queryKey: ["console", "item-checks"] });
      setStatus(`The items of round #${round.roundId} are back in your wallet.`);
    } catch (failure) {
      setStatus(null);
      setError(explainItemError(failure));
    } finally {
      setBusy(false);
    }
  }

  const headingId = `round-items-${chainId}-${raffle}-${round.roundId}`;
  return (
    <div className="round-items">
      <h4 id={headingId}>Items of round #{round.roundId}</h4>
      <ul className="item-list" aria-labelledby={headingId}>
        {items.data.items.map((item) => (
          <li key={item.position}>
            {prizeName(item.position - 1)}: <ItemPrize chainId={chainId} item={item} /> · {STATUS[item.status ?? "None"]}
          </li>
        ))}
      </ul>
      {returnable && (
        <button type="button" disabled={busy} onClick={() => void returnItems()}>
          Return items of round #{round.roundId}
        </button>
      )}
      {status && <p role="status">{status}</p>}
      {error && <p role="alert">{error}</p>}
    </div>
  );
}
