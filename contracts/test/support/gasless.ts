import { ethers } from "hardhat";
import type { Signer } from "ethers";

import {
  signPermit,
  signPurchaseAuthorization,
  signPurchaseIntent,
  tokenDomain,
  type Exchange,
  type GaslessPurchase,
  type PermitSignatureArgs,
  type PurchaseIntentArgs,
  type ReceiveAuthorizationArgs,
  type TestToken,
} from "@raffle/chain";

import { latestTimestamp, type Voucher } from "./vouchers";

/** A signed voucher for `buyer`, as the Exchange's gasless entry points take it with the buyer's signatures. */
export async function gaslessPurchase(exchange: Exchange, buyer: string, voucher: Voucher): Promise<GaslessPurchase> {
  const { chainId } = await ethers.provider.getNetwork();
  return {
    chainId,
    exchange: await exchange.getAddress(),
    voucher: { account: buyer, params: voucher.params, item: voucher.item, price: voucher.price },
  };
}

/** The demo token's EIP-712 domain: its name, version "1" (ERC20Permit's). */
export async function testTokenDomain(token: TestToken) {
  const { chainId } = await ethers.provider.getNetwork();
  return tokenDomain(await token.name(), "1", chainId, await token.getAddress());
}

/** The buyer's one ERC-3009 signature for `voucher`, valid for ten minutes. */
export async function authorize(
  key: Signer,
  token: TestToken,
  exchange: Exchange,
  buyer: string,
  voucher: Voucher,
  window: Partial<{ validAfter: bigint; validBefore: bigint }> = {},
): Promise<ReceiveAuthorizationArgs> {
  const validBefore = window.validBefore ?? (await latestTimestamp()) + 600n;
  return signPurchaseAuthorization(
    key,
    await testTokenDomain(token),
    await gaslessPurchase(exchange, buyer, voucher),
    validBefore,
    window.validAfter,
  );
}

/** The buyer's intent for `voucher`, valid for ten minutes. */
export async function intend(key: Signer, exchange: Exchange, buyer: string, voucher: Voucher, deadline?: bigint): Promise<PurchaseIntentArgs> {
  return signPurchaseIntent(key, await gaslessPurchase(exchange, buyer, voucher), deadline ?? (await latestTimestamp()) + 600n);
}

/** The buyer's permit for the Exchange of `value`, with the token's next nonce of `owner`. */
export async function permitFor(
  key: Signer,
  token: TestToken,
  owner: string,
  spender: string,
  value: bigint,
  deadline?: bigint,
): Promise<PermitSignatureArgs> {
  return signPermit(key, await testTokenDomain(token), {
    owner,
    spender,
    value,
    nonce: await token.nonces(owner),
    deadline: deadline ?? (await latestTimestamp()) + 600n,
  });
}
