import { Signature, TypedDataEncoder, Wallet, type TypedDataField } from "ethers";
import {
  exchangeDomain as chainExchangeDomain,
  gaslessPurchaseNonce,
  signPermit,
  signPurchaseAuthorization,
  signPurchaseIntent,
  tokenDomain as chainTokenDomain,
} from "@raffle/chain";
import { hashTypedData, recoverTypedDataAddress } from "viem";
import { privateKeyToAccount } from "viem/accounts";

import { ApiError, type GaslessRequest, type PlayerVoucher } from "../src/lib/api";
import {
  authorizationTypedData,
  claimIntentTypedData,
  permitTypedData,
  refundIntentTypedData,
  purchaseIntentTypedData,
  purchaseNonce,
} from "../src/lib/gasless";
import { duplicateRequestId, gaslessStateText } from "../src/lib/gasless-state";
import { explain } from "../src/lib/messages";

/**
 * The page's typed data for buying, claiming and refunding without gas, against libs/chain's (ethers, the reference the
 * contract tests sign with): a page that signed another digest than the Exchange and the token check fails here.
 */
const BUYER_KEY = "0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba";
const buyer = new Wallet(BUYER_KEY);
const account = privateKeyToAccount(BUYER_KEY);
const EXCHANGE = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const TOKEN = "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512";
const TICKET = "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0";
const RAFFLE = "0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9";

const voucher: PlayerVoucher = {
  nonce: `0x${"2c".repeat(32)}`,
  signature: `0x${"11".repeat(65)}`,
  expiresAt: 1_900_000_000,
  params: {
    externalId: "7",
    expiresAt: "1900000000",
    nonce: `0x${"2c".repeat(32)}`,
    extra: "0x3078000000000000000000000000000000000000000000000000000000000000",
    receiver: RAFFLE,
    referrer: "0x0000000000000000000000000000000000000000",
  },
  item: { tokenType: 2, token: TICKET, tokenId: "0", amount: "5" },
  price: { tokenType: 1, token: TOKEN, tokenId: "0", amount: "45000000000000000000" },
  value: "0",
  chainId: 31337,
  exchange: EXCHANGE,
} as unknown as PlayerVoucher;

const chainVoucher = {
  account: buyer.address,
  params: voucher.params,
  item: voucher.item,
  price: voucher.price,
} as unknown as Parameters<typeof gaslessPurchaseNonce>[0]["voucher"];
const purchase = { chainId: 31337, exchange: EXCHANGE, voucher: chainVoucher };
const offer = { method: "authorization" as const, tokenName: "Demo Gold", tokenVersion: "1" };

describe("the page's gasless typed data, against libs/chain", () => {
  it("binds the ERC-3009 nonce to the voucher's EIP-712 digest, and to this buyer only", () => {
    expect(purchaseNonce(voucher, account.address)).toBe(gaslessPurchaseNonce(purchase));
    const other = new Wallet(`0x${"42".repeat(32)}`);
    expect(purchaseNonce(voucher, other.address as `0x${string}`)).not.toBe(gaslessPurchaseNonce(purchase));
    expect(purchaseNonce({ ...voucher, chainId: 1 }, account.address)).not.toBe(gaslessPurchaseNonce(purchase));
  });

  it("signs the same ReceiveWithAuthorization as signPurchaseAuthorization", async () => {
    const typed = authorizationTypedData(voucher, account.address, offer);
    const fromPage = await account.signTypedData(typed);
    const domain = chainTokenDomain("Demo Gold", "1", 31337, TOKEN);
    const reference = await signPurchaseAuthorization(buyer, domain, purchase, BigInt(voucher.expiresAt));
    expect(fromPage).toBe(reference.signature);
    expect(typed.message.to).toBe(EXCHANGE);
    expect(typed.message.value).toBe(45n * 10n ** 18n);
  });

  it("signs the same permit and purchase intent as signPermit and signPurchaseIntent", async () => {
    const permit = permitTypedData(voucher, account.address, { ...offer, method: "permit" }, 3n);
    const pageSignature = Signature.from(await account.signTypedData(permit));
    const reference = await signPermit(buyer, chainTokenDomain("Demo Gold", "1", 31337, TOKEN), {
      owner: buyer.address,
      spender: EXCHANGE,
      value: 45n * 10n ** 18n,
      nonce: 3n,
      deadline: BigInt(voucher.expiresAt),
    });
    expect([pageSignature.v, pageSignature.r, pageSignature.s]).toEqual([reference.v, reference.r, reference.s]);

    const intent = await account.signTypedData(purchaseIntentTypedData(voucher, account.address));
    expect(intent).toBe((await signPurchaseIntent(buyer, purchase, BigInt(voucher.expiresAt))).signature);
  });

  it("hashes a ClaimIntent and a RefundIntent as the interface's type strings, on the Exchange's domain", async () => {
    const ticketRef: TypedDataField[] = [
      { name: "roundId", type: "uint256" },
      { name: "ticketId", type: "uint256" },
    ];
    const fields: TypedDataField[] = [
      { name: "raffle", type: "address" },
      { name: "holder", type: "address" },
      { name: "tickets", type: "TicketRef[]" },
      { name: "deadline", type: "uint256" },
    ];
    const tickets = [
      { roundId: "1", ticketId: "3" },
      { roundId: "2", ticketId: "9" },
    ];
    const place = { chainId: 31337, exchange: EXCHANGE, raffle: RAFFLE };
    const check = async (primary: "ClaimIntent" | "RefundIntent", digest: string, recovered: string) => {
      const types = { [primary]: fields, TicketRef: ticketRef };
      expect(TypedDataEncoder.from(types).encodeType(primary)).toBe(
        `${primary}(address raffle,address holder,TicketRef[] tickets,uint256 deadline)TicketRef(uint256 roundId,uint256 ticketId)`,
      );
      const reference = TypedDataEncoder.hash(chainExchangeDomain(31337, EXCHANGE), types, {
        raffle: RAFFLE,
        holder: buyer.address,
        tickets,
        deadline: 1_900_000_000n,
      });
      expect(digest).toBe(reference);
      expect(recovered).toBe(account.address);
    };
    const claim = claimIntentTypedData(place, account.address, tickets, 1_900_000_000n);
    const refund = refundIntentTypedData(place, account.address, tickets, 1_900_000_000n);
    await check("ClaimIntent", hashTypedData(claim), await recoverTypedDataAddress({ ...claim, signature: await account.signTypedData(claim) }));
    await check("RefundIntent", hashTypedData(refund), await recoverTypedDataAddress({ ...refund, signature: await account.signTypedData(refund) }));
    // A claim signature can never be replayed as a refund: the digests differ.
    expect(hashTypedData(claim)).not.toBe(hashTypedData(refund));
  });
});

describe("a gasless request's state, in sentences", () => {
  const request: GaslessRequest = {
    id: "4d2b8f6e-54a3-4a8e-9f3c-1d2e3f4a5b6c",
    kind: "purchase",
    state: "queued",
    chainId: 31337,
    contractId: 1,
    account: buyer.address,
    quantity: 5,
    txHash: null,
    ticketIds: [],
    failureCode: null,
    failureReason: null,
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
  };

  it("says each state of a purchase", () => {
    expect(gaslessStateText(request)).toMatch(/^Your purchase is on its way/);
    expect(gaslessStateText({ ...request, state: "sent", txHash: "0xabc" })).toMatch(/sent to the network/);
    expect(gaslessStateText({ ...request, state: "mined", ticketIds: ["11", "12", "13", "14", "15"] })).toBe(
      "5 tickets bought without gas! Ticket #11, #12, #13, #14, #15. They are in My tickets.",
    );
    expect(gaslessStateText({ ...request, quantity: 1, state: "mined", ticketIds: ["7"] })).toBe(
      "Ticket bought without gas! Ticket #7. It is in My tickets.",
    );
  });

  it("shows the API's failure sentence, and a sentence of its own when the API gave none", () => {
    const reason = "The purchase offer expired before the organiser could send it. Your tokens did not move.";
    expect(gaslessStateText({ ...request, state: "failed", failureCode: "voucherExpired", failureReason: reason })).toBe(reason);
    expect(gaslessStateText({ ...request, state: "failed", failureCode: "x" })).toMatch(/Your tokens did not move/);
    expect(gaslessStateText({ ...request, kind: "claim", quantity: null, state: "mined" })).toMatch(/^Prize claimed without gas/);
    expect(gaslessStateText({ ...request, kind: "refund", quantity: null, state: "queued" })).toMatch(/^Your refund is on its way/);
  });

  it("follows the request a gaslessDuplicate names, and nothing else", () => {
    expect(duplicateRequestId(new ApiError(409, "gaslessDuplicate", "already queued", [], { existingId: request.id }))).toBe(request.id);
    expect(duplicateRequestId(new ApiError(409, "gaslessDuplicate", "already queued", [], { existingId: 42 }))).toBeNull();
    expect(duplicateRequestId(new ApiError(400, "voucherExpired", "expired", [], { existingId: request.id }))).toBeNull();
    expect(duplicateRequestId(new Error("boom"))).toBeNull();
  });

  it("says what to do when a wallet signs typed data only for the network it is on", () => {
    const refusal = Object.assign(new Error('Provided chainId "31337" must match the active chainId "1"'), { code: -32603 });
    expect(explain(refusal)).toBe(
      "Your wallet signs only for the network it is on. Switch it to this raffle's network and press the button again: it still costs no gas.",
    );
  });

  it("turns every submission refusal of the interface into a sentence, never the generic one", () => {
    const codes = [
      "voucherUnknown",
      "voucherExpired",
      "buyerSignatureInvalid",
      "authorizationMismatch",
      "insufficientBalance",
      "gaslessUnavailable",
      "gaslessBudgetExhausted",
      "gaslessPlayerLimitReached",
      "roundClosed",
      "gaslessDuplicate",
      "notTicketHolder",
    ];
    const generic = explain(new ApiError(400, "somethingElse", ""));
    for (const code of codes) expect(explain(new ApiError(400, code, "detail with internals"))).not.toBe(generic);
  });
});
