import { ethers } from "hardhat";
import type { Signer } from "ethers";
import { TypedDataEncoder, ZeroAddress, recoverAddress } from "ethers";

import {
  CLAIM_EXTRA,
  CLAIM_TYPES,
  NonceSequence,
  PURCHASE_TYPES,
  RAFFLE_PURCHASE_EXTRA,
  exchangeDomain,
  signClaimVoucher,
  type AssetStruct,
  type Exchange,
  type PurchaseParamsStruct,
} from "@raffle/chain";

export interface Voucher {
  params: PurchaseParamsStruct;
  item: AssetStruct;
  price: AssetStruct;
  signature: string;
}

const nonces = new NonceSequence();

export async function latestTimestamp(): Promise<bigint> {
  const block = await ethers.provider.getBlock("latest");
  return BigInt(block!.timestamp);
}

/** Signs a purchase voucher with the libs/chain EIP-712 types, as the API does. */
export async function signVoucher(options: {
  exchange: Exchange;
  signer: Signer;
  account: string;
  receiver: string;
  item: AssetStruct;
  price: AssetStruct;
  externalId?: bigint;
  expiresAt?: bigint;
  nonce?: string;
  referrer?: string;
}): Promise<Voucher> {
  const { chainId } = await ethers.provider.getNetwork();
  const params: PurchaseParamsStruct = {
    externalId: options.externalId ?? 1n,
    expiresAt: options.expiresAt ?? (await latestTimestamp()) + 600n,
    nonce: options.nonce ?? nonces.take(),
    extra: RAFFLE_PURCHASE_EXTRA,
    receiver: options.receiver,
    referrer: options.referrer ?? ZeroAddress,
  };
  const value = { account: options.account, params, item: options.item, price: options.price };
  const domain = exchangeDomain(chainId, await options.exchange.getAddress());
  const signature = await options.signer.signTypedData(domain, PURCHASE_TYPES, value);
  return { params, item: options.item, price: options.price, signature };
}

/** A claim voucher as `Exchange.claim` takes it: `items` go from `params.receiver` to the claiming account. */
export interface Claim {
  params: PurchaseParamsStruct;
  items: AssetStruct[];
  signature: string;
}

/** Signs a claim voucher for `account` with libs/chain's `signClaimVoucher` (CLAIM_TYPES), as the API does. */
export async function signClaim(options: {
  exchange: Exchange;
  signer: Signer;
  account: string;
  receiver: string;
  items: AssetStruct[];
  externalId?: bigint;
  expiresAt?: bigint;
  nonce?: string;
  extra?: string;
  referrer?: string;
}): Promise<Claim> {
  const { chainId } = await ethers.provider.getNetwork();
  const params: PurchaseParamsStruct = {
    externalId: options.externalId ?? 1n,
    expiresAt: options.expiresAt ?? (await latestTimestamp()) + 600n,
    nonce: options.nonce ?? nonces.take(),
    extra: options.extra ?? CLAIM_EXTRA,
    receiver: options.receiver,
    referrer: options.referrer ?? ZeroAddress,
  };
  const exchange = await options.exchange.getAddress();
  const signature = await signClaimVoucher(options.signer, chainId, exchange, {
    account: options.account,
    params,
    items: options.items,
  });
  return { params, items: options.items, signature };
}

/** The address the Exchange recovers from `signature` when `account` claims these (possibly tampered) values. */
export async function recoverClaimSigner(
  exchange: Exchange,
  account: string,
  values: { params: PurchaseParamsStruct; items: AssetStruct[] },
  signature: string,
): Promise<string> {
  const { chainId } = await ethers.provider.getNetwork();
  const domain = exchangeDomain(chainId, await exchange.getAddress());
  const digest = TypedDataEncoder.hash(domain, CLAIM_TYPES, { account, params: values.params, items: values.items });
  return recoverAddress(digest, signature);
}
