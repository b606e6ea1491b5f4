import { TypedDataEncoder, hexlify, type Interface, type TypedDataDomain } from "ethers";
import {
  CLAIM_INTENT_TYPES,
  Exchange__factory,
  PERMIT_TYPES,
  PURCHASE_INTENT_TYPES,
  PurchaseDigester,
  REFUND_INTENT_TYPES,
  encodePurchaseWithAuthorization,
  exchangeDomain,
  receiveAuthorizationDigest,
  recoverDigestSigner,
  type PurchaseVoucher,
} from "@raffle/chain";

import type { GaslessKind } from "./gasless.dto";

/**
 * The pure parts of the gasless mailbox (issue #52): what the buyer's and holder's signatures are over, the calldata
 * the relayer sends, how long a request must stay valid to be worth queuing, and the sentences a player reads.
 */

/** A request must stay valid this long after it is accepted: time for a relayer to lease, simulate, send and mine it. */
export const RELAY_MARGIN_SECONDS = 30;
/** A relayer's lease on a job: every claim call of the holder renews it. */
export const LEASE_SECONDS = 120;
/** A merchant's relayer counts as running while it claimed jobs this recently. */
export const RELAYER_ALIVE_SECONDS = 120;

/** ERC-1271's magic value: `isValidSignature.selector`. */
export const ERC1271_MAGIC = "0x1626ba7e";

const EXCHANGE_INTERFACE = Exchange__factory.createInterface();
/** The relayed purchase call's fragment, looked up once (a lookup by name parses the signature each call). */
const PURCHASE_WITH_PERMIT = EXCHANGE_INTERFACE.getFunction("purchaseRaffleWithPermit")!;
/** The same interface untyped: TypeChain's overloads take a function's name, not its fragment. */
const EXCHANGE_CALLS: Interface = EXCHANGE_INTERFACE;
/** The Exchange's holder-signed `claimPrizesBySig` / `refundTicketsBySig`, from the compiled contract. */
export const TICKETS_BY_SIG_INTERFACE = EXCHANGE_INTERFACE;

export interface TicketRef {
  roundId: bigint;
  ticketId: bigint;
}

/** One voucher digester per chain and Exchange (its domain separator and type hashes computed once). */
const digesters = new Map<string, PurchaseDigester>();

/**
 * The EIP-712 digest of a purchase voucher: what the API's key signed (and ERC-3009's nonce of the purchase), built
 * word by word by libs/chain's digester (held equal to ethers' encoder by its tests), not by ethers' generic encoder,
 * which cost the intake about a millisecond per call.
 */
export function voucherDigest(chainId: number, exchange: string, voucher: PurchaseVoucher): string {
  const key = `${chainId}:${exchange.toLowerCase()}`;
  let digester = digesters.get(key);
  if (!digester) {
    digester = new PurchaseDigester(chainId, exchange);
    digesters.set(key, digester);
  }
  return hexlify(digester.digest(voucher));
}

/**
 * The address that signed `digest` with a 65-byte signature, or null when none can be recovered or the chain would
 * refuse the signature (v other than 27/28, upper-half s). Native: ethers' JS recovery was most of the intake's CPU.
 */
export function recoverSigner(digest: string, signature: string): string | null {
  return recoverDigestSigner(digest, signature);
}

export function authorizationDigest(
  token: TypedDataDomain,
  message: { from: string; to: string; value: bigint; validAfter: bigint; validBefore: bigint; nonce: string },
): string {
  return receiveAuthorizationDigest(token, message);
}

export function purchaseIntentDigest(chainId: number, exchange: string, voucher: PurchaseVoucher, deadline: bigint): string {
  const { account, params, item, price } = voucher;
  return TypedDataEncoder.hash(exchangeDomain(chainId, exchange), PURCHASE_INTENT_TYPES, { buyer: account, params, item, price, deadline });
}

export function permitDigest(
  token: TypedDataDomain,
  permit: { owner: string; spender: string; value: bigint; nonce: bigint; deadline: bigint },
): string {
  return TypedDataEncoder.hash(token, PERMIT_TYPES, permit);
}

export function ticketIntentDigest(
  kind: "claim" | "refund",
  chainId: number,
  exchange: string,
  intent: { raffle: string; holder: string; tickets: TicketRef[]; deadline: bigint },
): string {
  return TypedDataEncoder.hash(exchangeDomain(chainId, exchange), kind === "claim" ? CLAIM_INTENT_TYPES : REFUND_INTENT_TYPES, intent);
}

export function authorizationCalldata(
  voucher: PurchaseVoucher,
  voucherSignature: string,
  authorization: { validAfter: bigint; validBefore: bigint; signature: string },
): string {
  return encodePurchaseWithAuthorization(voucher, voucherSignature, authorization);
}

export const NO_PERMIT_ARGS = { value: 0n, deadline: 0n, v: 0, r: `0x${"00".repeat(32)}`, s: `0x${"00".repeat(32)}` };

export function permitCalldata(
  voucher: PurchaseVoucher,
  voucherSignature: string,
  intent: { deadline: bigint; signature: string },
  permit: { value: bigint; deadline: bigint; v: number; r: string; s: string } | null,
): string {
  return EXCHANGE_CALLS.encodeFunctionData(PURCHASE_WITH_PERMIT, [
    voucher.params,
    voucher.item,
    voucher.price,
    voucherSignature,
    { buyer: voucher.account, ...intent },
    permit ?? NO_PERMIT_ARGS,
  ]);
}

export function ticketsCalldata(
  kind: "claim" | "refund",
  intent: { raffle: string; holder: string; tickets: TicketRef[]; deadline: bigint; signature: string },
): string {
  const args: [string, TicketRef[], string, bigint, string] = [
    intent.raffle,
    intent.tickets.map(({ roundId, ticketId }) => ({ roundId, ticketId })),
    intent.holder,
    intent.deadline,
    intent.signature,
  ];
  return kind === "claim"
    ? TICKETS_BY_SIG_INTERFACE.encodeFunctionData("claimPrizesBySig", args)
    : TICKETS_BY_SIG_INTERFACE.encodeFunctionData("refundTicketsBySig", args);
}

/** Why an authorization's window does not cover relaying it now, or null when it does. */
export function authorizationWindowProblem(validAfter: bigint, validBefore: bigint, nowSeconds: number): string | null {
  if (validAfter > BigInt(nowSeconds)) return "validAfter is in the future";
  if (validBefore <= BigInt(nowSeconds)) return "validBefore has passed";
  if (validBefore < BigInt(nowSeconds + RELAY_MARGIN_SECONDS)) return `validBefore leaves less than ${RELAY_MARGIN_SECONDS} s to relay it`;
  return null;
}

/** Whether a deadline (unix seconds) leaves a relayer the time to submit. */
export function leavesTimeToRelay(deadline: bigint | number, nowSeconds: number): boolean {
  return BigInt(deadline) >= BigInt(nowSeconds + RELAY_MARGIN_SECONDS);
}

/** The largest uint256: a decimal string above it is refused before any encoding. */
export const MAX_UINT256 = (1n << 256n) - 1n;

export function fitsUint256(text: string): boolean {
  return BigInt(text) <= MAX_UINT256;
}

const WHAT: Record<GaslessKind, { done: string; safe: string }> = {
  purchase: { done: "Your purchase", safe: "your tokens did not move" },
  claim: { done: "Your prize claim", safe: "your tickets are unchanged; you can claim again" },
  refund: { done: "Your refund", safe: "your tickets are unchanged; you can ask for the refund again" },
};

/** What a failure code says to a player: one sentence, never the relayer's raw error. */
const FAILURE_SENTENCES: Record<string, (what: string) => string> = {
  voucherExpired: (what) => `${what} could not be sent before it expired`,
  signatureExpired: (what) => `${what} could not be sent before it expired`,
  intentExpired: (what) => `${what} could not be sent before it expired`,
  roundFull: (what) => `${what} came too late: the round sold out`,
  roundClosed: (what) => `${what} came too late: the round closed`,
  noActiveRound: (what) => `${what} came too late: the round closed`,
  walletLimitReached: (what) => `${what} would pass the round's tickets-per-wallet cap`,
  insufficientBalance: (what) => `${what} found too little of the price token in your wallet`,
  buyerSignatureInvalid: (what) => `${what} was refused: the signature no longer matched`,
  permitRefused: (what) => `${what} was refused: the token did not accept the permit`,
  nonceAlreadyUsed: (what) => `${what} was refused: its voucher was already used`,
  authorizationUsed: (what) => `${what} was refused: its authorization was already used or canceled`,
  rafflePaused: (what) => `${what} could not go through: the raffle is paused`,
  exchangePaused: (what) => `${what} could not go through: purchases are paused`,
  gaslessBudgetExhausted: (what) => `${what} could not be relayed: the merchant's gas budget for today is spent`,
  noPrizeToClaim: (what) => `${what} found no prize to pay`,
};

/** The sentence of a failed request: what failed, why when the code is known, and that nothing was lost. */
export function failureReason(kind: GaslessKind, code: string | null): string {
  const { done, safe } = WHAT[kind];
  const why = code ? FAILURE_SENTENCES[code] : undefined;
  return `${why ? why(done) : `${done} could not be completed`}; ${safe}.`;
}
