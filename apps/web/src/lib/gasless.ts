import { hashTypedData, type Address, type Hex, type TypedDataDomain } from "viem";

import type { PlayerVoucher } from "./api";

/**
 * What the player signs to buy, claim or refund without gas (docs/contracts.md "Gasless purchases"): the same typed
 * data as libs/chain's eip712.ts, voucher.ts and gasless.ts, in viem's form for the wallet. A spec checks every digest
 * here against libs/chain's, so the page can never sign something the Exchange would not accept.
 */

/** The Exchange's EIP-712 domain (libs/chain `exchangeDomain`). */
export function exchangeDomain(chainId: number, exchange: string): TypedDataDomain {
  return { name: "EXCHANGE", version: "1.0.0", chainId, verifyingContract: exchange as Address };
}

/** A token's EIP-712 domain: its name and version as the API read them (ERC-5267 `eip712Domain()`). */
export function tokenDomain(name: string, version: string, chainId: number, token: string): TypedDataDomain {
  return { name, version, chainId, verifyingContract: token as Address };
}

const ASSET = [
  { name: "tokenType", type: "uint256" },
  { name: "token", type: "address" },
  { name: "tokenId", type: "uint256" },
  { name: "amount", type: "uint256" },
] as const;
const PARAMS = [
  { name: "externalId", type: "uint256" },
  { name: "expiresAt", type: "uint256" },
  { name: "nonce", type: "bytes32" },
  { name: "extra", type: "bytes32" },
  { name: "receiver", type: "address" },
  { name: "referrer", type: "address" },
] as const;

/** The purchase voucher: its primary type is literally named `EIP712` (libs/chain `PURCHASE_TYPES`). */
export const VOUCHER_TYPES = {
  EIP712: [
    { name: "account", type: "address" },
    { name: "params", type: "Params" },
    { name: "item", type: "Asset" },
    { name: "price", type: "Asset" },
  ],
  Asset: ASSET,
  Params: PARAMS,
} as const;

export const RECEIVE_WITH_AUTHORIZATION_TYPES = {
  ReceiveWithAuthorization: [
    { name: "from", type: "address" },
    { name: "to", type: "address" },
    { name: "value", type: "uint256" },
    { name: "validAfter", type: "uint256" },
    { name: "validBefore", type: "uint256" },
    { name: "nonce", type: "bytes32" },
  ],
} as const;

export const PERMIT_TYPES = {
  Permit: [
    { name: "owner", type: "address" },
    { name: "spender", type: "address" },
    { name: "value", type: "uint256" },
    { name: "nonce", type: "uint256" },
    { name: "deadline", type: "uint256" },
  ],
} as const;

export const PURCHASE_INTENT_TYPES = {
  PurchaseIntent: [
    { name: "buyer", type: "address" },
    { name: "params", type: "Params" },
    { name: "item", type: "Asset" },
    { name: "price", type: "Asset" },
    { name: "deadline", type: "uint256" },
  ],
  Asset: ASSET,
  Params: PARAMS,
} as const;

const TICKET_REF = [
  { name: "roundId", type: "uint256" },
  { name: "ticketId", type: "uint256" },
] as const;
const HOLDER_INTENT = [
  { name: "raffle", type: "address" },
  { name: "holder", type: "address" },
  { name: "tickets", type: "TicketRef[]" },
  { name: "deadline", type: "uint256" },
] as const;
export const CLAIM_INTENT_TYPES = { ClaimIntent: HOLDER_INTENT, TicketRef: TICKET_REF } as const;
export const REFUND_INTENT_TYPES = { RefundIntent: HOLDER_INTENT, TicketRef: TICKET_REF } as const;

/** The voucher's signed content with `account` the buyer (the API signs it for the session's address). */
function voucherMessage(voucher: PlayerVoucher, buyer: Address) {
  const asset = (value: PlayerVoucher["price"]) => ({
    tokenType: BigInt(value.tokenType),
    token: value.token as Address,
    tokenId: BigInt(value.tokenId),
    amount: BigInt(value.amount),
  });
  return {
    account: buyer,
    params: {
      externalId: BigInt(voucher.params.externalId),
      expiresAt: BigInt(voucher.params.expiresAt),
      nonce: voucher.params.nonce as Hex,
      extra: voucher.params.extra as Hex,
      receiver: voucher.params.receiver as Address,
      referrer: voucher.params.referrer as Address,
    },
    item: asset(voucher.item),
    price: asset(voucher.price),
  };
}

/** The ERC-3009 nonce that binds the authorization to exactly this purchase: the voucher's EIP-712 digest. */
export function purchaseNonce(voucher: PlayerVoucher, buyer: Address): Hex {
  return hashTypedData({
    domain: exchangeDomain(voucher.chainId, voucher.exchange),
    types: VOUCHER_TYPES,
    primaryType: "EIP712",
    message: voucherMessage(voucher, buyer),
  });
}

/** What the token's gasless support lets the page ask for, from the raffle's `gasless` (null when not offered). */
export interface GaslessOffer {
  method: "authorization" | "permit";
  tokenName: string;
  tokenVersion: string;
}

/**
 * The one signature of an ERC-3009 purchase: ReceiveWithAuthorization on the token's domain, `to` the Exchange, the
 * price, valid until the voucher expires (the Exchange refuses the voucher after that anyway).
 */
export function authorizationTypedData(voucher: PlayerVoucher, buyer: Address, offer: GaslessOffer) {
  return {
    domain: tokenDomain(offer.tokenName, offer.tokenVersion, voucher.chainId, voucher.price.token),
    types: RECEIVE_WITH_AUTHORIZATION_TYPES,
    primaryType: "ReceiveWithAuthorization" as const,
    message: {
      from: buyer,
      to: voucher.exchange as Address,
      value: BigInt(voucher.price.amount),
      validAfter: 0n,
      validBefore: BigInt(voucher.expiresAt),
      nonce: purchaseNonce(voucher, buyer),
    },
  };
}

/** An EIP-2612 permit of exactly the price for the Exchange, at the token's current `nonces(buyer)`. */
export function permitTypedData(voucher: PlayerVoucher, buyer: Address, offer: GaslessOffer, nonce: bigint) {
  return {
    domain: tokenDomain(offer.tokenName, offer.tokenVersion, voucher.chainId, voucher.price.token),
    types: PERMIT_TYPES,
    primaryType: "Permit" as const,
    message: { owner: buyer, spender: voucher.exchange as Address, value: BigInt(voucher.price.amount), nonce, deadline: BigInt(voucher.expiresAt) },
  };
}

/** The buyer's consent to this purchase on the Exchange's domain (the permit path's second signature). */
export function purchaseIntentTypedData(voucher: PlayerVoucher, buyer: Address) {
  const { params, item, price } = voucherMessage(voucher, buyer);
  return {
    domain: exchangeDomain(voucher.chainId, voucher.exchange),
    types: PURCHASE_INTENT_TYPES,
    primaryType: "PurchaseIntent" as const,
    message: { buyer, params, item, price, deadline: BigInt(voucher.expiresAt) },
  };
}

export interface TicketRef {
  roundId: string;
  ticketId: string;
}

/** Where a holder's intent is checked: the raffle's chain and its Exchange (the domain), and the raffle. */
export interface HolderIntentPlace {
  chainId: number;
  exchange: string;
  raffle: string;
}

function holderIntentMessage(place: HolderIntentPlace, holder: Address, tickets: TicketRef[], deadline: bigint) {
  return {
    raffle: place.raffle as Address,
    holder,
    tickets: tickets.map((ticket) => ({ roundId: BigInt(ticket.roundId), ticketId: BigInt(ticket.ticketId) })),
    deadline,
  };
}

/** A holder's ClaimIntent on the Exchange's domain: these tickets' prizes of this raffle, paid to the holder. */
export function claimIntentTypedData(place: HolderIntentPlace, holder: Address, tickets: TicketRef[], deadline: bigint) {
  return {
    domain: exchangeDomain(place.chainId, place.exchange),
    types: CLAIM_INTENT_TYPES,
    primaryType: "ClaimIntent" as const,
    message: holderIntentMessage(place, holder, tickets, deadline),
  };
}

/** A holder's RefundIntent: these tickets' prices back to the holder. */
export function refundIntentTypedData(place: HolderIntentPlace, holder: Address, tickets: TicketRef[], deadline: bigint) {
  return {
    domain: exchangeDomain(place.chainId, place.exchange),
    types: REFUND_INTENT_TYPES,
    primaryType: "RefundIntent" as const,
    message: holderIntentMessage(place, holder, tickets, deadline),
  };
}

/** How long a claim or refund signature stays good: long enough for a relayer that is a few minutes behind. */
export const HOLDER_INTENT_SECONDS = 30 * 60;
