import { Signature, TypedDataEncoder, Wallet, ZeroAddress, id, verifyTypedData } from "ethers";

import { RAFFLE_PURCHASE_EXTRA, exchangeDomain } from "./eip712";
import {
  CLAIM_INTENT_TYPES,
  CLAIM_INTENT_TYPE_STRING,
  PERMIT_TYPES,
  PURCHASE_INTENT_TYPES,
  PURCHASE_INTENT_TYPE_STRING,
  RECEIVE_WITH_AUTHORIZATION_TYPES,
  REFUND_INTENT_TYPES,
  REFUND_INTENT_TYPE_STRING,
  gaslessPurchaseNonce,
  signPermit,
  signPurchaseAuthorization,
  signClaimIntent,
  signPurchaseIntent,
  signRefundIntent,
  tokenDomain,
  type GaslessPurchase,
  type GaslessSettlement,
} from "./gasless";
import { TokenType } from "./token-type";
import { purchaseVoucherDigest } from "./voucher";

const EXCHANGE = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const TOKEN = "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512";
const buyer = Wallet.createRandom();

function purchase(overrides: Partial<GaslessPurchase> = {}): GaslessPurchase {
  return {
    chainId: 31337n,
    exchange: EXCHANGE,
    voucher: {
      account: buyer.address,
      params: {
        externalId: 7n,
        expiresAt: 1_900_000_000n,
        nonce: id("nonce"),
        extra: RAFFLE_PURCHASE_EXTRA,
        receiver: Wallet.createRandom().address,
        referrer: ZeroAddress,
      },
      item: { tokenType: TokenType.ERC721, token: Wallet.createRandom().address, tokenId: 0n, amount: 5n },
      price: { tokenType: TokenType.ERC20, token: TOKEN, tokenId: 0n, amount: 50n * 10n ** 18n },
    },
    ...overrides,
  };
}

describe("gasless purchase typed data", () => {
  it("uses ERC-3009's and EIP-2612's type strings", () => {
    expect(TypedDataEncoder.from(RECEIVE_WITH_AUTHORIZATION_TYPES).encodeType("ReceiveWithAuthorization")).toBe(
      "ReceiveWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)",
    );
    expect(TypedDataEncoder.from(PERMIT_TYPES).encodeType("Permit")).toBe(
      "Permit(address owner,address spender,uint256 value,uint256 nonce,uint256 deadline)",
    );
    expect(TypedDataEncoder.from(PURCHASE_INTENT_TYPES).encodeType("PurchaseIntent")).toBe(PURCHASE_INTENT_TYPE_STRING);
  });

  it("binds the authorization nonce to the voucher's digest: every field, the Exchange and the chain change it", () => {
    const base = purchase();
    const nonce = gaslessPurchaseNonce(base);
    expect(nonce).toBe(purchaseVoucherDigest(31337n, EXCHANGE, base.voucher));
    const variants: GaslessPurchase[] = [
      purchase({ chainId: 1n }),
      purchase({ exchange: TOKEN }),
      { ...base, voucher: { ...base.voucher, account: Wallet.createRandom().address } },
      { ...base, voucher: { ...base.voucher, item: { ...base.voucher.item, amount: 6n } } },
      { ...base, voucher: { ...base.voucher, price: { ...base.voucher.price, amount: 1n } } },
      { ...base, voucher: { ...base.voucher, params: { ...base.voucher.params, receiver: TOKEN } } },
      { ...base, voucher: { ...base.voucher, params: { ...base.voucher.params, nonce: id("other") } } },
    ];
    for (const variant of variants) expect(gaslessPurchaseNonce(variant)).not.toBe(nonce);
  });

  it("signs the authorization, the intent and the permit so that they recover to the key", async () => {
    const domain = tokenDomain("Demo Gold", "1", 31337n, TOKEN);
    const bought = purchase();
    const authorization = await signPurchaseAuthorization(buyer, domain, bought, 1_900_000_000n);
    expect(authorization).toMatchObject({ from: buyer.address, validAfter: 0n, validBefore: 1_900_000_000n });
    const message = {
      from: buyer.address,
      to: EXCHANGE,
      value: bought.voucher.price.amount,
      validAfter: 0n,
      validBefore: 1_900_000_000n,
      nonce: gaslessPurchaseNonce(bought),
    };
    expect(verifyTypedData(domain, RECEIVE_WITH_AUTHORIZATION_TYPES, message, authorization.signature)).toBe(buyer.address);

    const intent = await signPurchaseIntent(buyer, bought, 1_900_000_000n);
    const { account, params, item, price } = bought.voucher;
    const intentMessage = { buyer: account, params, item, price, deadline: 1_900_000_000n };
    expect(verifyTypedData(exchangeDomain(31337n, EXCHANGE), PURCHASE_INTENT_TYPES, intentMessage, intent.signature)).toBe(buyer.address);

    const permit = await signPermit(buyer, domain, { owner: buyer.address, spender: EXCHANGE, value: 9n, nonce: 3n, deadline: 1_900_000_000n });
    const signature = Signature.from({ v: permit.v, r: permit.r, s: permit.s });
    const permitMessage = { owner: buyer.address, spender: EXCHANGE, value: 9n, nonce: 3n, deadline: 1_900_000_000n };
    expect(verifyTypedData(domain, PERMIT_TYPES, permitMessage, signature)).toBe(buyer.address);
  });
});

describe("gasless claim and refund typed data", () => {
  const holder = Wallet.createRandom();
  const settlement: GaslessSettlement = {
    chainId: 31337n,
    exchange: EXCHANGE,
    raffle: TOKEN,
    holder: holder.address,
    tickets: [
      { roundId: 1n, ticketId: 4n },
      { roundId: 2n, ticketId: 9n },
    ],
  };

  it("uses the Exchange's type strings, with the ticket list as an array of TicketRef", () => {
    expect(TypedDataEncoder.from(CLAIM_INTENT_TYPES).encodeType("ClaimIntent")).toBe(CLAIM_INTENT_TYPE_STRING);
    expect(TypedDataEncoder.from(REFUND_INTENT_TYPES).encodeType("RefundIntent")).toBe(REFUND_INTENT_TYPE_STRING);
    expect(CLAIM_INTENT_TYPE_STRING).toBe(
      "ClaimIntent(address raffle,address holder,TicketRef[] tickets,uint256 deadline)TicketRef(uint256 roundId,uint256 ticketId)",
    );
  });

  it("signs intents that recover to the holder, and a claim's signature is not a refund's", async () => {
    const domain = exchangeDomain(31337n, EXCHANGE);
    const message = { raffle: TOKEN, holder: holder.address, tickets: settlement.tickets, deadline: 1_900_000_000n };
    const claim = await signClaimIntent(holder, settlement, 1_900_000_000n);
    expect(claim).toMatchObject({ holder: holder.address, deadline: 1_900_000_000n });
    expect(verifyTypedData(domain, CLAIM_INTENT_TYPES, message, claim.signature)).toBe(holder.address);
    const refund = await signRefundIntent(holder, settlement, 1_900_000_000n);
    expect(verifyTypedData(domain, REFUND_INTENT_TYPES, message, refund.signature)).toBe(holder.address);
    expect(refund.signature).not.toBe(claim.signature);
    expect(verifyTypedData(domain, REFUND_INTENT_TYPES, message, claim.signature)).not.toBe(holder.address);
  });

  it("changes the digest with every field, the Exchange and the chain", () => {
    const digest = (s: GaslessSettlement, deadline = 1_900_000_000n) =>
      TypedDataEncoder.hash(exchangeDomain(s.chainId, s.exchange), CLAIM_INTENT_TYPES, {
        raffle: s.raffle,
        holder: s.holder,
        tickets: s.tickets,
        deadline,
      });
    const base = digest(settlement);
    const variants = [
      digest({ ...settlement, chainId: 1n }),
      digest({ ...settlement, exchange: TOKEN }),
      digest({ ...settlement, raffle: EXCHANGE }),
      digest({ ...settlement, holder: Wallet.createRandom().address }),
      digest({ ...settlement, tickets: settlement.tickets.slice(0, 1) }),
      digest({ ...settlement, tickets: [...settlement.tickets].reverse() }),
      digest(settlement, 1_900_000_001n),
    ];
    for (const variant of variants) expect(variant).not.toBe(base);
  });
});
