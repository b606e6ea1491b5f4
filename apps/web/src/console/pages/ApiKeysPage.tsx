import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useCallback, useEffect, useRef, useState } from "react";

import { explain } from "../../lib/messages";
import type { ApiKey, CreatedApiKey } from "../console-api";
import { useConsole } from "../console-context";
import { formatDateTime } from "../../lib/locale";
import { ModalDialog } from "../components/ModalDialog";
import { fromNow, keyState, usedRecently } from "../key-times";

const when = (iso: string | null | undefined) => (iso ? formatDateTime(iso) : "never");

/** How long a rolled key keeps working, as the merchant chooses it (the API takes 0 to 7 days). */
const GRACE_CHOICES: Array<{ seconds: number; label: string }> = [
  { seconds: 0, label: "Stop it now" },
  { seconds: 3_600, label: "1 hour" },
  { seconds: 86_400, label: "24 hours" },
  { seconds: 7 * 86_400, label: "7 days" },
];

/** Characters of a User-Agent the dialog shows; the whole (at most 200, as the API keeps it) is in its tooltip. */
const SHOWN_USER_AGENT = 80;

/**
 * Who made the key's last use, as the API recorded it with "last used": the client's User-Agent (sent by whoever holds
 * the key, so in <bdi> and cut short) and its source IP. Nothing when neither is known.
 */
function LastCaller({ apiKey }: { apiKey: ApiKey }) {
  const agent = apiKey.lastUsedUserAgent;
  const ip = apiKey.lastUsedIp;
  if (!apiKey.lastUsedAt || (!agent && !ip)) return null;
  const shown = agent && agent.length > SHOWN_USER_AGENT ? `${agent.slice(0, SHOWN_USER_AGENT - 1)}…` : agent;
  return (
    <p>
      That last call came
      {shown && (
        <>
          {" "}
          from the client “
          <code title={agent ?? undefined} className="user-agent">
            <bdi>{shown}</bdi>
          </code>
          ”
        </>
      )}
      {ip && (
        <>
          {" "}
          at the address <code className="nowrap">{ip}</code>
        </>
      )}
      .
    </p>
  );
}

/** The key as a dialog title names it, its label in <bdi> so that it cannot reorder the title around it. */
function keyName(key: ApiKey): ReactNode {
  return key.label ? (
    <>
      “<bdi>{key.label}</bdi>” (rk_{key.prefix}_…)
    </>
  ) : (
    `rk_${key.prefix}_…`
  );
}

function stateText(key: ApiKey): string {
  switch (keyState(key)) {
    case "active":
      return "Active";
    case "rolled":
      return `Rolled: works until ${when(key.revokedAt)}`;
    default:
      return `Revoked ${when(key.revokedAt)}`;
  }
}

/** The new key's secret, shown once with a Copy button (after Create or Roll). */
function NewKey({ created }: { created: CreatedApiKey }) {
  const [copied, setCopied] = useState(false);
  const copy = useRef<HTMLButtonElement>(null);
  // Focus lands on Copy: after a roll, the button that opened the dialog is gone with the rolled key's actions.
  useEffect(() => copy.current?.focus(), []);
  return (
    <div className="panel secret" role="status">
      <p>
        <strong>
          Your new key{" "}
          {created.label ? (
            <>
              “<bdi>{created.label}</bdi>”
            </>
          ) : (
            ""
          )}
        </strong>
        : copy it now. It is shown only once.
      </p>
      <code data-testid="new-api-key">{created.key}</code>
      <button
        ref={copy}
        type="button"
        onClick={async () => {
          await navigator.clipboard?.writeText(created.key).catch(() => undefined);
          setCopied(true);
        }}
      >
        {copied ? "Copied" : "Copy key"}
      </button>
    </div>
  );
}

/**
 * API keys: create one (its secret is shown once, with a copy button), see each key's last use, roll a key (a new one,
 * the old one working for a grace period) and revoke one, after a confirmation naming its last use. On a phone each
 * key is a card, so Last used, State and the actions stay on screen.
 */
export function ApiKeysPage() {
  const { client } = useConsole();
  const queryClient = useQueryClient();
  const keys = useQuery({ queryKey: ["console", "keys"], queryFn: client.apiKeys });
  const [label, setLabel] = useState("");
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const [rolling, setRolling] = useState<ApiKey | null>(null);
  const [grace, setGrace] = useState(86_400);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["console", "keys"] });
  const create = useMutation({
    mutationFn: () => client.createApiKey(label.trim()),
    onSuccess: (key) => {
      setCreated(key);
      setLabel("");
      void refresh();
    },
  });
  const revoke = useMutation({
    mutationFn: (id: number) => client.revokeApiKey(id),
    onSuccess: () => {
      setRevoking(null);
      void refresh();
    },
  });
  const roll = useMutation({
    mutationFn: ({ id, graceSeconds }: { id: number; graceSeconds: number }) => client.rollApiKey(id, graceSeconds),
    onSuccess: (rolled) => {
      setRolling(null);
      setCreated(rolled.created);
      void refresh();
    },
  });
  const closeRevoke = useCallback(() => setRevoking(null), []);
  const closeRoll = useCallback(() => setRolling(null), []);

  return (
    <>
      <h1>API keys</h1>
      <p>Your game server calls the raffle API with a key. Anyone holding a key acts for you: keep it secret, revoke it when in doubt.</p>
      <form
        className="panel form-row"
        onSubmit={(event) => {
          event.preventDefault();
          create.mutate();
        }}
      >
        <label>
          Label
          <input value={label} maxLength={100} onChange={(event) => setLabel(event.target.value)} placeholder="game server" />
        </label>
        <button type="submit" className="primary" disabled={create.isPending}>
          Create API key
        </button>
      </form>
      {create.error && <p role="alert">{explain(create.error)}</p>}
      {created && <NewKey key={created.id} created={created} />}
      {keys.error && <p role="alert">{explain(keys.error)}</p>}
      {keys.data && keys.data.length === 0 && <p>You have no API key yet.</p>}
      {keys.data && keys.data.length > 0 && (
        <table className="stacked-rows">
          <caption>Your API keys, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">Label</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">State</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {keys.data.map((key) => (
              <tr key={key.id}>
                <td data-label="Key">
                  <code className="nowrap">rk_{key.prefix}_…</code>
                </td>
                <td data-label="Label">
                  <bdi>{key.label || "—"}</bdi>
                </td>
                <td data-label="Created">{when(key.createdAt)}</td>
                <td data-label="Last used">{when(key.lastUsedAt)}</td>
                <td data-label="State">{stateText(key)}</td>
                <td data-label="Actions">
                  {keyState(key) === "revoked" ? (
                    "—"
                  ) : (
                    <div className="actions">
                      {keyState(key) === "active" && (
                        <button type="button" onClick={() => setRolling(key)} aria-describedby={`key-${key.id}`}>
                          Roll
                        </button>
                      )}
                      <button type="button" onClick={() => setRevoking(key)} aria-describedby={`key-${key.id}`}>
                        Revoke
                      </button>
                      <span id={`key-${key.id}`} className="visually-hidden">
                        key rk_{key.prefix}
                      </span>
                    </div>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {revoking && (
        <ModalDialog title={<>Revoke {keyName(revoking)}?</>} onClose={closeRevoke}>
          {usedRecently(revoking.lastUsedAt) ? (
            <p>
              <strong>This key is in use: it was last used {fromNow(revoking.lastUsedAt!)}.</strong> Whatever calls the API with it (your game server,
              the merchant worker) is refused from the moment you revoke it. To replace it without an outage, roll it instead.
            </p>
          ) : (
            <p>
              {revoking.lastUsedAt ? `It was last used ${fromNow(revoking.lastUsedAt)}.` : "It has never been used."} Calls with it are refused from
              now on.
            </p>
          )}
          <LastCaller apiKey={revoking} />
          {revoke.error && <p role="alert">{explain(revoke.error)}</p>}
          <div className="actions">
            <button type="button" className="danger" disabled={revoke.isPending} onClick={() => revoke.mutate(revoking.id)}>
              Revoke key
            </button>
            <button type="button" onClick={closeRevoke} data-autofocus>
              Cancel
            </button>
          </div>
        </ModalDialog>
      )}
      {rolling && (
        <ModalDialog title={<>Roll {keyName(rolling)}</>} onClose={closeRoll}>
          <form
            className="stacked"
            onSubmit={(event) => {
              event.preventDefault();
              roll.mutate({ id: rolling.id, graceSeconds: grace });
            }}
          >
            <p>A new key with the same label is made now. Put it in your game server, then let the old key stop.</p>
            <label>
              Keep the old key working for
              <select value={grace} onChange={(event) => setGrace(Number(event.target.value))}>
                {GRACE_CHOICES.map((choice) => (
                  <option key={choice.seconds} value={choice.seconds}>
                    {choice.label}
                  </option>
                ))}
              </select>
            </label>
            {roll.error && <p role="alert">{explain(roll.error)}</p>}
            <div className="actions">
              <button type="submit" className="primary" disabled={roll.isPending}>
                Roll key
              </button>
              <button type="button" onClick={closeRoll}>
                Cancel
              </button>
            </div>
          </form>
        </ModalDialog>
      )}
    </>
  );
}
