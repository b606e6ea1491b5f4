import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";

import type { GaslessRequest } from "../lib/api";
import { useApp } from "../lib/app-context";
import { gaslessStateText } from "../lib/gasless-state";
import { explain } from "../lib/messages";
import { useActsWithoutSwitch } from "../lib/network-need";
import { useSession } from "../lib/session";

/** How often the page asks the mailbox where a request is: a relayer polls about once a second. */
const POLL_MS = 1_000;

const DONE_STATES: GaslessRequest["state"][] = ["mined", "failed"];

/**
 * Follows one request in the mailbox until it is mined or failed, saying each state; once done, the page's data
 * (tickets, the raffle, the wallet's balances) is read again.
 */
export function GaslessStatus({ id, onDone }: { id: string; onDone?: (request: GaslessRequest) => void }) {
  const { api } = useApp();
  const { session } = useSession();
  const queryClient = useQueryClient();
  const request = useQuery({
    queryKey: ["gasless", id],
    queryFn: () => api.gaslessRequest(session!.token, id),
    enabled: Boolean(session),
    refetchInterval: (query) => (query.state.data && DONE_STATES.includes(query.state.data.state) ? false : POLL_MS),
  });
  const state = request.data?.state;
  // A request relayed for the player: the page acted without a network switch, and says no alarm about the network.
  useActsWithoutSwitch(true);
  useEffect(() => {
    if (!request.data || !DONE_STATES.includes(request.data.state)) return;
    // Everything the request moved: tickets, the raffle, and the wallet's balances read from the chain.
    void queryClient.invalidateQueries();
    onDone?.(request.data);
    // Once per end state: the request's other fields do not change after it.
  }, [state]);

  if (request.error && !request.data) {
    return (
      <p role="alert" className="error">
        {explain(request.error)}
      </p>
    );
  }
  if (!request.data) return <p role="status">Your request was received. Checking where it is…</p>;
  const failed = request.data.state === "failed";
  return (
    <p role={failed ? "alert" : "status"} className={failed ? "error" : "status"}>
      {gaslessStateText(request.data)}
      {request.data.txHash && (
        <span className="hash">
          {" "}
          Transaction <code>{request.data.txHash}</code>
        </span>
      )}
    </p>
  );
}
