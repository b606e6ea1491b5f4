import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";

import { explain } from "../../lib/messages";
import { WEBHOOK_EVENT_TYPES, type Webhook, type WebhookEventType } from "../console-api";
import { useConsole } from "../console-context";
import { formatDateTime } from "../../lib/locale";
import { DeliveryLog } from "../components/DeliveryLog";
import { EventTypesField } from "../components/EventTypesField";

/** The endpoint's health in a sentence: what a merchant checks first when the game server misses events. */
export function healthSentence(webhook: Webhook): string {
  const since = (iso: string | null) => (iso ? formatDateTime(iso) : "");
  switch (webhook.health) {
    case "disabled":
      return `Disabled since ${since(webhook.disabledAt)} after failing for days: nothing is sent to it. A successful resend turns it back on.`;
    case "failing":
      return `Failing since ${since(webhook.failingSince)}: its messages are retried and the later ones wait. Open a message below to see why.`;
    default:
      return "Healthy: its last attempt was answered with a 2xx, or none was made yet.";
  }
}

/** Webhooks: endpoints with their health and event types, the message log, resend, a test event, secret rotation. */
export function WebhooksPage() {
  const { client } = useConsole();
  const queryClient = useQueryClient();
  const webhooks = useQuery({ queryKey: ["console", "webhooks"], queryFn: client.webhooks, refetchInterval: 5_000 });
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<WebhookEventType[]>(WEBHOOK_EVENT_TYPES);
  const [secret, setSecret] = useState<{ id: number; secret: string } | null>(null);
  const [copied, setCopied] = useState(false);
  const create = useMutation({
    mutationFn: () => client.createWebhook(url.trim(), events.length === WEBHOOK_EVENT_TYPES.length ? undefined : events),
    onSuccess: (created) => showSecret({ id: created.id, secret: created.secret }),
  });
  function showSecret(shown: { id: number; secret: string }) {
    setSecret(shown);
    setCopied(false);
    setUrl("");
    void queryClient.invalidateQueries({ queryKey: ["console", "webhooks"] });
  }

  return (
    <>
      <h1>Webhooks</h1>
      <p>Your game server is told about tickets, draws and prizes as they happen, in signed messages (Standard Webhooks).</p>
      <form
        className="panel"
        onSubmit={(event) => {
          event.preventDefault();
          if (events.length > 0) create.mutate();
        }}
      >
        <div className="form-row">
          <label>
            Endpoint URL
            <input type="url" required value={url} onChange={(event) => setUrl(event.target.value)} placeholder="https://game.example.com/webhooks" />
          </label>
        </div>
        <EventTypesField legend="Event types it receives" value={events} onChange={setEvents} />
        <button type="submit" className="primary" disabled={create.isPending || events.length === 0}>
          Add endpoint
        </button>
      </form>
      {create.error && <p role="alert">{explain(create.error)}</p>}
      {secret && (
        <div className="panel secret" role="status">
          <p>
            <strong>Signing secret of endpoint {secret.id}</strong>: copy it to your server now. It is shown only once.
          </p>
          <code>{secret.secret}</code>
          <button
            type="button"
            onClick={async () => {
              await navigator.clipboard?.writeText(secret.secret).catch(() => undefined);
              setCopied(true);
            }}
          >
            {copied ? "Copied" : "Copy secret"}
          </button>
        </div>
      )}
      {webhooks.error && <p role="alert">{explain(webhooks.error)}</p>}
      {webhooks.data?.length === 0 && <p>No endpoint yet: add one above.</p>}
      {webhooks.data?.map((webhook) => (
        <Endpoint key={webhook.id} webhook={webhook} onSecret={showSecret} />
      ))}
    </>
  );
}

function Endpoint({ webhook, onSecret }: { webhook: Webhook; onSecret: (secret: { id: number; secret: string }) => void }) {
  const { client } = useConsole();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["console"] });
  const [notice, setNotice] = useState<string | null>(null);
  const [editing, setEditing] = useState<WebhookEventType[] | null>(null);
  const test = useMutation({
    mutationFn: () => client.sendTest(webhook.id),
    onSuccess: (delivery) => {
      setNotice(
        delivery.status === "DELIVERED" ? "Test event delivered." : "The test event was not accepted: open it in the message log to see why.",
      );
      void refresh();
    },
  });
  const rotate = useMutation({
    mutationFn: () => client.rotateSecret(webhook.id),
    onSuccess: (rotated) => onSecret({ id: rotated.id, secret: rotated.secret }),
  });
  const remove = useMutation({ mutationFn: () => client.deleteWebhook(webhook.id), onSuccess: () => void refresh() });
  const save = useMutation({
    mutationFn: (events: WebhookEventType[]) => client.updateWebhookEvents(webhook.id, events),
    onSuccess: () => {
      setEditing(null);
      setNotice("Event types saved: they apply to events from now on.");
      void refresh();
    },
  });
  const error = test.error ?? rotate.error ?? remove.error ?? save.error;
  const heading = `endpoint-${webhook.id}`;

  return (
    <section className="panel" aria-labelledby={heading}>
      <h2 id={heading} className="break">
        {webhook.url}
      </h2>
      <p className={`health ${webhook.health}`}>{healthSentence(webhook)}</p>
      {editing ? (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (editing.length > 0) save.mutate(editing);
          }}
        >
          <EventTypesField legend={`Event types sent to ${webhook.url}`} value={editing} onChange={setEditing} />
          <div className="actions">
            <button type="submit" className="primary" disabled={save.isPending || editing.length === 0}>
              Save event types
            </button>
            <button type="button" onClick={() => setEditing(null)}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <p>
          Event types: {webhook.events.length === WEBHOOK_EVENT_TYPES.length ? "all" : webhook.events.join(", ")}{" "}
          <button type="button" onClick={() => setEditing(webhook.events)} aria-label={`Edit the event types sent to ${webhook.url}`}>
            Edit
          </button>
        </p>
      )}
      <div className="actions">
        <button type="button" className="primary" disabled={test.isPending} onClick={() => test.mutate()}>
          Send test event
        </button>
        <button type="button" disabled={rotate.isPending} onClick={() => rotate.mutate()}>
          Rotate secret
        </button>
        <button type="button" disabled={remove.isPending} onClick={() => remove.mutate()}>
          Delete endpoint
        </button>
      </div>
      {notice && <p role="status">{notice}</p>}
      {error && <p role="alert">{explain(error)}</p>}
      <DeliveryLog webhook={webhook} />
    </section>
  );
}
