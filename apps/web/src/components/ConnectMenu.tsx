import { useEffect, useRef, useState } from "react";
import { useConnect, useConnection, useConnectors, useDisconnect, useSwitchChain } from "wagmi";

import { chainName, useApp } from "../lib/app-context";
import { shortAddress } from "../lib/format";
import { explain } from "../lib/messages";
import { usePageActsWithoutSwitch } from "../lib/network-need";
import { useSession } from "../lib/session";

/** The event that opens the wallet menu from elsewhere on the page ("Connect your wallet to buy"). */
const OPEN_EVENT = "raffle:open-connect-menu";

export function openConnectMenu(): void {
  window.dispatchEvent(new Event(OPEN_EVENT));
}

/**
 * Our own small wallet menu: the wallets found through EIP-6963 (or `window.ethereum`), then, once connected, the
 * address, a switch offer on a chain this site does not serve, sign-in and disconnect.
 */
export function ConnectMenu({ signInLabel = "Sign in" }: { signInLabel?: string }) {
  const { config } = useApp();
  const connection = useConnection();
  const connectors = useConnectors();
  const connect = useConnect();
  const { disconnect } = useDisconnect();
  const switchChain = useSwitchChain();
  const { session, signIn, signOut } = useSession();
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const menuRef = useRef<HTMLDivElement>(null);
  const actsWithoutSwitch = usePageActsWithoutSwitch();

  // The generic injected connector only when no wallet announced itself over EIP-6963 (it would be the same wallet).
  const announced = connectors.filter((connector) => connector.id !== "injected");
  const choices = announced.length > 0 ? announced : connectors;

  useEffect(() => {
    const onOpen = () => setOpen(true);
    window.addEventListener(OPEN_EVENT, onOpen);
    return () => window.removeEventListener(OPEN_EVENT, onOpen);
  }, []);

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => event.key === "Escape" && setOpen(false);
    window.addEventListener("keydown", onKey);
    menuRef.current?.querySelector("button")?.focus();
    return () => window.removeEventListener("keydown", onKey);
  }, [open]);

  if (!connection.isConnected) {
    return (
      <div className="connect">
        <button type="button" className="primary" aria-haspopup="true" aria-expanded={open} onClick={() => setOpen(!open)}>
          Connect wallet
        </button>
        {open && (
          <div className="menu" ref={menuRef} role="group" aria-label="Wallets">
            {choices.length === 0 && <p>No wallet found. Install a browser wallet, then reload this page.</p>}
            {choices.map((connector) => (
              <button
                key={connector.uid}
                type="button"
                onClick={() => {
                  setError(null);
                  connect.mutate({ connector }, { onSuccess: () => setOpen(false), onError: (failure) => setError(explain(failure)) });
                }}
              >
                {connector.icon && <img src={connector.icon} alt="" width={20} height={20} />}
                {connector.id === "injected" ? "Browser wallet" : connector.name}
              </button>
            ))}
            {error && <p role="alert">{error}</p>}
          </div>
        )}
      </div>
    );
  }

  const served = config.chains.some((chain) => chain.id === connection.chainId);
  return (
    <div className="connect">
      <span className="account" title={connection.address}>
        {shortAddress(connection.address!)}
        {served && <span className="chain"> · {chainName(config, connection.chainId!)}</span>}
      </span>
      {!served && (
        <button
          type="button"
          onClick={() => switchChain.mutate({ chainId: config.chains[0].id }, { onError: (failure) => setError(explain(failure)) })}
        >
          Switch to {config.chains[0].name}
        </button>
      )}
      {served && !session && (
        <button
          type="button"
          className="primary"
          disabled={busy}
          onClick={async () => {
            setBusy(true);
            setError(null);
            await signIn().catch((failure) => setError(explain(failure)));
            setBusy(false);
          }}
        >
          {signInLabel}
        </button>
      )}
      {session && <span className="signed-in">Signed in</span>}
      <button
        type="button"
        onClick={async () => {
          await signOut();
          disconnect();
        }}
      >
        Disconnect
      </button>
      {!served &&
        (actsWithoutSwitch ? (
          // Not a fault here: what this page offers without gas is signed from any network and sent by the organiser.
          <p className="hint">Your wallet is on another network. Actions without gas on this page need no switch.</p>
        ) : (
          <p role="alert">Your wallet is on a network this site does not serve.</p>
        ))}
      {error && <p role="alert">{error}</p>}
    </div>
  );
}
