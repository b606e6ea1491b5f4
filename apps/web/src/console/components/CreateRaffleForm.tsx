import { useState } from "react";
import { decodeEventLog, isAddress, parseUnits, zeroAddress, type Address } from "viem";
import { useConfig, useConnection } from "wagmi";
import { readContract, waitForTransactionReceipt, writeContract } from "wagmi/actions";

import { useApp } from "../../lib/app-context";
import { explain } from "../../lib/messages";
import { CONSOLE_RAFFLE_ABI, ERC20_METADATA_ABI, FACTORY_ABI } from "../console-abi";
import { TOKEN_TYPE } from "./StartRoundForm";

interface Draft {
  ticketName: string;
  ticketSymbol: string;
  commissionPercent: string;
  releaseDays: string;
  priceKind: "NATIVE" | "ERC20";
  priceToken: string;
  price: string;
  maxTickets: string;
  /** Round rules (raffle v2): prize shares in %, first prize first; minimum; per-wallet cap; bundles "5 for 0.09". */
  prizeShares: string;
  minTickets: string;
  maxPerWallet: string;
  bundles: string;
}

const EMPTY: Draft = {
  ticketName: "",
  ticketSymbol: "",
  commissionPercent: "10",
  releaseDays: "1",
  priceKind: "NATIVE",
  priceToken: "",
  price: "0.01",
  maxTickets: "100",
  prizeShares: "100",
  minTickets: "0",
  maxPerWallet: "0",
  bundles: "",
};

/** The rules a raffle has without setRoundRules: one winner takes the pot, no minimum, no cap per wallet, no bundles. */
const DEFAULT_RULES = { prizeShares: "100", minTickets: "0", maxPerWallet: "0", bundles: "" };

/** The shares as basis points ("70, 30" → [7000, 3000]), or null when they do not read. */
function sharesOf(text: string): number[] | null {
  const parts = text.split(",").map((part) => part.trim());
  if (parts.some((part) => !/^\d{1,3}(\.\d{1,2})?$/.test(part))) return null;
  return parts.map((part) => Math.round(Number(part) * 100));
}

/** Bundles "5 for 0.09, 10 for 0.17" as quantities and total prices in the token's smallest unit, or null. */
function bundlesOf(text: string, decimals: number): Array<{ quantity: number; price: bigint }> | null {
  if (!text.trim()) return [];
  const bundles = text.split(",").map((part) => /^\s*(\d{1,6})\s+for\s+(\d+(?:\.\d+)?)\s*$/.exec(part));
  if (bundles.some((match) => !match)) return null;
  return bundles.map((match) => ({ quantity: Number(match![1]), price: parseUnits(match![2], decimals) }));
}

/** What the form's fields say is wrong, as sentences, before anything is sent to the wallet. */
function problemsOf(draft: Draft): string[] {
  const problems: string[] = [];
  if (!draft.ticketName.trim()) problems.push("Give the ticket a name.");
  if (!/^[A-Za-z0-9]{1,11}$/.test(draft.ticketSymbol)) problems.push("The ticket symbol is 1 to 11 letters or digits.");
  if (!/^\d{1,2}(\.\d{1,2})?$/.test(draft.commissionPercent) || Number(draft.commissionPercent) > 30) problems.push("The commission is 0 to 30 %.");
  if (!/^\d{1,3}$/.test(draft.releaseDays) || Number(draft.releaseDays) < 1) problems.push("Unclaimed prizes wait at least 1 day.");
  if (draft.priceKind === "ERC20" && !isAddress(draft.priceToken)) problems.push("The price token is a 0x address.");
  if (!/^\d+(\.\d+)?$/.test(draft.price) || Number(draft.price) <= 0) problems.push("The ticket price is a number above 0.");
  if (!/^\d{1,10}$/.test(draft.maxTickets) || Number(draft.maxTickets) > 4_294_967_295)
    problems.push("The ticket cap is a whole number (0 for none).");
  return problems;
}

/**
 * Creates a raffle from the merchant's wallet: `RaffleFactory.deployRaffle` (the raffle and its ticket contract), then
 * the first round with `Raffle.startRound`. Both transactions are prepared here and signed by the wallet; no platform
 * key is involved.
 */
export function CreateRaffleForm({ chainId, onDone }: { chainId: number; onDone: (raffle: string) => void }) {
  const { config } = useApp();
  const wagmiConfig = useConfig();
  const connection = useConnection();
  const factory = config.chains.find((chain) => chain.id === chainId)?.factory as Address | undefined;
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [step, setStep] = useState<string | null>(null);
  const [errors, setErrors] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const field = (name: keyof Draft) => ({
    value: draft[name],
    onChange: (event: { target: { value: string } }) => setDraft({ ...draft, [name]: event.target.value }),
  });

  async function submit() {
    const found = problemsOf(draft);
    setErrors(found);
    if (found.length > 0 || !factory || !connection.address) return;
    setBusy(true);
    try {
      if (connection.chainId !== chainId) throw new Error("wrong chain");
      const token = draft.priceKind === "NATIVE" ? zeroAddress : (draft.priceToken as Address);
      const decimals =
        draft.priceKind === "NATIVE"
          ? 18
          : await readContract(wagmiConfig, { chainId, address: token, abi: ERC20_METADATA_ABI, functionName: "decimals" });
      const amount = parseUnits(draft.price, decimals);
      setStep("Step 1: confirm the deployment in your wallet…");
      const deployHash = await writeContract(wagmiConfig, {
        chainId,
        address: factory,
        abi: FACTORY_ABI,
        functionName: "deployRaffle",
        args: [
          {
            commission: BigInt(Math.round(Number(draft.commissionPercent) * 100)),
            timeLagBeforeRelease: BigInt(Number(draft.releaseDays) * 86_400),
            ticketName: draft.ticketName.trim(),
            ticketSymbol: draft.ticketSymbol,
          },
        ],
      });
      setStep("Deploying the raffle…");
      const receipt = await waitForTransactionReceipt(wagmiConfig, { chainId, hash: deployHash });
      const deployed = receipt.logs
        .filter((log) => log.address.toLowerCase() === factory.toLowerCase())
        .map((log) => {
          try {
            return decodeEventLog({ abi: FACTORY_ABI, data: log.data, topics: log.topics });
          } catch {
            return null;
          }
        })
        .find((event) => event?.eventName === "RaffleDeployed");
      if (!deployed || deployed.eventName !== "RaffleDeployed") throw new Error("no RaffleDeployed event");
      const { raffle, ticket } = deployed.args;
      // Raffle v2 takes round rules before its first round; a raffle without them does not answer roundRules().
      const hasRules = await readContract(wagmiConfig, { chainId, address: raffle, abi: CONSOLE_RAFFLE_ABI, functionName: "roundRules" }).then(
        () => true,
        () => false,
      );
      const customRules = (Object.keys(DEFAULT_RULES) as Array<keyof typeof DEFAULT_RULES>).some((key) => draft[key].trim() !== DEFAULT_RULES[key]);
      if (!hasRules && customRules) throw new Error("no rules");
      if (hasRules) {
        setStep("Step 2 of 3: confirm the round rules in your wallet…");
        const rulesHash = await writeContract(wagmiConfig, {
          chainId,
          address: raffle,
          abi: CONSOLE_RAFFLE_ABI,
          functionName: "setRoundRules",
          args: [
            {
              prizeShares: sharesOf(draft.prizeShares)!,
              minTickets: Number(draft.minTickets),
              maxTicketsPerWallet: Number(draft.maxPerWallet),
              bundles: bundlesOf(draft.bundles, decimals)!,
            },
          ],
        });
        await waitForTransactionReceipt(wagmiConfig, { chainId, hash: rulesHash });
      }
      setStep(`Step ${hasRules ? "3 of 3" : "2 of 2"}: confirm the first round in your wallet…`);
      const startHash = await writeContract(wagmiConfig, {
        chainId,
        address: raffle,
        abi: CONSOLE_RAFFLE_ABI,
        functionName: "startRound",
        args: [
          { tokenType: TOKEN_TYPE.ERC721, token: ticket, tokenId: 0n, amount: 1n },
          { tokenType: TOKEN_TYPE[draft.priceKind], token, tokenId: 0n, amount },
          BigInt(draft.maxTickets),
        ],
      });
      setStep("Starting the first round…");
      await waitForTransactionReceipt(wagmiConfig, { chainId, hash: startHash });
      setStep(`Raffle ${raffle} created and selling. It appears in the list as soon as it is indexed.`);
      setDraft(EMPTY);
      onDone(raffle);
    } catch (error) {
      setStep(null);
      setErrors([
        (error as Error).message === "wrong chain"
          ? "Switch your wallet to this network first."
          : explain(error).replace(" Nothing was charged; please try again.", " Please try again."),
      ]);
    } finally {
      setBusy(false);
    }
  }

  if (!factory) return <p>Raffles cannot be created on this network from the console: its factory address is not configured.</p>;
  return (
    <form
      className="panel create"
      aria-label="New raffle"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <div className="grid">
        <label>
          Ticket name
          <input required {...field("ticketName")} placeholder="Friday Ticket" />
        </label>
        <label>
          Ticket symbol
          <input required {...field("ticketSymbol")} placeholder="FRI" />
        </label>
        <label>
          Commission (%)
          <input inputMode="decimal" {...field("commissionPercent")} />
        </label>
        <label>
          Days before unclaimed prizes may be released
          <input inputMode="numeric" {...field("releaseDays")} />
        </label>
        <label>
          Paid in
          <select value={draft.priceKind} onChange={(event) => setDraft({ ...draft, priceKind: event.target.value as Draft["priceKind"] })}>
            <option value="NATIVE">The network's coin</option>
            <option value="ERC20">An ERC20 token</option>
          </select>
        </label>
        {draft.priceKind === "ERC20" && (
          <label>
            Price token address
            <input {...field("priceToken")} placeholder="0x…" />
          </label>
        )}
        <label>
          Ticket price
          <input inputMode="decimal" {...field("price")} />
        </label>
        <label>
          Ticket cap of the first round (0 for none)
          <input inputMode="numeric" {...field("maxTickets")} />
        </label>
      </div>
      <fieldset>
        <legend>Round rules</legend>
        <div className="grid">
          <label>
            Prize shares (%, first prize first)
            <input {...field("prizeShares")} placeholder="70, 30" />
          </label>
          <label>
            Minimum tickets for a draw (0 for none)
            <input inputMode="numeric" {...field("minTickets")} />
          </label>
          <label>
            Most tickets per wallet (0 for none)
            <input inputMode="numeric" {...field("maxPerWallet")} />
          </label>
          <label>
            Bundles (optional)
            <input {...field("bundles")} placeholder="5 for 0.045, 10 for 0.08" />
          </label>
        </div>
      </fieldset>
      <button type="submit" className="primary" disabled={busy}>
        Deploy and start selling
      </button>
      {step && <p role="status">{step}</p>}
      {errors.length > 0 && (
        <div role="alert">
          {errors.map((error) => (
            <p key={error}>{error}</p>
          ))}
        </div>
      )}
    </form>
  );
}
