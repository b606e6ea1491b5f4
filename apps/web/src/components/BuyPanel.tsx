import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { erc20Abi, type Address, type Hex } from "viem";
import { useConfig, useConnection, useSwitchChain } from "wagmi";
import { readContract, simulateContract, waitForTransactionReceipt, writeContract } from "wagmi/actions";

import { ApiError, type PlayerVoucher, type PublicRaffle } from "../lib/api";
import { PURCHASE_ABI } from "../lib/abi";
import { chainName, useApp } from "../lib/app-context";
import { maxQuantity, priceForQuantity } from "../lib/bundles";
import { formatAmount } from "../lib/format";
import { priceOf, useNativeSymbol } from "./RoundFacts";
import { explain } from "../lib/messages";
import { useSession } from "../lib/session";

/** Where a purchase is: each state is shown, so the player always knows what to do or wait for. */
type Purchase =
  | { step: "idle" }
  | { step: "signing" }
  | { step: "approving" }
  | { step: "approvalPending"; hash: Hex }
  | { step: "wallet" }
  | { step: "pending"; hash: Hex }
  | { step: "confirmed"; hash: Hex; quantity: number }
  | { step: "failed"; message: string };

const TOKEN_TYPE_ERC20 = 1;
/** How often a sent purchase asks the API for its tickets: well inside one indexer poll (500 ms in `npm start`). */
const POLL_MS = 200;

function toArgs(voucher: PlayerVoucher) {
  const asset = (value: PlayerVoucher["price"]) => ({
    tokenType: value.tokenType,
    token: value.token as Address,
    tokenId: BigInt(value.tokenId),
    amount: BigInt(value.amount),
  });
  const params = {
    externalId: BigInt(voucher.params.externalId),
    expiresAt: BigInt(voucher.params.expiresAt),
    nonce: voucher.params.nonce as Hex,
    extra: voucher.params.extra as Hex,
    receiver: voucher.params.receiver as Address,
    referrer: voucher.params.referrer as Address,
  };
  return [params, asset(voucher.item), asset(voucher.price), voucher.signature as Hex] as const;
}

/** Quantity and Buy: a voucher from the API, an exact ERC20 approval when short, the purchase, then the API's ticket. */
export function BuyPanel({ raffle }: { raffle: PublicRaffle }) {
  const { api, config } = useApp();
  const wagmiConfig = useConfig();
  const connection = useConnection();
  const switchChain = useSwitchChain();
  const { session, signIn, forget } = useSession();
  const queryClient = useQueryClient();
  const [purchase, setPurchase] = useState<Purchase>({ step: "idle" });
  const [quantity, setQuantity] = useState(1);
  const chainId = raffle.raffle.chainId;
  const symbol = useNativeSymbol(chainId);
  const price = priceOf(raffle, symbol);
  // Raffle v2's rules of the round: bundle prices and the wallet cap.
  const rules = raffle.round?.rules;
  const most = raffle.round ? maxQuantity(raffle.round, rules) : 1;
  const total = price ? priceForQuantity(quantity, price.amount, rules?.bundles) : null;
  const busy = !["idle", "confirmed", "failed"].includes(purchase.step);

  async function buy() {
    const account = connection.address!;
    try {
      const current = session ?? (await signIn());
      setPurchase({ step: "signing" });
      const voucher = await api.voucher(current.token, raffle.raffle.id, quantity);
      const exchange = voucher.exchange as Address;
      const amount = BigInt(voucher.price.amount);
      if (voucher.price.tokenType === TOKEN_TYPE_ERC20) {
        const token = voucher.price.token as Address;
        const allowance = await readContract(wagmiConfig, {
          chainId,
          address: token,
          abi: erc20Abi,
          functionName: "allowance",
          args: [account, exchange],
        });
        if (allowance < amount) {
          // Exactly the price of this purchase: never an unlimited approval.
          setPurchase({ step: "approving" });
          const hash = await writeContract(wagmiConfig, {
            chainId,
            account,
            address: token,
            abi: erc20Abi,
            functionName: "approve",
            args: [exchange, amount],
          });
          setPurchase({ step: "approvalPending", hash });
          await waitForTransactionReceipt(wagmiConfig, { chainId, hash });
        }
      }
      // A dry run first: a refusal (sold out, expired offer) is read from the chain before the wallet is asked.
      const { request } = await simulateContract(wagmiConfig, {
        chainId,
        account,
        address: exchange,
        abi: PURCHASE_ABI,
        functionName: "purchaseRaffle",
        args: toArgs(voucher),
        value: BigInt(voucher.value),
      });
      setPurchase({ step: "wallet" });
      const hash = await writeContract(wagmiConfig, request);
      setPurchase({ step: "pending", hash });
      await waitForTransactionReceipt(wagmiConfig, { chainId, hash });
      // Confirmed once the API shows the ticket (the indexer has read the block), not just the receipt.
      for (;;) {
        const tickets = await api.tickets(current.token);
        if (tickets.some((ticket) => ticket.txHash.toLowerCase() === hash.toLowerCase())) break;
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
      setPurchase({ step: "confirmed", hash, quantity });
      await queryClient.invalidateQueries();
    } catch (error) {
      if (error instanceof ApiError && error.code === "sessionRequired") forget();
      setPurchase({ step: "failed", message: explain(error) });
    }
  }

  if (!connection.isConnected) return <p className="hint">Connect your wallet to buy a ticket.</p>;
  if (connection.chainId !== chainId) {
    return (
      <div className="buy">
        <p role="alert">This raffle is on {chainName(config, chainId)}; your wallet is on another network.</p>
        <button type="button" onClick={() => switchChain.mutate({ chainId })}>
          Switch to {chainName(config, chainId)}
        </button>
      </div>
    );
  }
  return (
    <form
      className="buy"
      onSubmit={(event) => {
        event.preventDefault();
        void buy();
      }}
    >
      <label htmlFor="quantity">Quantity</label>
      <input
        id="quantity"
        type="number"
        inputMode="numeric"
        min={1}
        max={most}
        value={quantity}
        aria-describedby="quantity-help"
        onChange={(event) => setQuantity(Math.min(most, Math.max(1, Math.floor(Number(event.target.value)) || 1)))}
      />
      <p id="quantity-help" className="hint">
        {most === 1 ? "One ticket per purchase here." : `Up to ${most} tickets in one purchase.`}
        {price && rules && rules.bundles.length > 0 && (
          <>
            {" "}
            Bundles: {rules.bundles.map((bundle) => `${bundle.quantity} for ${formatAmount(bundle.price, price.decimals, price.symbol)}`).join(", ")}.
          </>
        )}
      </p>
      {price && total !== null && (
        <p className="total" aria-live="polite">
          Total: {formatAmount(total, price.decimals, price.symbol)}
        </p>
      )}
      <button type="submit" className="primary" disabled={busy || raffle.round?.endTimestamp != null}>
        Buy
      </button>
      <PurchaseStatus purchase={purchase} />
    </form>
  );
}

function PurchaseStatus({ purchase }: { purchase: Purchase }) {
  if (purchase.step === "failed")
    return (
      <p role="alert" className="error">
        {purchase.message}
      </p>
    );
  const text: Record<Exclude<Purchase["step"], "failed">, string> = {
    idle: "",
    signing: "Preparing your purchase…",
    approving: "Approve the exact ticket price in your wallet…",
    approvalPending: "Approval sent, waiting for the network…",
    wallet: "Confirm the purchase in your wallet…",
    pending: "Purchase sent, waiting for the network…",
    confirmed:
      purchase.step === "confirmed" && purchase.quantity > 1
        ? `${purchase.quantity} tickets bought! They are in My tickets.`
        : "Ticket bought! It is in My tickets.",
  };
  return (
    <div role="status" className="status">
      {text[purchase.step]}
      {"hash" in purchase && (
        <span className="hash">
          {" "}
          Transaction <code>{purchase.hash}</code>
        </span>
      )}
    </div>
  );
}
