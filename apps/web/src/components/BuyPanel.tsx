import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { erc20Abi, type Address, type Hex } from "viem";
import { useBalance, useConfig, useConnection, useGasPrice, useReadContract, useSwitchChain } from "wagmi";
import { readContract, simulateContract, waitForTransactionReceipt, writeContract } from "wagmi/actions";

import { ApiError, type PlayerVoucher, type PublicRaffle } from "../lib/api";
import { PURCHASE_ABI } from "../lib/abi";
import { chainName, useApp } from "../lib/app-context";
import { maxQuantity, priceForQuantity } from "../lib/bundles";
import { formatAmount } from "../lib/format";
import { openConnectMenu } from "./ConnectMenu";
import { GaslessBuy, gaslessOffer } from "./GaslessBuy";
import { priceOf, useNativeSymbol } from "./RoundFacts";
import { explain } from "../lib/messages";
import { useActsWithoutSwitch } from "../lib/network-need";
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
/**
 * Gas a purchase (with its approval, for an ERC20 price) is allowed before the page says the wallet cannot pay the
 * network fee: above what a purchase of a few tickets and an approval use on the local chain, so a wallet this short
 * would have its transaction refused.
 */
const PURCHASE_GAS = 400_000n;

/** What the quantity box holds: a whole number of tickets from 1 to `most`, or the reason it is refused (never changed). */
export function readQuantity(text: string, most: number, why: string): { quantity: number } | { refusal: string } {
  const trimmed = text.trim();
  if (trimmed === "") return { refusal: "Enter how many tickets to buy." };
  if (!/^\d+$/.test(trimmed)) return { refusal: "Tickets are bought whole: enter a whole number, such as 1 or 2." };
  const quantity = Number(trimmed);
  if (quantity < 1) return { refusal: "Buy at least 1 ticket." };
  if (quantity > most) return { refusal: `At most ${most} ${most === 1 ? "ticket" : "tickets"} in one purchase here: ${why}.` };
  return { quantity };
}

/** Why a purchase cannot take more tickets: the tightest of the contract's limit, the tickets left and the wallet cap. */
function limitReason(round: NonNullable<PublicRaffle["round"]>, most: number): string {
  const rules = round.rules;
  if (rules && rules.maxTicketsPerWallet > 0 && rules.maxTicketsPerWallet === most) return "that is the most one wallet may hold in this round";
  if (round.maxTickets > 0 && round.maxTickets - round.ticketCount === most) return `only ${most} ${most === 1 ? "ticket is" : "tickets are"} left`;
  return "that is the most one purchase may take";
}
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
  const [quantityText, setQuantityText] = useState("1");
  const chainId = raffle.raffle.chainId;
  const symbol = useNativeSymbol(chainId);
  const price = priceOf(raffle, symbol);
  // Raffle v2's rules of the round: bundle prices and the wallet cap.
  const rules = raffle.round?.rules;
  const most = raffle.round ? maxQuantity(raffle.round, rules) : 1;
  const read = readQuantity(quantityText, most, raffle.round ? limitReason(raffle.round, most) : "");
  const quantity = "quantity" in read ? read.quantity : null;
  const total = price && quantity !== null ? priceForQuantity(quantity, price.amount, rules?.bundles) : null;
  const busy = !["idle", "confirmed", "failed"].includes(purchase.step);
  const funds = useFunds(raffle, connection.address, total);
  // Without gas, only the price token counts: the wallet may hold no ETH and sit on another network.
  const offer = gaslessOffer(raffle);
  const wrongChain = connection.chainId !== chainId;
  const closed = raffle.round?.endTimestamp != null;
  useActsWithoutSwitch(Boolean(offer) && connection.isConnected && !closed);

  async function buy() {
    const account = connection.address!;
    if (quantity === null || funds.shortfall) return;
    try {
      // Read afresh before anything is signed: a wallet that cannot pay is told so, never asked to approve or sign.
      const shortfall = await funds.recheck();
      if (shortfall) {
        setPurchase({ step: "failed", message: shortfall });
        return;
      }
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

  if (!connection.isConnected) {
    return (
      <button type="button" className="primary" onClick={openConnectMenu}>
        Connect your wallet to buy
      </button>
    );
  }
  const switchNetwork = (
    <>
      {offer ? (
        // Not a refusal here: buying without gas works from any network; only paying the fee yourself needs this one.
        <p className="hint">To buy and pay the network fee yourself instead, switch your wallet to {chainName(config, chainId)}.</p>
      ) : (
        <p role="alert">This raffle is on {chainName(config, chainId)}; your wallet is on another network.</p>
      )}
      <button type="button" onClick={() => switchChain.mutate({ chainId })}>
        Switch to {chainName(config, chainId)}
      </button>
      {switchChain.error && (
        <p role="alert" className="error">
          {explain(switchChain.error)}
        </p>
      )}
    </>
  );
  if (wrongChain && !offer) return <div className="buy">{switchNetwork}</div>;
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
        type="text"
        inputMode="numeric"
        autoComplete="off"
        value={quantityText}
        aria-invalid={"refusal" in read}
        aria-describedby={"refusal" in read ? "quantity-error quantity-help" : "quantity-help"}
        onChange={(event) => setQuantityText(event.target.value)}
      />
      {"refusal" in read && (
        <p id="quantity-error" role="alert" className="error">
          {read.refusal}
        </p>
      )}
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
      {funds.line && <p className="hint">{funds.line}</p>}
      {funds.shortfall && (!offer || funds.tokenShortfall) && (
        <p role="alert" className="error">
          {funds.shortfall}
        </p>
      )}
      {offer && (
        <GaslessBuy
          raffle={raffle}
          offer={offer}
          quantity={quantity}
          disabled={busy || Boolean(funds.tokenShortfall) || closed}
          tokenShortfall={funds.recheckToken}
        />
      )}
      {wrongChain ? (
        switchNetwork
      ) : (
        <>
          {offer && funds.shortfall && !funds.tokenShortfall && <p className="hint">{funds.shortfall}</p>}
          <button type="submit" className={offer ? undefined : "primary"} disabled={busy || quantity === null || Boolean(funds.shortfall) || closed}>
            Buy
          </button>
        </>
      )}
      <PurchaseStatus purchase={purchase} />
    </form>
  );
}

/**
 * The player's balance of the price token and of the native coin for gas, and what the purchase of `total` would lack:
 * "Insufficient GOLD…" or "Not enough ETH for gas…", shown before Buy and checked again, freshly read, before any
 * signature or approval.
 */
function useFunds(raffle: PublicRaffle, account: Address | undefined, total: bigint | null) {
  const chainId = raffle.raffle.chainId;
  const nativeSymbol = useNativeSymbol(chainId);
  const price = priceOf(raffle, nativeSymbol);
  const component = raffle.round?.price.components[0];
  const erc20 = component && component.tokenType !== "NATIVE" ? (component.contract.address as Address) : undefined;
  const native = useBalance({ address: account, chainId, query: { enabled: Boolean(account), refetchInterval: 5_000 } });
  const token = useReadContract({
    chainId,
    address: erc20,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: account ? [account] : undefined,
    query: { enabled: Boolean(account && erc20), refetchInterval: 5_000 },
  });
  const gasPrice = useGasPrice({ chainId, query: { refetchInterval: 5_000 } });

  const money = (amount: bigint, symbol: string, decimals: number) => formatAmount(amount, decimals, symbol);
  /** What the price token (an ERC20 price) lacks, whatever the gas: all a purchase without gas needs. */
  function tokenShortfallOf(tokenBalance: bigint | undefined): string | null {
    if (!price || total === null || !erc20 || tokenBalance === undefined || tokenBalance >= total) return null;
    return `Insufficient ${price.symbol}: this purchase costs ${money(total, price.symbol, price.decimals)} and your wallet holds ${money(tokenBalance, price.symbol, price.decimals)}.`;
  }

  function shortfallOf(nativeBalance: bigint | undefined, tokenBalance: bigint | undefined, gasPriceWei: bigint | undefined): string | null {
    if (!price || total === null || nativeBalance === undefined || gasPriceWei === undefined) return null;
    if (erc20 && tokenBalance === undefined) return null;
    const fee = gasPriceWei * PURCHASE_GAS;
    const paid = erc20 ? tokenBalance! : nativeBalance;
    if (paid < total) {
      return `Insufficient ${price.symbol}: this purchase costs ${money(total, price.symbol, price.decimals)} and your wallet holds ${money(paid, price.symbol, price.decimals)}.`;
    }
    const leftForGas = erc20 ? nativeBalance : nativeBalance - total;
    if (leftForGas < fee) {
      return `Not enough ${nativeSymbol} for gas: the network fee needs up to ${money(fee, nativeSymbol, 18)} and your wallet has ${money(leftForGas, nativeSymbol, 18)}${erc20 ? "" : " left after the ticket price"}.`;
    }
    return null;
  }

  const line =
    price && native.data !== undefined && (!erc20 || token.data !== undefined)
      ? erc20
        ? `Your wallet holds ${formatAmount(token.data!, price.decimals, price.symbol)} and ${formatAmount(native.data.value, 18, nativeSymbol)} for network fees.`
        : `Your wallet holds ${formatAmount(native.data.value, 18, nativeSymbol)}.`
      : null;

  return {
    line,
    shortfall: shortfallOf(native.data?.value, token.data, gasPrice.data),
    tokenShortfall: tokenShortfallOf(token.data),
    /** Reads the token balance again: what a purchase without gas would lack, or null. */
    async recheckToken(): Promise<string | null> {
      return erc20 ? tokenShortfallOf((await token.refetch()).data) : null;
    },
    /** Reads the balances and gas price again; the shortfall sentence, or null when the wallet can pay. */
    async recheck(): Promise<string | null> {
      const [nativeNow, tokenNow, gasNow] = await Promise.all([
        native.refetch(),
        erc20 ? token.refetch() : Promise.resolve(undefined),
        gasPrice.refetch(),
      ]);
      return shortfallOf(nativeNow.data?.value, tokenNow?.data, gasNow.data);
    },
  };
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
