import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";

import { explain } from "../../lib/messages";
import type { CreatedApiKey } from "../console-api";
import { useConsole } from "../console-context";
import { ScrollBox } from "../components/ScrollBox";
import { formatDateTime } from "../../lib/locale";

const when = (iso: string | null | undefined) => (iso ? formatDateTime(iso) : "never");

/** API keys: create one (its secret is shown once, with a copy button), see each key's last use, revoke. */
export function ApiKeysPage() {
  const { client } = useConsole();
  const queryClient = useQueryClient();
  const keys = useQuery({ queryKey: ["console", "keys"], queryFn: client.apiKeys });
  const [label, setLabel] = useState("");
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [copied, setCopied] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["console", "keys"] });
  const create = useMutation({
    mutationFn: () => client.createApiKey(label.trim()),
    onSuccess: (key) => {
      setCreated(key);
      setCopied(false);
      setLabel("");
      void refresh();
    },
  });
  const revoke = useMutation({ mutationFn: (id: number) => client.revokeApiKey(id), onSuccess: () => void refresh() });

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
      {created && (
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
            type="button"
            onClick={async () => {
              await navigator.clipboard?.writeText(created.key).catch(() => undefined);
              setCopied(true);
            }}
          >
            {copied ? "Copied" : "Copy key"}
          </button>
        </div>
      )}
      {keys.error && <p role="alert">{explain(keys.error)}</p>}
      {revoke.error && <p role="alert">{explain(revoke.error)}</p>}
      {keys.data && keys.data.length === 0 && <p>You have no API key yet.</p>}
      {keys.data && keys.data.length > 0 && (
        <ScrollBox label={"Your API keys"}>
          <table>
            <caption>Your API keys, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Key</th>
                <th scope="col">Label</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {keys.data.map((key) => (
                <tr key={key.id}>
                  <td>
                    <code className="nowrap">rk_{key.prefix}_…</code>
                  </td>
                  <td>
                    <bdi>{key.label || "—"}</bdi>
                  </td>
                  <td>{when(key.createdAt)}</td>
                  <td>{when(key.lastUsedAt)}</td>
                  <td>
                    {key.revokedAt ? (
                      `Revoked ${when(key.revokedAt)}`
                    ) : (
                      <button type="button" disabled={revoke.isPending} onClick={() => revoke.mutate(key.id)} aria-describedby={`key-${key.id}`}>
                        Revoke
                      </button>
                    )}
                    <span id={`key-${key.id}`} className="visually-hidden">
                      key rk_{key.prefix}
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
      )}
    </>
  );
}
