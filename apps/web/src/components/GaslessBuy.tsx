import { useState } from "react";
import { erc20Abi, parseAbi, parseSignature, type Address } from "viem";
import { useConfig, useConnection } from "wagmi";
import { readContract, signTypedData } from "wagmi/actions";

import { gaslessOf, type GaslessPurchaseBody, type PlayerVoucher, type PublicRaffle } from "../lib/api";
import { useApp } from "../lib/app-context";
import { authorizationTypedData, permitTypedData, purchaseIntentTypedData, type GaslessOffer } from "../lib/gasless";
import { explain } from "../lib/messages";
import { useSession } from "../lib/session";
import { duplicateRequestId } from "../lib/gasless-state";
import { GaslessStatus } from "./GaslessStatus";

const NONCES_ABI = parseAbi(["function nonces(address owner) view returns (uint256)"]);

/** The raffle's gasless offer when the page can use it: available, with the token's signing domain named. */
export function gaslessOffer(raffle: PublicRaffle): GaslessOffer | null {
  const gasless = gaslessOf(raffle);
  if (!gasless?.available || !gasless.method || !gasless.tokenName || !gasless.tokenVersion) return null;
  return { method: gasless.method, tokenName: gasless.tokenName, tokenVersion: gasless.tokenVersion };
}

type Step =
  | { step: "idle" }
  | { step: "preparing" }
  | { step: "signing"; text: string }
  | { step: "submitted"; id: string }
  | { step: "failed"; message: string };

/**
 * "Buy without gas": a voucher from the API, the player's signature(s) (one for an ERC-3009 token; a permit, unless
 * the Exchange is already approved, and a purchase intent for an EIP-2612 token), then the API's mailbox, which a
 * relayer of the merchant empties. No transaction and no network switch: the wallet only signs typed data.
 */
export function GaslessBuy({
  raffle,
  offer,
  quantity,
  disabled,
  tokenShortfall,
}: {
  raffle: PublicRaffle;
  offer: GaslessOffer;
  quantity: number | null;
  disabled: boolean;
  /** Reads the token balance again: the sentence of what is missing, or null when the wallet can pay. */
  tokenShortfall: () => Promise<string | null>;
}) {
  const { api } = useApp();
  const wagmiConfig = useConfig();
  const connection = useConnection();
  const { session, signIn, forget } = useSession();
  const [step, setStep] = useState<Step>({ step: "idle" });
  const busy = step.step === "preparing" || step.step === "signing";

  async function sign(voucher: PlayerVoucher, buyer: Address): Promise<GaslessPurchaseBody> {
    if (offer.method === "authorization") {
      setStep({ step: "signing", text: "Sign the payment in your wallet. It costs no gas; nothing is sent until the organiser relays it." });
      const typed = authorizationTypedData(voucher, buyer, offer);
      const signature = await signTypedData(wagmiConfig, { account: buyer, ...typed });
      return {
        voucher,
        authorization: { validAfter: typed.message.validAfter.toString(), validBefore: typed.message.validBefore.toString(), signature },
      };
    }
    const chainId = voucher.chainId;
    const token = voucher.price.token as Address;
    const allowance = await readContract(wagmiConfig, {
      chainId,
      address: token,
      abi: erc20Abi,
      functionName: "allowance",
      args: [buyer, voucher.exchange as Address],
    });
    let permit: GaslessPurchaseBody["permit"];
    if (allowance < BigInt(voucher.price.amount)) {
      const nonce = await readContract(wagmiConfig, { chainId, address: token, abi: NONCES_ABI, functionName: "nonces", args: [buyer] });
      setStep({ step: "signing", text: "Sign the token permit in your wallet (1 of 2). It costs no gas." });
      const typed = permitTypedData(voucher, buyer, offer, nonce);
      const { v, r, s, yParity } = parseSignature(await signTypedData(wagmiConfig, { account: buyer, ...typed }));
      permit = { value: typed.message.value.toString(), deadline: typed.message.deadline.toString(), v: Number(v ?? BigInt(27 + yParity)), r, s };
    }
    setStep({
      step: "signing",
      text: permit ? "Sign the purchase in your wallet (2 of 2). It costs no gas." : "Sign the purchase in your wallet. It costs no gas.",
    });
    const intent = purchaseIntentTypedData(voucher, buyer);
    const signature = await signTypedData(wagmiConfig, { account: buyer, ...intent });
    return { voucher, ...(permit ? { permit } : {}), intent: { deadline: intent.message.deadline.toString(), signature } };
  }

  async function buy() {
    const buyer = connection.address;
    if (!buyer || quantity === null) return;
    setStep({ step: "preparing" });
    try {
      const shortfall = await tokenShortfall();
      if (shortfall) {
        setStep({ step: "failed", message: shortfall });
        return;
      }
      const current = session ?? (await signIn(raffle.raffle.chainId));
      const voucher = await api.voucher(current.token, raffle.raffle.id, quantity);
      const body = await sign(voucher, buyer);
      setStep({ step: "preparing" });
      const request = await api.gaslessPurchase(current.token, body);
      setStep({ step: "submitted", id: request.id });
    } catch (error) {
      const already = duplicateRequestId(error);
      if (already) {
        setStep({ step: "submitted", id: already });
        return;
      }
      if ((error as { code?: string })?.code === "sessionRequired") forget();
      setStep({ step: "failed", message: explain(error) });
    }
  }

  return (
    <div className="gasless">
      <button
        type="button"
        className="primary"
        disabled={disabled || busy || quantity === null}
        aria-describedby="gasless-help"
        onClick={() => void buy()}
      >
        Buy without gas
      </button>
      <p id="gasless-help" className="hint">
        {offer.method === "authorization"
          ? "One signature in your wallet, no ETH needed: the organiser pays the network fee."
          : "Your wallet asks for two signatures: a permit for the token, then the purchase. No ETH needed: the organiser pays the network fee."}
      </p>
      {step.step === "preparing" && <p role="status">Preparing your purchase…</p>}
      {step.step === "signing" && <p role="status">{step.text}</p>}
      {step.step === "submitted" && <GaslessStatus key={step.id} id={step.id} />}
      {step.step === "failed" && (
        <p role="alert" className="error">
          {step.message}
        </p>
      )}
    </div>
  );
}
