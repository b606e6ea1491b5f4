import { Wallet, ZeroAddress, parseUnits, type HDNodeWallet } from "ethers";
import {
  Exchange__factory,
  LOCAL_DEV_KEYS,
  NonceSequence,
  RAFFLE_PURCHASE_EXTRA,
  TestToken__factory,
  TokenType,
  signPurchaseAuthorization,
  signPurchaseVoucher,
  tokenDomain,
  type AssetStruct,
  type PurchaseVoucher,
} from "@raffle/chain";
import type { TestRaffle, TestWorld } from "@raffle/chain/testing";

import type { RelayJob } from "../../src/relayer/relay-mailbox";

const exchangeInterface = Exchange__factory.createInterface();
const nonces = new NonceSequence();
let jobCount = 0;

export interface SignedPurchase {
  job: Omit<RelayJob, "attempts" | "leaseExpiresAt">;
  buyer: HDNodeWallet;
  voucher: PurchaseVoucher;
  quantity: bigint;
}

/** A buyer holding the world's token and not one wei of ETH. */
export async function fundedBuyer(world: TestWorld, amount = parseUnits("100", 18)): Promise<HDNodeWallet> {
  const buyer = Wallet.createRandom();
  await (await TestToken__factory.connect(world.token, world.admin).mint(buyer.address, amount)).wait();
  return buyer;
}

/**
 * A gasless ERC-3009 purchase as the API would queue it: a platform voucher for `buyer`, the buyer's one signature,
 * and the Exchange call (`purchaseRaffleWithAuthorization`) as the job's data; `notAfter` the earlier deadline.
 */
export async function signedPurchase(
  world: TestWorld,
  raffle: TestRaffle,
  buyer: HDNodeWallet,
  options: { quantity?: bigint; lifetimeSeconds?: number } = {},
): Promise<SignedPurchase> {
  const quantity = options.quantity ?? 1n;
  const now = (await world.provider.getBlock("latest"))!.timestamp;
  const notAfter = now + (options.lifetimeSeconds ?? 600);
  const price: AssetStruct = { ...raffle.price, amount: BigInt(raffle.price.amount) * quantity };
  const voucher: PurchaseVoucher = {
    account: buyer.address,
    params: {
      externalId: 1n,
      expiresAt: BigInt(notAfter),
      nonce: nonces.take(),
      extra: RAFFLE_PURCHASE_EXTRA,
      receiver: raffle.raffle,
      referrer: ZeroAddress,
    },
    item: { tokenType: TokenType.ERC721, token: raffle.ticket, tokenId: 0n, amount: quantity },
    price,
  };
  const { chainId, exchange } = world.deployment;
  const voucherSignature = await signPurchaseVoucher(new Wallet(LOCAL_DEV_KEYS.voucherSigner), chainId, exchange, voucher);
  const token = TestToken__factory.connect(world.token, world.provider);
  const authorization = await signPurchaseAuthorization(
    buyer,
    tokenDomain(await token.name(), "1", chainId, world.token),
    { chainId, exchange, voucher },
    BigInt(notAfter),
  );
  const data = exchangeInterface.encodeFunctionData("purchaseRaffleWithAuthorization", [
    voucher.params,
    voucher.item,
    voucher.price,
    voucherSignature,
    authorization,
  ]);
  jobCount += 1;
  const job = { id: `job-${jobCount}`, kind: "purchase" as const, chainId, to: exchange, data, notAfter };
  return { job, buyer, voucher, quantity };
}
