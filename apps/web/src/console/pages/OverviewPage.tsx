import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { formatUnits, type Address } from "viem";
import { useReadContracts } from "wagmi";

import { useApp } from "../../lib/app-context";
import { explain } from "../../lib/messages";
import { FACTORY_ABI } from "../console-abi";
import type { ApiKey, Attention, Raffle, SalesRow, Webhook } from "../console-api";
import { useConsole } from "../console-context";
import { KeyName, RevokedKeyNotice, useRevokedKeysInUse } from "../components/RevokedKeyNotice";
import { fromNow } from "../key-times";
import { SalesChart, type ChartSeries } from "../components/SalesChart";
import { GaslessSettingsSection } from "../components/GaslessSettingsForm";
import { formatDateTime } from "../../lib/locale";

const COLORS = ["#0b57d0", "#116329", "#a40e26", "#8250df", "#bc4c00"];
/** Draws used at or above this share of the day's budget need attention. */
const BUDGET_WARNING_SHARE = 0.8;

/** The last `count` UTC days, oldest first, as YYYY-MM-DD. */
function lastDays(count: number, now = Date.now()): string[] {
  return Array.from({ length: count }, (_, index) => new Date(now - (count - 1 - index) * 86_400_000).toISOString().slice(0, 10));
}

function tokenKey(row: SalesRow): string {
  return `${row.token.symbol} (${row.token.token.slice(0, 6)}…)`;
}

/** A failing or disabled webhook endpoint, as an item of "What needs attention" linking to its message log. */
function WebhookAttention({ webhook }: { webhook: Webhook }) {
  const since = formatDateTime((webhook.health === "disabled" ? webhook.disabledAt : webhook.failingSince) ?? webhook.createdAt);
  return (
    <li>
      Webhook endpoint <span className="break">{webhook.url}</span>{" "}
      {webhook.health === "disabled" ? `was disabled on ${since} after failing for days` : `is failing since ${since}`}: your game server misses
      events. <a href="#/webhooks">See why in its message log</a>.
    </li>
  );
}

/**
 * What needs a look, as a sentence; the merchant's title in <bdi>, so its direction marks cannot reorder the rest. A
 * missed rotation while a revoked key is still being refused names that key: the worker is most likely running and
 * calling with it, so "check the worker is running" would send the merchant to the wrong part.
 */
export function attentionSentence(item: Attention, title: string, refusedKeys: ApiKey[] = []): ReactNode {
  const since = item.since ? ` since ${formatDateTime(item.since)}` : "";
  const name = <bdi>{title}</bdi>;
  switch (item.kind) {
    case "DRAW_WAITING":
      return (
        <>
          {name}: round {item.roundId} has waited for its randomness{since}, longer than expected.
        </>
      );
    case "ROTATION_MISSED":
      if (refusedKeys.length > 0) {
        const [key] = refusedKeys;
        return (
          <>
            {name}: the scheduled rotation{since} did not happen. Your API key <KeyName apiKey={key} /> was revoked and is still being used (a call
            with it was refused {fromNow(key.lastRejectedAt!)}): if the merchant worker uses it, the API refuses the worker. Give the worker a working
            key from <a href="#/keys">API keys</a>.
          </>
        );
      }
      return (
        <>
          {name}: the scheduled rotation{since} did not happen. Check that the merchant worker is running.
        </>
      );
    case "RAFFLE_PAUSED":
      return <>{name} is paused: no ticket sells until you resume it.</>;
    case "NO_ROUND":
      return <>{name} has no round yet: it sells nothing until its first round starts.</>;
    default:
      return <>{name} needs a look.</>;
  }
}

/** Per chain: active rounds, tickets and revenue per token over the last 30 days (chart and table), what needs attention. */
export function OverviewPage() {
  const { config } = useApp();
  const { client, merchant } = useConsole();
  const overview = useQuery({ queryKey: ["console", "overview"], queryFn: client.overview, refetchInterval: 5_000 });
  const sales = useQuery({ queryKey: ["console", "sales"], queryFn: () => client.sales(30), refetchInterval: 5_000 });
  const raffles = useQuery({ queryKey: ["console", "raffles"], queryFn: client.raffles, refetchInterval: 5_000 });
  const webhooks = useQuery({ queryKey: ["console", "webhooks"], queryFn: client.webhooks, refetchInterval: 5_000 });
  const refusedKeys = useRevokedKeysInUse();
  const failingWebhooks = (webhooks.data ?? []).filter((webhook) => webhook.health !== "healthy");
  const withFactory = config.chains.filter((chain) => chain.factory);
  const budgets = useReadContracts({
    contracts: withFactory.flatMap((chain) => [
      {
        chainId: chain.id,
        address: chain.factory as Address,
        abi: FACTORY_ABI,
        functionName: "drawsUsedToday",
        args: [merchant as Address],
      } as const,
      { chainId: chain.id, address: chain.factory as Address, abi: FACTORY_ABI, functionName: "drawsPerDayOf", args: [merchant as Address] } as const,
    ]),
    query: { refetchInterval: 15_000 },
  });
  const days = lastDays(30);
  const titleOf = (id: number) => raffles.data?.find((raffle: Raffle) => raffle.id === id)?.title || `Raffle ${id}`;

  return (
    <>
      <h1>Overview</h1>
      {(overview.error || sales.error) && <p role="alert">{explain(overview.error ?? sales.error)}</p>}
      <RevokedKeyNotice />
      {overview.isPending && <p role="status">Loading…</p>}
      {failingWebhooks.length > 0 && (
        <section aria-labelledby="attention-webhooks" className="panel">
          <h2 id="attention-webhooks">What needs attention: webhooks</h2>
          <ul className="attention">
            {failingWebhooks.map((webhook) => (
              <WebhookAttention key={webhook.id} webhook={webhook} />
            ))}
          </ul>
        </section>
      )}
      {overview.data?.chains.map((chainOverview) => {
        const chain = config.chains.find((entry) => entry.id === chainOverview.chainId);
        const name = chain?.name ?? `Chain ${chainOverview.chainId}`;
        const rows = (sales.data ?? []).filter((row) => row.chainId === chainOverview.chainId);
        const tokens = [...new Map(rows.map((row) => [tokenKey(row), row.token])).entries()];
        const ticketsPerDay = days.map((day) => rows.filter((row) => row.day === day).reduce((sum, row) => sum + row.tickets, 0));
        const series: ChartSeries[] = [{ label: "Tickets sold", values: ticketsPerDay.map((value) => value || null), color: COLORS[0] }];
        const budgetIndex = withFactory.findIndex((entry) => entry.id === chainOverview.chainId);
        const used = budgetIndex >= 0 ? (budgets.data?.[budgetIndex * 2]?.result as bigint | undefined) : undefined;
        const perDay = budgetIndex >= 0 ? (budgets.data?.[budgetIndex * 2 + 1]?.result as bigint | undefined) : undefined;
        const budgetLow = used !== undefined && perDay !== undefined && perDay > 0n && Number(used) >= Number(perDay) * BUDGET_WARNING_SHARE;
        const attention = [
          ...chainOverview.attention.map((item) => attentionSentence(item, titleOf(item.contractId), refusedKeys)),
          ...(budgetLow ? [`The draw budget is nearly spent: ${used} of ${perDay} draws used today.`] : []),
        ];
        return (
          <section key={chainOverview.chainId} aria-labelledby={`overview-${chainOverview.chainId}`} className="panel">
            <h2 id={`overview-${chainOverview.chainId}`}>{name}</h2>
            <dl className="facts">
              <div>
                <dt>Active rounds</dt>
                <dd>{chainOverview.activeRounds}</dd>
              </div>
              <div>
                <dt>Raffles</dt>
                <dd>{chainOverview.raffles}</dd>
              </div>
              <div>
                <dt>Tickets sold (30 days)</dt>
                <dd>{rows.reduce((sum, row) => sum + row.tickets, 0)}</dd>
              </div>
              {tokens.map(([key, token]) => (
                <div key={key}>
                  <dt>Revenue in {token.symbol} (30 days)</dt>
                  <dd>
                    {formatUnits(
                      rows.filter((row) => tokenKey(row) === key).reduce((sum, row) => sum + BigInt(row.revenue), 0n),
                      token.decimals,
                    )}{" "}
                    {token.symbol}
                  </dd>
                </div>
              ))}
            </dl>
            <h3>What needs attention</h3>
            {attention.length === 0 ? (
              <p>Nothing needs your attention on this network.</p>
            ) : (
              <ul className="attention">
                {attention.map((sentence, index) => (
                  <li key={index}>{sentence}</li>
                ))}
              </ul>
            )}
            <h3>Sales over the last 30 days</h3>
            {rows.length === 0 ? (
              <p>No ticket sold on this network in the last 30 days.</p>
            ) : (
              <>
                <SalesChart days={days} series={series} title={`Tickets sold per day on ${name}`} />
                {tokens.map(([key, token], index) => (
                  <SalesChart
                    key={key}
                    days={days}
                    title={`Revenue per day in ${token.symbol} on ${name}`}
                    series={[
                      {
                        label: `Revenue (${token.symbol})`,
                        color: COLORS[(index + 1) % COLORS.length],
                        // Drawn only: the table below keeps the exact integer amounts.
                        values: days.map((day) => {
                          const total = rows
                            .filter((row) => row.day === day && tokenKey(row) === key)
                            .reduce((sum, row) => sum + BigInt(row.revenue), 0n);
                          return total === 0n ? null : Number(formatUnits(total, token.decimals));
                        }),
                      },
                    ]}
                  />
                ))}
                <table>
                  <caption>Sales per day, raffle and token on {name}</caption>
                  <thead>
                    <tr>
                      <th scope="col">Day (UTC)</th>
                      <th scope="col">Raffle</th>
                      <th scope="col">Tickets</th>
                      <th scope="col">Revenue</th>
                    </tr>
                  </thead>
                  <tbody>
                    {rows.map((row) => (
                      <tr key={`${row.day}-${row.contractId}-${row.token.token}`}>
                        <td>{row.day}</td>
                        <td>
                          <bdi>{titleOf(row.contractId)}</bdi>
                        </td>
                        <td>{row.tickets}</td>
                        <td>
                          {formatUnits(BigInt(row.revenue), row.token.decimals)} {row.token.symbol}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </>
            )}
          </section>
        );
      })}
      <GaslessSettingsSection />
    </>
  );
}
