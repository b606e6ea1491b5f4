import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";

import { formatAmountRounded } from "../../lib/format";
import { explain } from "../../lib/messages";
import type { GaslessSettingsView } from "../console-api";
import { useConsole } from "../console-context";
import { readEthAmount, readPlayerLimit, relayerSentence, weiToEth } from "../gasless-settings";
import { fieldErrorsOf, invalidProps } from "../field-errors";

/**
 * "Gasless purchases": whether the merchant's own relayer buys, claims and refunds for players who hold no ETH, how much
 * gas it may spend per UTC day (entered in ETH, sent as wei) and how many requests one player may make a day.
 */
export function GaslessSettingsSection() {
  const { client } = useConsole();
  const settings = useQuery({ queryKey: ["console", "gasless"], queryFn: client.gasless, refetchInterval: 10_000 });
  return (
    <section aria-labelledby="gasless-title" className="panel">
      <h2 id="gasless-title">Gasless purchases</h2>
      <p className="muted">
        Players who hold your token but no ETH sign their purchase, claim or refund; your merchant worker sends it and pays the gas from its own key,
        within the limits below.
      </p>
      {settings.isPending && <p role="status">Loading…</p>}
      {settings.error && <p role="alert">{explain(settings.error)}</p>}
      {settings.data && (
        <>
          <dl className="facts">
            <div>
              <dt>Gas spent today (UTC)</dt>
              <dd>
                {/* Rounded for reading; the exact wei on hover, and read out by screen readers. */}
                <data value={settings.data.spentTodayWei} title={`${settings.data.spentTodayWei} wei`}>
                  {formatAmountRounded(settings.data.spentTodayWei, 18, "ETH")}
                </data>
                <span className="visually-hidden"> (exactly {settings.data.spentTodayWei} wei)</span> of {weiToEth(settings.data.dailyGasBudgetWei)}{" "}
                ETH
              </dd>
            </div>
          </dl>
          <p>{relayerSentence(settings.data.relayerLastSeenAt)}</p>
          <GaslessForm saved={settings.data} />
        </>
      )}
    </section>
  );
}

function GaslessForm({ saved }: { saved: GaslessSettingsView }) {
  const { client } = useConsole();
  const queryClient = useQueryClient();
  const [enabled, setEnabled] = useState(saved.enabled);
  const [budget, setBudget] = useState(weiToEth(saved.dailyGasBudgetWei));
  const [limit, setLimit] = useState(String(saved.perPlayerDailyLimit));
  const [tried, setTried] = useState(false);
  const budgetRead = readEthAmount(budget);
  const limitRead = readPlayerLimit(limit);
  const save = useMutation({
    mutationFn: () =>
      client.updateGasless({
        enabled,
        dailyGasBudgetWei: "wei" in budgetRead ? budgetRead.wei : "0",
        perPlayerDailyLimit: "limit" in limitRead ? limitRead.limit : 0,
      }),
    onSuccess: (view) => queryClient.setQueryData(["console", "gasless"], view),
  });
  // The API's sentence for a field wins; before any answer, the page's own check, once Save was pressed.
  const apiErrors = fieldErrorsOf(save.error);
  const errors: Record<string, string> = {
    ...(tried && "refusal" in budgetRead ? { dailyGasBudgetWei: budgetRead.refusal } : {}),
    ...(tried && "refusal" in limitRead ? { perPlayerDailyLimit: limitRead.refusal } : {}),
    ...apiErrors,
  };
  const fieldError = (field: string) =>
    errors[field] && (
      <span id={`gasless-${field}-error`} className="field-error">
        {errors[field]}
      </span>
    );

  return (
    <form
      className="stacked"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        setTried(true);
        if ("refusal" in budgetRead || "refusal" in limitRead) return;
        save.mutate();
      }}
    >
      <label className="check">
        <input type="checkbox" checked={enabled} onChange={(event) => setEnabled(event.target.checked)} />
        <span>Offer Buy without gas to players</span>
      </label>
      <label>
        Daily gas budget (ETH)
        <input
          value={budget}
          inputMode="decimal"
          autoComplete="off"
          onChange={(event) => setBudget(event.target.value)}
          {...invalidProps(errors, "dailyGasBudgetWei", "gasless-dailyGasBudgetWei-error", "gasless-budget-help")}
        />
        {fieldError("dailyGasBudgetWei")}
      </label>
      <p id="gasless-budget-help" className="muted">
        The most your relayer spends on gas per UTC day; once spent, players pay their own gas until midnight UTC.
      </p>
      <label>
        Gas-free requests per player per day
        <input
          value={limit}
          inputMode="numeric"
          autoComplete="off"
          onChange={(event) => setLimit(event.target.value)}
          {...invalidProps(errors, "perPlayerDailyLimit", "gasless-perPlayerDailyLimit-error")}
        />
        {fieldError("perPlayerDailyLimit")}
      </label>
      <div className="actions">
        <button type="submit" className="primary" disabled={save.isPending}>
          Save gasless settings
        </button>
      </div>
      {save.isSuccess && <p role="status">Saved.</p>}
      {save.error && (
        <p role="alert">{Object.keys(apiErrors).length > 0 ? "The settings were not saved: fix the fields marked above." : explain(save.error)}</p>
      )}
      {tried && !save.error && Object.keys(errors).length > 0 && <p role="alert">The settings were not saved: fix the fields marked above.</p>}
    </form>
  );
}
