import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { isAddress, parseUnits, type Address } from "viem";
import { useConfig } from "wagmi";
import { waitForTransactionReceipt, writeContract } from "wagmi/actions";

import { ItemPrize } from "../../components/ItemPrize";
import { prizeName } from "../../lib/draw-check";
import { shortAddress } from "../../lib/format";
import { ITEM_PRIZES_ABI, ITEM_TOKEN_TYPE, readNextItems, type ItemKind, type PrizeItem } from "../../lib/items";
import { useConsole } from "../console-context";
import { checkItems, decimalsOf, detectItemKind, explainItemError, holdingProblem, sendApproval } from "../item-checks";

/** The contract's most winner positions (`MAX_WINNERS`). */
const MAX_POSITION = 20;

type KindChoice = "detect" | ItemKind;

/**
 * Items checked against the wallet the raffle pulls them from when a round starts: held, and approved. That is the
 * wallet that chose them (`itemPrizes()`' merchant, maybe another admin of the raffle), else the connected one.
 */
function useCheckedItems(chainId: number, raffle: Address, items: PrizeItem[] | undefined, chosenBy?: Address) {
  const config = useConfig();
  const { merchant: connected } = useConsole();
  const merchant = chosenBy ?? (connected as Address);
  const holderName = holderNameOf(merchant, connected);
  return useQuery({
    queryKey: [
      "console",
      "item-checks",
      chainId,
      raffle,
      merchant,
      items?.map((item) => `${item.position}:${item.token}:${item.tokenId}:${item.amount}`),
    ],
    queryFn: () => checkItems(config, chainId, merchant, raffle, items!, holderName),
    enabled: items !== undefined,
    refetchInterval: 5_000,
  });
}

/**
 * Item prizes of a raffle's next round: what it escrows when it starts (read from the chain), whether the wallet still
 * holds each item and has approved the raffle, and a form to choose them from the wallet (token, id, amount; kind
 * detected), offer the approvals, then `setItemPrizes`.
 */
export function ItemPrizesPanel({ chainId, raffle, idPrefix }: { chainId: number; raffle: Address; idPrefix: string }) {
  const config = useConfig();
  const queryClient = useQueryClient();
  const { merchant } = useConsole();
  const next = useQuery({ queryKey: ["console", "next-items", chainId, raffle], queryFn: () => readNextItems(config, chainId, raffle) });
  const nextChecks = useCheckedItems(chainId, raffle, next.data?.items, next.data?.merchant);
  const [draft, setDraft] = useState<PrizeItem[] | null>(null);
  const draftChecks = useCheckedItems(chainId, raffle, draft ?? undefined);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const headingId = `${idPrefix}-items`;

  async function run(step: () => Promise<string>) {
    setError(null);
    setBusy(true);
    try {
      setStatus(await step());
    } catch (failure) {
      setStatus(null);
      setError(explainItemError(failure));
    } finally {
      setBusy(false);
    }
  }

  async function approveAll() {
    const items = draft ?? [];
    const checks = draftChecks.data ?? [];
    const seen = new Set<string>();
    for (const [index, item] of items.entries()) {
      if (checks[index]?.approved || seen.has(item.token.toLowerCase())) continue;
      seen.add(item.token.toLowerCase());
      setStatus("Confirm the approval in your wallet…");
      const hash = await sendApproval(config, chainId, raffle, item, items);
      setStatus("Approving…");
      await waitForTransactionReceipt(config, { chainId, hash });
    }
    await draftChecks.refetch();
    return "Approved: the raffle may take these items into escrow when a round starts.";
  }

  async function save() {
    const items = [...(draft ?? [])].sort((a, b) => a.position - b.position);
    setStatus("Confirm the item prizes in your wallet…");
    const hash = await writeContract(config, {
      chainId,
      address: raffle,
      abi: ITEM_PRIZES_ABI,
      functionName: "setItemPrizes",
      args: [
        items.map((item) => ({
          position: BigInt(item.position),
          asset: { tokenType: ITEM_TOKEN_TYPE[item.kind], token: item.token, tokenId: item.tokenId, amount: item.amount },
        })),
      ],
    });
    setStatus("Saving…");
    await waitForTransactionReceipt(config, { chainId, hash });
    await queryClient.invalidateQueries({ queryKey: ["console", "next-items", chainId, raffle] });
    setDraft(null);
    return items.length === 0
      ? "Saved: the next round has no item prizes."
      : "Saved: the next round takes these items into escrow from your wallet when it starts.";
  }

  const unapproved = (draftChecks.data ?? []).some((check) => !check.approved);
  const unheld = (draftChecks.data ?? []).some((check) => check.problem !== null);

  return (
    <section aria-labelledby={headingId}>
      <h3 id={headingId}>Item prizes</h3>
      {next.error && <p role="alert">{explainItemError(next.error)}</p>}
      {next.data && next.data.items.length === 0 && <p>The next round has no item prizes: its winners share the pot only.</p>}
      {next.data && next.data.items.length > 0 && (
        <ItemList
          label="Items of the next round"
          chainId={chainId}
          items={next.data.items}
          checks={nextChecks.data}
          holder={holderNameOf(next.data.merchant, merchant)}
        />
      )}
      <div className="actions">
        <button type="button" aria-expanded={draft !== null} onClick={() => setDraft(draft === null ? [...(next.data?.items ?? [])] : null)}>
          Choose item prizes
        </button>
      </div>
      {draft !== null && (
        <div className="panel">
          <AddItemForm
            chainId={chainId}
            idPrefix={idPrefix}
            taken={draft.map((item) => item.position)}
            onAdd={(item) => setDraft([...draft, item])}
          />
          {draft.length === 0 ? (
            <p>No item chosen: saving removes the next round's item prizes.</p>
          ) : (
            <ItemList
              label="Chosen items"
              chainId={chainId}
              items={[...draft].sort((a, b) => a.position - b.position)}
              checks={draftChecks.data}
              order={draft}
              onRemove={(item) => setDraft(draft.filter((each) => each !== item))}
            />
          )}
          <div className="actions">
            {unapproved && (
              <button type="button" disabled={busy} onClick={() => void run(approveAll)}>
                Approve the items
              </button>
            )}
            <button type="button" className="primary" disabled={busy || unapproved || unheld || !draftChecks.data} onClick={() => void run(save)}>
              Save item prizes
            </button>
          </div>
          {(unapproved || unheld) && (
            <p className="muted">
              {unheld ? "Your wallet must hold every item chosen. " : ""}
              {unapproved ? "Approve the items first: a round takes them into escrow from your wallet when it starts." : ""}
            </p>
          )}
        </div>
      )}
      {status && <p role="status">{status}</p>}
      {error && <p role="alert">{error}</p>}
    </section>
  );
}

/** Items by position with, when known, whether the wallet holds each and whether the raffle is approved to pull it. */
function ItemList({
  label,
  chainId,
  items,
  checks,
  order,
  onRemove,
  holder = "Your wallet",
}: {
  label: string;
  chainId: number;
  items: PrizeItem[];
  checks: Array<{ problem: string | null; approved: boolean }> | undefined;
  /** Whose wallet the checks are about, as `holderNameOf` names it. */
  holder?: string;
  /** The order `checks` are in, when it is not `items`' own. */
  order?: PrizeItem[];
  onRemove?: (item: PrizeItem) => void;
}) {
  return (
    <ul className="item-list" aria-label={label}>
      {items.map((item) => {
        const check = checks?.[(order ?? items).indexOf(item)];
        return (
          <li key={`${item.position}-${item.token}-${item.tokenId}`}>
            <strong>{prizeName(item.position - 1)}</strong>: <ItemPrize chainId={chainId} item={item} />
            {check && (
              <span className={check.problem || !check.approved ? "field-error" : "muted"}>
                {" "}
                · {check.problem ?? `${holderPlace(holder)}, ${check.approved ? "approved" : "not approved for the raffle yet"}`}
              </span>
            )}
            {onRemove && (
              <>
                {" "}
                <button type="button" onClick={() => onRemove(item)}>
                  Remove the {prizeName(item.position - 1)} item
                </button>
              </>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** One item from the wallet: position, token, kind (detected unless chosen), id and amount, checked before it is added. */
function AddItemForm({ chainId, idPrefix, taken, onAdd }: { chainId: number; idPrefix: string; taken: number[]; onAdd: (item: PrizeItem) => void }) {
  const config = useConfig();
  const { merchant } = useConsole();
  const [position, setPosition] = useState(String(Math.min(MAX_POSITION, Math.max(0, ...taken) + 1)));
  const [token, setToken] = useState("");
  const [kind, setKind] = useState<KindChoice>("detect");
  const [tokenId, setTokenId] = useState("");
  const [amount, setAmount] = useState("1");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const errorId = `${idPrefix}-add-item-error`;

  async function add() {
    setError(null);
    const at = Number(position);
    if (!/^\d{1,2}$/.test(position) || at < 1 || at > MAX_POSITION)
      return setError(`The prize position is a whole number from 1 to ${MAX_POSITION}.`);
    if (taken.includes(at)) return setError(`The ${prizeName(at - 1)} has an item already: remove it first.`);
    if (!isAddress(token.trim())) return setError("The token address is a 0x address of 40 hexadecimal digits.");
    setBusy(true);
    try {
      const address = token.trim() as Address;
      const detected = kind === "detect" ? await detectItemKind(config, chainId, address) : kind;
      if (detected !== "ERC20" && detected !== "ERC721" && detected !== "ERC1155") return setError(detected);
      if (detected !== "ERC20" && !/^\d{1,78}$/.test(tokenId.trim())) return setError("The token id is a whole number.");
      let quantity: bigint;
      if (detected === "ERC721") quantity = 1n;
      else if (detected === "ERC1155") {
        if (!/^\d{1,30}$/.test(amount.trim()) || BigInt(amount.trim()) === 0n) return setError("The amount is a whole number above 0.");
        quantity = BigInt(amount.trim());
      } else {
        if (!/^\d{1,30}(\.\d{1,30})?$/.test(amount.trim())) return setError("The amount is a number above 0, such as 1000 or 2.5.");
        const decimals = await decimalsOf(config, chainId, address);
        try {
          quantity = parseUnits(amount.trim(), decimals);
        } catch {
          return setError(`This token has ${decimals} decimals: the amount has too many digits after the point.`);
        }
        if (quantity === 0n) return setError("The amount is a number above 0, such as 1000 or 2.5.");
      }
      const item: PrizeItem = {
        position: at,
        kind: detected,
        token: address,
        tokenId: detected === "ERC20" ? 0n : BigInt(tokenId.trim()),
        amount: quantity,
      };
      const problem = await holdingProblem(config, chainId, merchant as Address, item);
      if (problem) return setError(problem);
      onAdd(item);
      setPosition(String(Math.min(MAX_POSITION, at + 1)));
      setTokenId("");
    } finally {
      setBusy(false);
    }
  }

  const invalid = error ? { "aria-invalid": true, "aria-describedby": errorId } : {};
  return (
    <form
      className="form-row"
      aria-label="Add an item prize"
      onSubmit={(event) => {
        event.preventDefault();
        void add();
      }}
    >
      <label>
        Prize position
        <input inputMode="numeric" value={position} onChange={(event) => setPosition(event.target.value)} {...invalid} />
      </label>
      <label>
        Item token address
        <input value={token} onChange={(event) => setToken(event.target.value)} placeholder="0x…" spellCheck={false} {...invalid} />
      </label>
      <label>
        Kind
        <select value={kind} onChange={(event) => setKind(event.target.value as KindChoice)}>
          <option value="detect">Detect from the token</option>
          <option value="ERC721">ERC721 (one unique item)</option>
          <option value="ERC1155">ERC1155 (an id and an amount)</option>
          <option value="ERC20">ERC20 (an amount)</option>
        </select>
      </label>
      <label>
        Token id
        <input
          inputMode="numeric"
          value={tokenId}
          onChange={(event) => setTokenId(event.target.value)}
          placeholder="ERC721 and ERC1155"
          {...invalid}
        />
      </label>
      <label>
        Amount
        <input inputMode="decimal" value={amount} onChange={(event) => setAmount(event.target.value)} {...invalid} />
      </label>
      <button type="submit" disabled={busy}>
        Add item
      </button>
      {error && (
        <p id={errorId} role="alert" className="field-error">
          {error}
        </p>
      )}
    </form>
  );
}

/** "Your wallet" for the connected wallet; another admin's wallet by its short address. */
function holderNameOf(holder: string, connected: string | null | undefined): string {
  return connected && holder.toLowerCase() === connected.toLowerCase() ? "Your wallet" : `The wallet ${shortAddress(holder)}`;
}

function holderPlace(holderName: string): string {
  return holderName === "Your wallet" ? "in your wallet" : `held by ${holderName.replace(/^The wallet /, "")}`;
}
