import { Signature, type Signer, type TypedDataDomain, type TypedDataField } from "ethers";

import { PURCHASE_TYPES, exchangeDomain } from "./eip712";
import { purchaseVoucherDigest, type PurchaseVoucher } from "./voucher";

/**
 * The typed data a buyer signs to buy without gas (docs/contracts.md "Gasless purchases"). Two ways, by what the
 * price token supports:
 * - ERC-3009: one `ReceiveWithAuthorization` on the token's domain, `to` the Exchange, `value` the price, `nonce` the
 *   purchase voucher's EIP-712 digest (`gaslessPurchaseNonce`), submitted with `purchaseRaffleWithAuthorization`;
 * - EIP-2612: a `Permit` for the Exchange on the token's domain and a `PurchaseIntent` on the Exchange's domain,
 *   submitted with `purchaseRaffleWithPermit`.
 */

/** ERC-3009's authorization fields (the EIP's type strings: `TransferWithAuthorization` has the same fields). */
const AUTHORIZATION_FIELDS: TypedDataField[] = [
  { name: "from", type: "address" },
  { name: "to", type: "address" },
  { name: "value", type: "uint256" },
  { name: "validAfter", type: "uint256" },
  { name: "validBefore", type: "uint256" },
  { name: "nonce", type: "bytes32" },
];
export const RECEIVE_WITH_AUTHORIZATION_TYPES: Record<string, TypedDataField[]> = { ReceiveWithAuthorization: AUTHORIZATION_FIELDS };
export const TRANSFER_WITH_AUTHORIZATION_TYPES: Record<string, TypedDataField[]> = { TransferWithAuthorization: AUTHORIZATION_FIELDS };
export const CANCEL_AUTHORIZATION_TYPES: Record<string, TypedDataField[]> = {
  CancelAuthorization: [
    { name: "authorizer", type: "address" },
    { name: "nonce", type: "bytes32" },
  ],
};

export const PERMIT_TYPES: Record<string, TypedDataField[]> = {
  Permit: [
    { name: "owner", type: "address" },
    { name: "spender", type: "address" },
    { name: "value", type: "uint256" },
    { name: "nonce", type: "uint256" },
    { name: "deadline", type: "uint256" },
  ],
};

/** The buyer's consent to one purchase on the Exchange's domain: the voucher's fields with the buyer, plus a deadline. */
export const PURCHASE_INTENT_PRIMARY_TYPE = "PurchaseIntent";
export const PURCHASE_INTENT_TYPES: Record<string, TypedDataField[]> = {
  PurchaseIntent: [
    { name: "buyer", type: "address" },
    { name: "params", type: "Params" },
    { name: "item", type: "Asset" },
    { name: "price", type: "Asset" },
    { name: "deadline", type: "uint256" },
  ],
  Asset: PURCHASE_TYPES.Asset,
  Params: PURCHASE_TYPES.Params,
};

/** The encoded type string hashed into the Exchange's PURCHASE_INTENT_TYPEHASH. */
export const PURCHASE_INTENT_TYPE_STRING =
  "PurchaseIntent(address buyer,Params params,Asset item,Asset price,uint256 deadline)" +
  "Asset(uint256 tokenType,address token,uint256 tokenId,uint256 amount)" +
  "Params(uint256 externalId,uint256 expiresAt,bytes32 nonce,bytes32 extra,address receiver,address referrer)";

/** A token's EIP-712 domain: its `name()`, a version the token fixes ("1" for the demo token, "2" for USDC). */
export function tokenDomain(name: string, version: string, chainId: bigint | number, token: string): TypedDataDomain {
  return { name, version, chainId: BigInt(chainId), verifyingContract: token };
}

/** Where a gasless purchase is made: the chain and Exchange, the purchase voucher (`account` is the buyer). */
export interface GaslessPurchase {
  chainId: bigint | number;
  exchange: string;
  voucher: PurchaseVoucher;
}

/** The ERC-3009 nonce that binds an authorization to exactly this purchase: the voucher's EIP-712 digest. */
export function gaslessPurchaseNonce(purchase: GaslessPurchase): string {
  return purchaseVoucherDigest(purchase.chainId, purchase.exchange, purchase.voucher);
}

/** `purchaseRaffleWithAuthorization`'s last argument. */
export interface ReceiveAuthorizationArgs {
  from: string;
  validAfter: bigint;
  validBefore: bigint;
  signature: string;
}

/**
 * The buyer's one signature of an ERC-3009 purchase, valid until `validBefore` (unix seconds). `key` signs for the
 * voucher's account: its own key, or for an ERC-1271 wallet the key the wallet accepts.
 */
export async function signPurchaseAuthorization(
  key: Signer,
  token: TypedDataDomain,
  purchase: GaslessPurchase,
  validBefore: bigint,
  validAfter = 0n,
): Promise<ReceiveAuthorizationArgs> {
  const message = {
    from: purchase.voucher.account,
    to: purchase.exchange,
    value: purchase.voucher.price.amount,
    validAfter,
    validBefore,
    nonce: gaslessPurchaseNonce(purchase),
  };
  const signature = await key.signTypedData(token, RECEIVE_WITH_AUTHORIZATION_TYPES, message);
  return { from: message.from, validAfter, validBefore, signature };
}

/** `purchaseRaffleWithPermit`'s intent argument. */
export interface PurchaseIntentArgs {
  buyer: string;
  deadline: bigint;
  signature: string;
}

/** The buyer's purchase intent, valid until `deadline` (unix seconds), signed by `key` as above. */
export async function signPurchaseIntent(key: Signer, purchase: GaslessPurchase, deadline: bigint): Promise<PurchaseIntentArgs> {
  const { account, params, item, price } = purchase.voucher;
  const signature = await key.signTypedData(exchangeDomain(purchase.chainId, purchase.exchange), PURCHASE_INTENT_TYPES, {
    buyer: account,
    params,
    item,
    price,
    deadline,
  });
  return { buyer: account, deadline, signature };
}

/** `purchaseRaffleWithPermit`'s permit argument; `value` 0 means no permit (the buyer already approved). */
export interface PermitSignatureArgs {
  value: bigint;
  deadline: bigint;
  v: number;
  r: string;
  s: string;
}

export const NO_PERMIT: PermitSignatureArgs = { value: 0n, deadline: 0n, v: 0, r: `0x${"00".repeat(32)}`, s: `0x${"00".repeat(32)}` };

/**
 * An EIP-2612 permit of `permit.owner`, signed by `key` (the owner's, or for an ERC-1271 wallet the key the wallet
 * accepts); `nonce` is the token's `nonces(owner)` when the permit will be applied.
 */
export async function signPermit(
  key: Signer,
  token: TypedDataDomain,
  permit: { owner: string; spender: string; value: bigint; nonce: bigint; deadline: bigint },
): Promise<PermitSignatureArgs> {
  const signature = await key.signTypedData(token, PERMIT_TYPES, permit);
  const { v, r, s } = Signature.from(signature);
  return { value: permit.value, deadline: permit.deadline, v, r, s };
}

/** A ticket as `claimPrizesBySig` / `refundTicketsBySig` take it. */
export interface TicketRefArgs {
  roundId: bigint;
  ticketId: bigint;
}

const TICKET_REF_FIELDS: TypedDataField[] = [
  { name: "roundId", type: "uint256" },
  { name: "ticketId", type: "uint256" },
];
const TICKET_INTENT_FIELDS: TypedDataField[] = [
  { name: "raffle", type: "address" },
  { name: "holder", type: "address" },
  { name: "tickets", type: "TicketRef[]" },
  { name: "deadline", type: "uint256" },
];

/** The holder's consent, on the Exchange's domain, to a relayed `claimPrizesBySig` of these tickets. */
export const CLAIM_INTENT_TYPES: Record<string, TypedDataField[]> = { ClaimIntent: TICKET_INTENT_FIELDS, TicketRef: TICKET_REF_FIELDS };
/** The same for `refundTicketsBySig`. */
export const REFUND_INTENT_TYPES: Record<string, TypedDataField[]> = { RefundIntent: TICKET_INTENT_FIELDS, TicketRef: TICKET_REF_FIELDS };

/** What a holder signs to have its tickets claimed or refunded by a relayer; the prize or refund goes to `holder`. */
export interface TicketIntent {
  chainId: bigint | number;
  exchange: string;
  raffle: string;
  holder: string;
  tickets: TicketRefArgs[];
  deadline: bigint;
}

function signTicketIntent(key: Signer, types: Record<string, TypedDataField[]>, intent: TicketIntent): Promise<string> {
  const { raffle, holder, tickets, deadline } = intent;
  return key.signTypedData(exchangeDomain(intent.chainId, intent.exchange), types, { raffle, holder, tickets, deadline });
}

/** The holder's ClaimIntent signature, by `key` (its own, or the key its ERC-1271 wallet accepts). */
export function signClaimIntent(key: Signer, intent: TicketIntent): Promise<string> {
  return signTicketIntent(key, CLAIM_INTENT_TYPES, intent);
}

/** The holder's RefundIntent signature, as signClaimIntent. */
export function signRefundIntent(key: Signer, intent: TicketIntent): Promise<string> {
  return signTicketIntent(key, REFUND_INTENT_TYPES, intent);
}
