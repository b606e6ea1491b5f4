import { useState } from "react";
import { isAddress, parseUnits, zeroAddress, type Address } from "viem";
import { useConfig } from "wagmi";
import { readContract, waitForTransactionReceipt, writeContract } from "wagmi/actions";

import { ITEM_PRIZES_ABI } from "../../lib/items";
import { CONSOLE_RAFFLE_ABI, ERC20_METADATA_ABI } from "../console-abi";
import { explainItemError } from "../item-checks";

/** startRound with what it can revert with, its escrow of the next round's items included (ItemNotEscrowed). */
const START_ROUND_ABI = [...CONSOLE_RAFFLE_ABI, ...ITEM_PRIZES_ABI];

/** libs/chain's TokenType numbers (architecture §3). */
export const TOKEN_TYPE = { NATIVE: 0, ERC20: 1, ERC721: 2 } as const;

/**
 * Starts a round of an existing raffle from the merchant's wallet (`Raffle.startRound`), when none is selling: after a
 * draw when the worker does not run, or when the first round was not started at creation. `onDone` says it started: the
 * form itself goes away once the new round is indexed.
 */
export function StartRoundForm({ chainId, raffle, onDone }: { chainId: number; raffle: Address; onDone: () => void }) {
  const wagmiConfig = useConfig();
  const [kind, setKind] = useState<"NATIVE" | "ERC20">("NATIVE");
  const [token, setToken] = useState("");
  const [price, setPrice] = useState("0.01");
  const [cap, setCap] = useState("100");
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function start() {
    setError(null);
    if (kind === "ERC20" && !isAddress(token)) return setError("The price token is a 0x address.");
    if (!/^\d+(\.\d+)?$/.test(price) || Number(price) <= 0) return setError("The ticket price is a number above 0.");
    if (!/^\d{1,10}$/.test(cap)) return setError("The ticket cap is a whole number (0 for none).");
    setBusy(true);
    try {
      const priceToken = kind === "NATIVE" ? zeroAddress : (token as Address);
      const decimals =
        kind === "NATIVE" ? 18 : await readContract(wagmiConfig, { chainId, address: priceToken, abi: ERC20_METADATA_ABI, functionName: "decimals" });
      const ticket = await readContract(wagmiConfig, { chainId, address: raffle, abi: CONSOLE_RAFFLE_ABI, functionName: "ticketContract" });
      setStatus("Confirm the new round in your wallet…");
      const hash = await writeContract(wagmiConfig, {
        chainId,
        address: raffle,
        abi: START_ROUND_ABI,
        functionName: "startRound",
        args: [
          { tokenType: TOKEN_TYPE.ERC721, token: ticket, tokenId: 0n, amount: 1n },
          { tokenType: TOKEN_TYPE[kind], token: priceToken, tokenId: 0n, amount: parseUnits(price, decimals) },
          BigInt(cap),
        ],
      });
      setStatus("Starting the round…");
      await waitForTransactionReceipt(wagmiConfig, { chainId, hash });
      setStatus(null);
      onDone();
    } catch (failure) {
      setStatus(null);
      setError(explainItemError(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      className="form-row"
      aria-label="Start a round"
      onSubmit={(event) => {
        event.preventDefault();
        void start();
      }}
    >
      <label>
        Paid in
        <select value={kind} onChange={(event) => setKind(event.target.value as "NATIVE" | "ERC20")}>
          <option value="NATIVE">The network's coin</option>
          <option value="ERC20">An ERC20 token</option>
        </select>
      </label>
      {kind === "ERC20" && (
        <label>
          Price token address
          <input value={token} onChange={(event) => setToken(event.target.value)} placeholder="0x…" />
        </label>
      )}
      <label>
        Ticket price
        <input inputMode="decimal" value={price} onChange={(event) => setPrice(event.target.value)} />
      </label>
      <label>
        Ticket cap (0 for none)
        <input inputMode="numeric" value={cap} onChange={(event) => setCap(event.target.value)} />
      </label>
      <button type="submit" disabled={busy}>
        Start round
      </button>
      {status && <p role="status">{status}</p>}
      {error && <p role="alert">{error}</p>}
    </form>
  );
}
