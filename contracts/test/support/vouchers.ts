import { ethers } from "hardhat";
import type { Signer } from "ethers";
import { ZeroAddress } from "ethers";

import {
  NonceSequence,
  PURCHASE_TYPES,
  RAFFLE_PURCHASE_EXTRA,
  exchangeDomain,
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
