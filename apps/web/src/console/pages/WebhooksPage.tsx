import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";

import { explain } from "../../lib/messages";
import type { Delivery, Webhook } from "../console-api";
import { useConsole } from "../console-context";
import { ScrollBox } from "../components/ScrollBox";
import { formatDateTime } from "../../lib/locale";

const STATUS_TEXT: Record<Delivery["status"], string> = { PENDING: "Retrying", DELIVERED: "Delivered", FAILED: "Failed" };

/** Webhooks: endpoints with their event types, the delivery log, resend, a test event, secret rotation. */
export function WebhooksPage() {
  const { client } = useConsole();
  const queryClient = useQueryClient();
  const webhooks = useQuery({ queryKey: ["console", "webhooks"], queryFn: client.webhooks });
  const [url, setUrl] = useState("");
  const [secret, setSecret] = useState<{ id: number; secret: string } | null>(null);
  const create = useMutation({
    mutationFn: () => client.createWebhook(url.trim()),
    onSuccess: (created) => {
      setSecret({ id: created.id, secret: created.secret });
      setUrl("");
      void queryClient.invalidateQueries({ queryKey: ["console", "webhooks"] });
    },
  });

  return (
    <>
      <h1>Webhooks</h1>
      <p>Your game server is told about tickets, draws and prizes as they happen, in signed messages (Standard Webhooks).</p>
      <form
        className="panel form-row"
        onSubmit={(event) => {
          event.preventDefault();
          create.mutate();
        }}
      >
        <label>
          Endpoint URL
          <input type="url" required value={url} onChange={(event) => setUrl(event.target.value)} placeholder="https://game.example.com/webhooks" />
        </label>
        <button type="submit" className="primary" disabled={create.isPending}>
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
        </div>
      )}
      {webhooks.error && <p role="alert">{explain(webhooks.error)}</p>}
      {webhooks.data?.length === 0 && <p>No endpoint yet: add one above (every event type by default).</p>}
      {webhooks.data?.map((webhook) => (
        <Endpoint key={webhook.id} webhook={webhook} onSecret={setSecret} />
      ))}
    </>
  );
}

function Endpoint({ webhook, onSecret }: { webhook: Webhook; onSecret: (secret: { id: number; secret: string }) => void }) {
  const { client } = useConsole();
  const queryClient = useQueryClient();
  const deliveries = useQuery({
    queryKey: ["console", "deliveries", webhook.id],
    queryFn: () => client.deliveries(webhook.id),
    refetchInterval: 3_000,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["console", "deliveries", webhook.id] });
  const [notice, setNotice] = useState<string | null>(null);
  const test = useMutation({
    mutationFn: () => client.sendTest(webhook.id),
    onSuccess: (delivery) => {
      setNotice(delivery.status === "DELIVERED" ? "Test event delivered." : "The test event was not accepted: see the delivery log.");
      void refresh();
    },
  });
  const resend = useMutation({ mutationFn: (delivery: string) => client.resend(webhook.id, delivery), onSuccess: () => void refresh() });
  const rotate = useMutation({
    mutationFn: () => client.rotateSecret(webhook.id),
    onSuccess: (rotated) => onSecret({ id: rotated.id, secret: rotated.secret }),
  });
  const remove = useMutation({
    mutationFn: () => client.deleteWebhook(webhook.id),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ["console", "webhooks"] }),
  });
  const error = test.error ?? resend.error ?? rotate.error ?? remove.error ?? deliveries.error;
  const heading = `endpoint-${webhook.id}`;

  return (
    <section className="panel" aria-labelledby={heading}>
      <h2 id={heading} className="break">
        {webhook.url}
      </h2>
      <p>
        {webhook.disabled ? "Disabled after failing for days: a successful resend turns it back on. " : ""}
        Event types: {webhook.events.join(", ")}
      </p>
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
      <h3>Delivery log</h3>
      {deliveries.data?.length === 0 && <p>Nothing sent yet.</p>}
      {deliveries.data && deliveries.data.length > 0 && (
        <ScrollBox label={`Delivery log of ${webhook.url}`}>
          <table>
            <caption>Latest deliveries to {webhook.url}</caption>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Latency</th>
                <th scope="col">Answer</th>
                <th scope="col">Written</th>
                <th scope="col">
                  <span className="visually-hidden">Action</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {deliveries.data.map((delivery) => (
                <tr key={delivery.id}>
                  <td>
                    {delivery.type}
                    {delivery.removed ? " (retracted)" : ""}
                  </td>
                  <td>{STATUS_TEXT[delivery.status]}</td>
                  <td>{delivery.attempts}</td>
                  <td>{delivery.latencyMs === null ? "—" : `${delivery.latencyMs} ms`}</td>
                  <td>{delivery.lastStatusCode ?? delivery.lastError ?? "—"}</td>
                  <td>{formatDateTime(delivery.createdAt)}</td>
                  <td>
                    <button
                      type="button"
                      disabled={resend.isPending}
                      onClick={() => resend.mutate(delivery.id)}
                      aria-describedby={`delivery-${delivery.id}`}
                    >
                      Resend
                    </button>
                    <span id={`delivery-${delivery.id}`} className="visually-hidden">
                      delivery {delivery.id}
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
      )}
    </section>
  );
}
