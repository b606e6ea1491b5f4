import { Wallet, ZeroAddress } from "ethers";
import {
  RAFFLE_PURCHASE_EXTRA,
  TokenType,
  gaslessPurchaseNonce,
  signClaimIntent,
  signPurchaseAuthorization,
  signPurchaseIntent,
  signRefundIntent,
  tokenDomain,
  type PurchaseVoucher,
} from "@raffle/chain";

import {
  MAX_UINT256,
  RELAY_MARGIN_SECONDS,
  TICKETS_BY_SIG_INTERFACE,
  authorizationCalldata,
  authorizationDigest,
  authorizationWindowProblem,
  failureReason,
  fitsUint256,
  leavesTimeToRelay,
  purchaseIntentDigest,
  recoverSigner,
  ticketIntentDigest,
  ticketsCalldata,
  voucherDigest,
} from "./gasless-rules";

const CHAIN_ID = 31337;
const EXCHANGE = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const TOKEN = "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0";
const RAFFLE = "0xa16E02E87b7454126E5E10d957A927A7F5B5d2be";
const buyer = new Wallet(`0x${"11".repeat(32)}`);
const other = new Wallet(`0x${"22".repeat(32)}`);

const voucher: PurchaseVoucher = {
  account: buyer.address,
  params: {
    externalId: 7n,
    expiresAt: 1_900_000_000n,
    nonce: `0x${"ab".repeat(32)}`,
    extra: RAFFLE_PURCHASE_EXTRA,
    receiver: RAFFLE,
    referrer: ZeroAddress,
  },
  item: { tokenType: TokenType.ERC721, token: "0xB7A5bd0345EF1Cc5E66bf61BdeC17D2461fBd968", tokenId: 0n, amount: 3n },
  price: { tokenType: TokenType.ERC20, token: TOKEN, tokenId: 0n, amount: 30n * 10n ** 18n },
};
const domain = tokenDomain("Demo Gold", "1", CHAIN_ID, TOKEN);
const purchase = { chainId: CHAIN_ID, exchange: EXCHANGE, voucher };

describe("gasless rules: what the buyer's and holder's signatures cover", () => {
  it("recovers the buyer from the ERC-3009 authorization the chain helpers sign, bound to this voucher's digest", async () => {
    const signed = await signPurchaseAuthorization(buyer, domain, purchase, 1_900_000_000n);
    expect(voucherDigest(CHAIN_ID, EXCHANGE, voucher)).toBe(gaslessPurchaseNonce(purchase));
    const message = { from: buyer.address, to: EXCHANGE, value: voucher.price.amount, validAfter: 0n, validBefore: 1_900_000_000n };
    const digest = authorizationDigest(domain, { ...message, nonce: voucherDigest(CHAIN_ID, EXCHANGE, voucher) });
    expect(recoverSigner(digest, signed.signature)).toBe(buyer.address);
    // One more ticket, another price or another token domain: another digest, so the signature names someone else.
    const more = { ...voucher, item: { ...voucher.item, amount: 4n } };
    expect(recoverSigner(authorizationDigest(domain, { ...message, nonce: voucherDigest(CHAIN_ID, EXCHANGE, more) }), signed.signature)).not.toBe(
      buyer.address,
    );
    expect(
      recoverSigner(authorizationDigest(domain, { ...message, value: 1n, nonce: voucherDigest(CHAIN_ID, EXCHANGE, voucher) }), signed.signature),
    ).not.toBe(buyer.address);
    const usdc = tokenDomain("USD Coin", "2", CHAIN_ID, TOKEN);
    expect(recoverSigner(authorizationDigest(usdc, { ...message, nonce: voucherDigest(CHAIN_ID, EXCHANGE, voucher) }), signed.signature)).not.toBe(
      buyer.address,
    );
  });

  it("tells a purchase intent from an authorization: the same key, another purpose, another digest", async () => {
    const intent = await signPurchaseIntent(buyer, purchase, 1_900_000_000n);
    expect(recoverSigner(purchaseIntentDigest(CHAIN_ID, EXCHANGE, voucher, 1_900_000_000n), intent.signature)).toBe(buyer.address);
    const message = { from: buyer.address, to: EXCHANGE, value: voucher.price.amount, validAfter: 0n, validBefore: 1_900_000_000n };
    const asAuthorization = authorizationDigest(domain, { ...message, nonce: voucherDigest(CHAIN_ID, EXCHANGE, voucher) });
    expect(recoverSigner(asAuthorization, intent.signature)).not.toBe(buyer.address);
  });

  it("binds a claim intent to its kind, holder, tickets and deadline", async () => {
    const tickets = [{ roundId: 2n, ticketId: 12n }];
    const intent = { chainId: CHAIN_ID, exchange: EXCHANGE, raffle: RAFFLE, holder: buyer.address, tickets, deadline: 1_900_000_000n };
    const claim = (await signClaimIntent(buyer, intent, intent.deadline)).signature;
    const refund = (await signRefundIntent(buyer, intent, intent.deadline)).signature;
    const digest = ticketIntentDigest("claim", CHAIN_ID, EXCHANGE, intent);
    expect(recoverSigner(digest, claim)).toBe(buyer.address);
    expect(recoverSigner(digest, refund)).not.toBe(buyer.address);
    expect(recoverSigner(ticketIntentDigest("claim", CHAIN_ID, EXCHANGE, { ...intent, tickets: [{ roundId: 2n, ticketId: 13n }] }), claim)).not.toBe(
      buyer.address,
    );
    expect(recoverSigner(ticketIntentDigest("claim", CHAIN_ID, EXCHANGE, { ...intent, holder: other.address }), claim)).not.toBe(buyer.address);
    expect(recoverSigner(ticketIntentDigest("refund", CHAIN_ID, EXCHANGE, intent), refund)).toBe(buyer.address);
  });

  it("recovers nobody from a signature of the wrong length or shape, without throwing", () => {
    const digest = `0x${"cd".repeat(32)}`;
    expect(recoverSigner(digest, "0x")).toBeNull();
    expect(recoverSigner(digest, `0x${"ab".repeat(64)}`)).toBeNull();
    expect(recoverSigner(digest, `0x${"00".repeat(65)}`)).toBeNull();
    expect(recoverSigner(digest, `0x${"ab".repeat(66)}`)).toBeNull();
  });
});

describe("gasless rules: calldata, windows, limits and sentences", () => {
  it("encodes the Exchange calls the relayer sends, and the holder's claim as claimPrizesBySig's signature string says", () => {
    const data = authorizationCalldata(voucher, `0x${"ee".repeat(65)}`, { validAfter: 0n, validBefore: 5n, signature: `0x${"ff".repeat(65)}` });
    expect(data.startsWith("0x")).toBe(true);
    const tickets = [
      { roundId: 2n, ticketId: 12n },
      { roundId: 2n, ticketId: 13n },
    ];
    const claim = ticketsCalldata("claim", { raffle: RAFFLE, holder: buyer.address, tickets, deadline: 9n, signature: "0x1234" });
    const decoded = TICKETS_BY_SIG_INTERFACE.decodeFunctionData("claimPrizesBySig", claim);
    expect(decoded.raffle).toBe(RAFFLE);
    expect(decoded.holder).toBe(buyer.address);
    expect(decoded.tickets.map((ticket: { ticketId: bigint }) => ticket.ticketId)).toEqual([12n, 13n]);
    expect(decoded.deadline).toBe(9n);
    const refund = ticketsCalldata("refund", { raffle: RAFFLE, holder: buyer.address, tickets, deadline: 9n, signature: "0x1234" });
    expect(refund.slice(0, 10)).toBe(TICKETS_BY_SIG_INTERFACE.getFunction("refundTicketsBySig")!.selector);
  });

  it("wants an authorization valid from now until a relayer has had its margin", () => {
    const now = 1_800_000_000;
    expect(authorizationWindowProblem(0n, BigInt(now + 3600), now)).toBeNull();
    expect(authorizationWindowProblem(BigInt(now + 1), BigInt(now + 3600), now)).toBe("validAfter is in the future");
    expect(authorizationWindowProblem(0n, BigInt(now), now)).toBe("validBefore has passed");
    expect(authorizationWindowProblem(0n, BigInt(now + RELAY_MARGIN_SECONDS - 1), now)).toContain("less than");
    expect(leavesTimeToRelay(now + RELAY_MARGIN_SECONDS, now)).toBe(true);
    expect(leavesTimeToRelay(now + RELAY_MARGIN_SECONDS - 1, now)).toBe(false);
  });

  it("keeps integers within uint256", () => {
    expect(fitsUint256(MAX_UINT256.toString())).toBe(true);
    expect(fitsUint256((MAX_UINT256 + 1n).toString())).toBe(false);
  });

  it("says what failed in a sentence a player understands, and that nothing was lost", () => {
    expect(failureReason("purchase", "voucherExpired")).toBe("Your purchase could not be sent before it expired; your tokens did not move.");
    expect(failureReason("purchase", "someRevertNobodyNamed")).toBe("Your purchase could not be completed; your tokens did not move.");
    expect(failureReason("purchase", null)).toBe("Your purchase could not be completed; your tokens did not move.");
    expect(failureReason("refund", "rafflePaused")).toBe(
      "Your refund could not go through: the raffle is paused; your tickets are unchanged; you can ask for the refund again.",
    );
    // A code never leaks into the sentence as raw text.
    expect(failureReason("claim", "<script>")).not.toContain("<script>");
  });
});
