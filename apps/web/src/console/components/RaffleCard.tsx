import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { formatUnits, type Address } from "viem";
import { useConfig } from "wagmi";
import { waitForTransactionReceipt, writeContract } from "wagmi/actions";

import { shortAddress } from "../../lib/format";
import { explain } from "../../lib/messages";
import { commissionOf, prizeFiguresText, rateText } from "../../lib/prize";
import { CONSOLE_RAFFLE_ABI } from "../console-abi";
import type { Raffle, RoundHistory } from "../console-api";
import { useConsole } from "../console-context";
import { fieldErrorsOf, invalidProps } from "../field-errors";
import { ItemPrizesPanel } from "./ItemPrizesPanel";
import { PlayerPageForm } from "./PlayerPageForm";
import { RoundItems } from "./RoundItems";
import { StartRoundForm } from "./StartRoundForm";
import { ScrollBox } from "./ScrollBox";
import { formatDateTime } from "../../lib/locale";

const ROUND_STATUS: Record<string, string> = {
  ACTIVE: "Selling",
  DRAWING: "Waiting for randomness",
  DRAWN: "Drawn",
  WINNERS_PENDING: "Winners being recorded",
  CLOSED: "Closed without tickets",
  REFUNDABLE: "Refundable",
  CLAIMED: "Prize claimed",
  RELEASED: "Prize released",
};
const CLAIM_STATUS: Record<string, string> = { UNCLAIMED: "unclaimed", CLAIMED: "claimed", RELEASED: "released to you" };

function amount(value: string | bigint, round: RoundHistory): string {
  return `${formatUnits(BigInt(value), round.price.decimals)} ${round.price.symbol}`;
}

/** A round's rules as a sentence: winners and their shares, minimum, cap per wallet, bundles. */
function rulesText(round: RoundHistory): string {
  const { prizeShares, minTickets, maxTicketsPerWallet, bundles } = round.rules;
  const parts = [
    prizeShares.length === 1
      ? "one winner takes the pot"
      : `${prizeShares.length} winners: ${prizeShares.map((share) => `${share / 100} %`).join(", ")}`,
    minTickets > 0 ? `at least ${minTickets} tickets` : "no minimum",
    maxTicketsPerWallet > 0 ? `at most ${maxTicketsPerWallet} per wallet` : "no cap per wallet",
    ...bundles.map((bundle) => `${bundle.quantity} for ${amount(bundle.price, round)}`),
  ];
  return parts.join("; ");
}

/**
 * One raffle: rules, schedule (edit with a preview of its next runs), public sale, pause state, what players see of it,
 * round history.
 */
export function RaffleCard({ raffle }: { raffle: Raffle }) {
  const { client } = useConsole();
  const wagmiConfig = useConfig();
  const queryClient = useQueryClient();
  const rounds = useQuery({ queryKey: ["console", "rounds", raffle.id], queryFn: () => client.rounds(raffle.id), refetchInterval: 5_000 });
  const parameters = raffle.parameters as { schedule?: string; timeLagBeforeRelease?: string };
  const commission = commissionOf(raffle);
  const [schedule, setSchedule] = useState(parameters.schedule ?? "");
  const [notice, setNotice] = useState<string | null>(null);
  const [editingPage, setEditingPage] = useState(false);
  const refreshRaffles = () => queryClient.invalidateQueries({ queryKey: ["console", "raffles"] });
  const preview = useMutation({ mutationFn: () => client.previewSchedule(schedule.trim()) });
  const save = useMutation({
    mutationFn: (settings: { schedule?: string; publicSale?: boolean }) => client.updateRaffle(raffle.id, settings),
    onSuccess: () => {
      setNotice("Saved.");
      void refreshRaffles();
    },
  });
  const pause = useMutation({
    mutationFn: async (paused: boolean) => {
      const hash = await writeContract(wagmiConfig, {
        chainId: raffle.chainId,
        address: raffle.address as Address,
        abi: CONSOLE_RAFFLE_ABI,
        functionName: paused ? "unpause" : "pause",
      });
      await waitForTransactionReceipt(wagmiConfig, { chainId: raffle.chainId, hash });
      return paused;
    },
    onSuccess: (wasPaused) => {
      setNotice(wasPaused ? "Resumed: tickets sell again once the network confirms it here." : "Paused: no ticket sells until you resume.");
      void refreshRaffles();
    },
  });
  const error = preview.error ?? save.error ?? pause.error ?? rounds.error;
  // The API's sentence for a schedule it refuses goes under the field, not in the card's generic alert.
  const fieldErrors = fieldErrorsOf(preview.error ?? save.error);
  const current = rounds.data?.rows[0];
  const heading = `raffle-${raffle.id}`;
  const releaseDays = Math.round(Number(parameters.timeLagBeforeRelease ?? 0) / 86_400);

  return (
    <section className="panel" aria-labelledby={heading}>
      <h2 id={heading}>
        <bdi>{raffle.title || `Raffle ${raffle.id}`}</bdi>
      </h2>
      <p className="muted">
        <span title={raffle.address}>{shortAddress(raffle.address)}</span> · {raffle.isPaused ? <strong>Paused</strong> : "Running"} ·{" "}
        {raffle.publicSale ? "On public sale" : "Not on public sale"}
      </p>
      <dl className="facts">
        <div>
          <dt>Commission rate</dt>
          <dd>{commission === null ? "not read from the chain yet" : rateText(commission)}</dd>
        </div>
        <div>
          <dt>Unclaimed prizes released after</dt>
          <dd>{releaseDays === 1 ? "1 day" : `${releaseDays} days`}</dd>
        </div>
        {current && (
          <>
            <div>
              <dt>Ticket price</dt>
              <dd>{amount(current.price.amount, current)}</dd>
            </div>
            <div>
              <dt>Round rules</dt>
              <dd>{rulesText(current)}</dd>
            </div>
            <div>
              <dt>Current round</dt>
              <dd>
                #{current.roundId}: {current.ticketCount}
                {current.maxTickets ? ` / ${current.maxTickets}` : ""} sold, {ROUND_STATUS[current.status] ?? current.status}
              </dd>
            </div>
          </>
        )}
      </dl>
      <div className="actions">
        <button type="button" disabled={pause.isPending} onClick={() => pause.mutate(raffle.isPaused)}>
          {raffle.isPaused ? "Resume" : "Pause"}
        </button>
        <button type="button" disabled={save.isPending} onClick={() => save.mutate({ publicSale: !raffle.publicSale })}>
          {raffle.publicSale ? "Take off public sale" : "Put on public sale"}
        </button>
        <button type="button" aria-expanded={editingPage} onClick={() => setEditingPage(!editingPage)}>
          Edit player page
        </button>
      </div>
      {editingPage && <PlayerPageForm raffle={raffle} idPrefix={heading} />}
      <ItemPrizesPanel chainId={raffle.chainId} raffle={raffle.address as Address} idPrefix={heading} />
      {rounds.data && current?.status !== "ACTIVE" && (
        <>
          <h3>{current ? "Start the next round" : "Start the first round"}</h3>
          <StartRoundForm
            chainId={raffle.chainId}
            raffle={raffle.address as Address}
            onDone={() => {
              // The card keeps the sentence: the form goes away as soon as the new round is indexed.
              setNotice("Round started: it shows here as soon as it is indexed.");
              void rounds.refetch();
            }}
          />
        </>
      )}
      <form
        className="form-row"
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate({ schedule: schedule.trim() });
        }}
      >
        <label>
          Schedule (cron, UTC)
          <input
            value={schedule}
            onChange={(event) => setSchedule(event.target.value)}
            {...invalidProps(fieldErrors, "schedule", `${heading}-schedule-error`, `${heading}-schedule-help`)}
          />
          {fieldErrors.schedule && (
            <span id={`${heading}-schedule-error`} className="field-error">
              {fieldErrors.schedule}
            </span>
          )}
        </label>
        <button type="button" onClick={() => preview.mutate()} disabled={preview.isPending}>
          Preview
        </button>
        <button type="submit" className="primary" disabled={save.isPending}>
          Save schedule
        </button>
      </form>
      <p id={`${heading}-schedule-help`} className="muted">
        When the merchant worker ends the round and starts the next, e.g. <code>0 * * * *</code> every hour.
      </p>
      {preview.data && (
        <div role="status">
          <p>Next five runs:</p>
          <ol>
            {preview.data.nextRuns.map((run) => (
              <li key={run}>{new Date(run).toUTCString()}</li>
            ))}
          </ol>
        </div>
      )}
      {notice && <p role="status">{notice}</p>}
      {error && !fieldErrors.schedule && <p role="alert">{explain(error)}</p>}
      <h3>Round history</h3>
      {rounds.data?.rows.length === 0 && <p>No round yet.</p>}
      {rounds.data && rounds.data.rows.length > 0 && (
        <ScrollBox label={`Round history of ${raffle.title || `raffle ${raffle.id}`}`}>
          <table>
            <caption>
              Latest rounds of <bdi>{raffle.title || `raffle ${raffle.id}`}</bdi>
            </caption>
            <thead>
              <tr>
                <th scope="col">Round</th>
                <th scope="col">State</th>
                <th scope="col">Tickets</th>
                <th scope="col">Winners</th>
              </tr>
            </thead>
            <tbody>
              {rounds.data.rows.map((round) => (
                <tr key={round.roundId}>
                  <td>#{round.roundId}</td>
                  <td>
                    {ROUND_STATUS[round.status] ?? round.status}
                    {round.refundedTickets > 0 ? `, ${round.refundedTickets} refunded` : ""}
                  </td>
                  <td>{round.ticketCount}</td>
                  <td>
                    {round.winners.length === 0
                      ? "—"
                      : round.winners.map((winner) => (
                          <div key={winner.ticketId}>
                            Winner <span title={winner.account}>{shortAddress(winner.account)}</span> (ticket {winner.ticketId}):{" "}
                            {prizeFiguresText({ gross: winner.grossShare, commission, net: winner.prize }, (value) => amount(value, round))},{" "}
                            {CLAIM_STATUS[winner.claimStatus] ?? winner.claimStatus}
                            {winner.claimStatus === "UNCLAIMED" && winner.releasableAt
                              ? `; releasable to you from ${formatDateTime(winner.releasableAt)}`
                              : ""}
                          </div>
                        ))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
      )}
      {rounds.data?.rows.map((round) => (
        <RoundItems key={round.roundId} chainId={raffle.chainId} raffle={raffle.address as Address} round={round} />
      ))}
    </section>
  );
}
