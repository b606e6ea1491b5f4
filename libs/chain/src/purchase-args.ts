import { ZeroAddress, getAddress } from "ethers";

import { RAFFLE_PURCHASE_EXTRA } from "./eip712";
import { TokenType, tokenTypeIndex } from "./token-type";

/** On-chain `Asset` (spec 2.10) as ethers takes it. */
export interface AssetStruct {
  tokenType: number;
  token: string;
  tokenId: bigint;
  amount: bigint;
}

/** On-chain purchase `Params` (spec 2.10). */
export interface PurchaseParamsStruct {
  externalId: bigint;
  expiresAt: bigint;
  nonce: string;
  extra: string;
  receiver: string;
  referrer: string;
}

/** The parts of a Round resource (spec 2.3) that a purchase needs. */
export interface RoundForPurchase {
  id: number;
  contract: { address: string };
  ticketContract: { address: string };
  price: {
    components: Array<{
      tokenType: string;
      amount: string;
      contract: { address: string };
      template?: { tokens?: Array<{ tokenId: string }> } | null;
    }>;
  };
}

/** The sign response (spec 2.8). */
export interface TicketSignatureForPurchase {
  nonce: string;
  signature: string;
  expiresAt: number | string;
}

export interface PurchaseArgs {
  params: PurchaseParamsStruct;
  item: AssetStruct;
  price: AssetStruct;
  signature: string;
  /** Native value to send with the transaction (rule 10). */
  value: bigint;
}

/**
 * Several tickets in one purchase (raffle v2): the quantity asked of the sign request and the total price the API
 * signed for it (the round's rules decide it: `priceOf(quantity)` on-chain), in the round's price token.
 */
export interface QuantityPrice {
  quantity: bigint;
  amount: bigint;
}

/**
 * Turns a Round resource and a sign response into the exact `purchaseRaffle` arguments and native value,
 * following spec 4.5 rule by rule. `referrer` must be the one named in the sign request (zero when omitted).
 * Without `several` it is one ticket at the round's price, the spec's mapping unchanged; with it, the item is
 * `several.quantity` tickets and the price (and the native value of a NATIVE price) is `several.amount`.
 */
export function buildPurchaseArgs(
  round: RoundForPurchase,
  ticketSignature: TicketSignatureForPurchase,
  referrer: string = ZeroAddress,
  several?: QuantityPrice,
): PurchaseArgs {
  const components = round.price.components;
  const first = components[0];
  if (first === undefined) throw new RangeError(`round ${round.id} has no price component`);

  const params: PurchaseParamsStruct = {
    externalId: BigInt(round.id), // rule 1
    expiresAt: BigInt(ticketSignature.expiresAt), // rule 2
    nonce: ticketSignature.nonce, // rule 3
    extra: RAFFLE_PURCHASE_EXTRA, // rule 4
    receiver: getAddress(round.contract.address), // rule 5
    referrer: getAddress(referrer), // rule 6
  };
  const item: AssetStruct = {
    tokenType: TokenType.ERC721, // rule 7
    token: getAddress(round.ticketContract.address),
    tokenId: 0n,
    amount: several?.quantity ?? 1n,
  };
  const price: AssetStruct = {
    tokenType: tokenTypeIndex(first.tokenType), // rule 8
    token: getAddress(first.contract.address),
    tokenId: BigInt(first.template?.tokens?.[0]?.tokenId ?? "0"),
    amount: several?.amount ?? BigInt(first.amount),
  };
  if (several && (several.quantity < 1n || components.length !== 1))
    throw new RangeError(`round ${round.id}: several tickets are bought at least one at a time, at a price of one component`);
  const value = several
    ? price.tokenType === TokenType.NATIVE
      ? price.amount
      : 0n
    : components // rule 10
        .filter((component) => component.tokenType === "NATIVE")
        .reduce((sum, component) => sum + BigInt(component.amount), 0n);

  return { params, item, price, signature: ticketSignature.signature, value }; // rule 9
}
