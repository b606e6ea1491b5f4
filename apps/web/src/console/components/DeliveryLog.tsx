import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";

import { explain } from "../../lib/messages";
import { WEBHOOK_EVENT_TYPES, type Attempt, type Delivery, type DeliveryFilter, type Webhook } from "../console-api";
import { useConsole } from "../console-context";
import { formatDateTime } from "../../lib/locale";

const STATUS_TEXT: Record<Delivery["status"], string> = { PENDING: "Retrying", DELIVERED: "Delivered", FAILED: "Failed" };
const TYPES: Array<Delivery["type"]> = [...WEBHOOK_EVENT_TYPES, "webhook.test"];

const when = (iso: string) => formatDateTime(iso);

/** The last answer in a few words: its HTTP status, or why none came. */
function lastAnswer(delivery: Delivery): string {
  if (delivery.attempts === 0) return "not attempted yet";
  if (delivery.lastStatusCode !== null) return `HTTP ${delivery.lastStatusCode}`;
  return delivery.lastError ?? "no answer";
}

/** An endpoint's messages, filtered by type and state, each expandable to its attempts and the payload sent. */
export function DeliveryLog({ webhook }: { webhook: Webhook }) {
  const { client } = useConsole();
  const queryClient = useQueryClient();
  const [filter, setFilter] = useState<DeliveryFilter>({});
  const deliveries = useQuery({
    queryKey: ["console", "deliveries", webhook.id, filter],
    queryFn: () => client.deliveries(webhook.id, filter),
    refetchInterval: 3_000,
  });
  const resend = useMutation({
    mutationFn: (delivery: string) => client.resend(webhook.id, delivery),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: ["console", "deliveries", webhook.id] }),
  });
  const id = useId();
  const filtered = filter.type !== undefined || filter.status !== undefined;

  return (
    <>
      <h3>Message log</h3>
      <div className="form-row">
        <label>
          Event type
          <select
            value={filter.type ?? ""}
            onChange={(event) => setFilter({ ...filter, type: (event.target.value || undefined) as Delivery["type"] })}
          >
            <option value="">All event types</option>
            {TYPES.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
        </label>
        <label>
          State
          <select
            value={filter.status ?? ""}
            onChange={(event) => setFilter({ ...filter, status: (event.target.value || undefined) as Delivery["status"] })}
          >
            <option value="">All states</option>
            {(Object.keys(STATUS_TEXT) as Array<Delivery["status"]>).map((status) => (
              <option key={status} value={status}>
                {STATUS_TEXT[status]}
              </option>
            ))}
          </select>
        </label>
      </div>
      {(deliveries.error || resend.error) && <p role="alert">{explain(deliveries.error ?? resend.error)}</p>}
      {deliveries.data?.count === 0 && <p>{filtered ? "No message matches these filters." : "Nothing sent yet."}</p>}
      {deliveries.data && deliveries.data.count > 0 && (
        <>
          <p className="muted" id={`${id}-count`}>
            {deliveries.data.count > deliveries.data.rows.length
              ? `The newest ${deliveries.data.rows.length} of ${deliveries.data.count} messages.`
              : `${deliveries.data.count} message${deliveries.data.count === 1 ? "" : "s"}.`}
          </p>
          <ul className="messages" aria-label={`Messages sent to ${webhook.url}`}>
            {deliveries.data.rows.map((delivery) => (
              <Message
                key={delivery.id}
                webhook={webhook}
                delivery={delivery}
                onResend={() => resend.mutate(delivery.id)}
                resending={resend.isPending}
              />
            ))}
          </ul>
        </>
      )}
    </>
  );
}

function Message({ webhook, delivery, onResend, resending }: { webhook: Webhook; delivery: Delivery; onResend: () => void; resending: boolean }) {
  const { client } = useConsole();
  const [open, setOpen] = useState(false);
  const detail = useQuery({
    queryKey: ["console", "delivery", webhook.id, delivery.id, delivery.attempts, delivery.status],
    queryFn: () => client.delivery(webhook.id, delivery.id),
    enabled: open,
  });
  const panel = `delivery-${delivery.id}-detail`;
  const name = `${delivery.type} message ${delivery.id}`;
  const attempts = `${delivery.attempts} attempt${delivery.attempts === 1 ? "" : "s"}`;
  const next = delivery.nextAttemptAt ? `, next at ${when(delivery.nextAttemptAt)}` : "";

  return (
    <li className={`message ${delivery.status.toLowerCase()}`}>
      <p>
        <strong>{delivery.type}</strong>
        {delivery.removed ? " (retracted)" : ""} · {STATUS_TEXT[delivery.status]} · {attempts} · last answer: {lastAnswer(delivery)}
        {delivery.latencyMs === null ? "" : ` in ${delivery.latencyMs} ms`}
      </p>
      <p className="muted">
        Written {when(delivery.createdAt)}
        {next}
      </p>
      <div className="actions">
        <button
          type="button"
          aria-expanded={open}
          aria-controls={panel}
          aria-label={`${open ? "Hide" : "Show"} attempts and payload of ${name}`}
          onClick={() => setOpen(!open)}
        >
          {open ? "Hide attempts and payload" : "Show attempts and payload"}
        </button>
        <button type="button" disabled={resending} onClick={onResend} aria-label={`Resend ${name}`}>
          Resend
        </button>
      </div>
      {open && (
        <div id={panel} className="message-detail">
          {detail.error && <p role="alert">{explain(detail.error)}</p>}
          {detail.isPending && <p role="status">Loading…</p>}
          {detail.data && (
            <>
              <h4>Attempts, newest first</h4>
              {detail.data.attemptLog.length === 0 ? (
                <p>No attempt recorded yet.</p>
              ) : (
                <ol className="attempts">
                  {detail.data.attemptLog.map((attempt, index) => (
                    <AttemptItem key={index} attempt={attempt} />
                  ))}
                </ol>
              )}
              <h4>Payload</h4>
              <pre className="payload" tabIndex={0} aria-label={`Payload of ${name}`}>
                {JSON.stringify(detail.data.payload, null, 2)}
              </pre>
            </>
          )}
        </div>
      )}
    </li>
  );
}

function AttemptItem({ attempt }: { attempt: Attempt }) {
  const answer = attempt.statusCode === null ? "No answer" : `HTTP ${attempt.statusCode}`;
  return (
    <li>
      <p>
        <strong>{answer}</strong> · {when(attempt.attemptedAt)} · {attempt.durationMs} ms{attempt.manual ? " · sent by hand" : ""}
      </p>
      {attempt.error && <p className="break">Error: {attempt.error}</p>}
      {attempt.responseExcerpt !== null &&
        (attempt.responseExcerpt === "" ? (
          <p className="muted">The response body was empty.</p>
        ) : (
          <>
            <p className="muted">Response body (its first KiB):</p>
            <pre className="excerpt">{attempt.responseExcerpt}</pre>
          </>
        ))}
    </li>
  );
}
