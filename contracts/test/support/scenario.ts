import { ethers, network } from "hardhat";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/signers";
import { MaxUint256, TypedDataEncoder, parseEther, recoverAddress, type ContractTransactionResponse } from "ethers";

import { PURCHASE_TYPES, PrizeStatus, RoundStatus, TokenType, exchangeDomain, type AssetStruct, type PurchaseParamsStruct } from "@raffle/chain";

import { deployPlatform, deployRaffle, erc20Price, nativePrice, ticketAsset, type DeployedRaffle, type Platform } from "./fixtures";
import { latestTimestamp, signVoucher, type Voucher } from "./vouchers";

/** A platform, one raffle deployed through the factory, and the merchant's price helpers. */
export interface RaffleWorld extends Platform, DeployedRaffle {
  item: AssetStruct;
}

export async function deployWorld(config: Partial<{ commission: bigint; timeLagBeforeRelease: bigint }> = {}) {
  const platform = await deployPlatform();
  const deployed = await deployRaffle(platform, config);
  const world: RaffleWorld = { ...platform, ...deployed, item: ticketAsset(deployed.ticketAddress) };
  return world;
}

/** Starts a round as the merchant and returns the price it sells at. */
export async function startRound(world: RaffleWorld, price: AssetStruct, maxTicket = 0n): Promise<AssetStruct> {
  await (await world.raffle.connect(world.merchant).startRound(world.item, price, maxTicket)).wait();
  return price;
}

export async function startErc20Round(world: RaffleWorld, maxTicket = 0n, amount?: bigint) {
  return startRound(world, erc20Price(await world.token.getAddress(), amount), maxTicket);
}

export async function startNativeRound(world: RaffleWorld, maxTicket = 0n, amount?: bigint) {
  return startRound(world, nativePrice(amount), maxTicket);
}

/** Lets the Exchange take any amount of the test token from each player. */
export async function approveExchange(world: RaffleWorld, players: HardhatEthersSigner[]) {
  const spender = await world.exchange.getAddress();
  for (const player of players) await (await world.token.connect(player).approve(spender, MaxUint256)).wait();
}

/** Signs a voucher for `buyer` with the platform signer, for the world's raffle and ticket. */
export async function voucherFor(
  world: RaffleWorld,
  buyer: HardhatEthersSigner,
  price: AssetStruct,
  overrides: Partial<Parameters<typeof signVoucher>[0]> = {},
): Promise<Voucher> {
  return signVoucher({
    exchange: world.exchange,
    signer: world.signer,
    account: buyer.address,
    receiver: world.address,
    item: world.item,
    price,
    ...overrides,
  });
}

/** The native value a purchase at `price` must carry. */
export function valueOf(price: AssetStruct): bigint {
  return Number(price.tokenType) === TokenType.NATIVE ? BigInt(price.amount) : 0n;
}

/** Sends `purchaseRaffle` for `voucher` from `buyer` with the exact value the price asks unless told otherwise. */
export function purchase(
  world: RaffleWorld,
  buyer: HardhatEthersSigner,
  voucher: Voucher,
  value: bigint = valueOf(voucher.price),
): Promise<ContractTransactionResponse> {
  return world.exchange.connect(buyer).purchaseRaffle(voucher.params, voucher.item, voucher.price, voucher.signature, { value });
}

/** Buys one ticket (ERC20 buyers must have approved the Exchange) and returns its ticket id. */
export async function buyTicket(
  world: RaffleWorld,
  buyer: HardhatEthersSigner,
  price: AssetStruct,
  overrides: Partial<Parameters<typeof signVoucher>[0]> = {},
): Promise<bigint> {
  const voucher = await voucherFor(world, buyer, price, overrides);
  const receipt = await (await purchase(world, buyer, voucher)).wait();
  return firstTicketOf(world, receipt!.logs);
}

/** The first ticket id of the `TicketsPurchased` event among `logs`. */
export function firstTicketOf(world: RaffleWorld, logs: readonly { topics: readonly string[]; data: string }[]): bigint {
  for (const log of logs) {
    const parsed = world.raffle.interface.parseLog(log);
    if (parsed?.name === "TicketsPurchased") return parsed.args.firstTicketId as bigint;
  }
  throw new Error("no TicketsPurchased event");
}

/** Buys `quantity` tickets in one purchase at the round's price for that quantity; returns the first ticket id. */
export async function buyBundle(
  world: RaffleWorld,
  buyer: HardhatEthersSigner,
  quantity: bigint,
  overrides: Partial<Parameters<typeof signVoucher>[0]> = {},
): Promise<bigint> {
  const price = plainAsset(await world.raffle.priceOf(quantity));
  const voucher = await voucherFor(world, buyer, price, { item: { ...world.item, amount: quantity }, ...overrides });
  const receipt = await (await purchase(world, buyer, voucher)).wait();
  return firstTicketOf(world, receipt!.logs);
}

/** Claims the prizes of `tickets` (each `[roundId, ticketId]`) as `caller`. */
export function claimPrizes(world: RaffleWorld, caller: HardhatEthersSigner, ...tickets: [bigint, bigint][]) {
  return world.raffle.connect(caller).claimPrizes(tickets.map(([roundId, ticketId]) => ({ roundId, ticketId })));
}

/** Refunds `tickets` (each `[roundId, ticketId]`) as `caller`. */
export function refundTickets(world: RaffleWorld, caller: HardhatEthersSigner, ...tickets: [bigint, bigint][]) {
  return world.raffle.connect(caller).refundTickets(tickets.map(([roundId, ticketId]) => ({ roundId, ticketId })));
}

/**
 * The draw rule of the README ("How winners are drawn"): the one TypeScript implementation (@raffle/chain/rules), which
 * is checked against the same vectors as the contract's DrawRule (Rules.vectors.test.ts).
 */
export { drawWinners } from "@raffle/chain/rules";

/** Sets the raffle's round rules as its merchant; shares in basis points, bundles as [quantity, total price]. */
export async function setRules(
  world: RaffleWorld,
  rules: Partial<{ prizeShares: number[]; minTickets: number; maxTicketsPerWallet: number; bundles: [bigint, bigint][] }>,
) {
  await (
    await world.raffle.connect(world.merchant).setRoundRules({
      prizeShares: rules.prizeShares ?? [10_000],
      minTickets: rules.minTickets ?? 0,
      maxTicketsPerWallet: rules.maxTicketsPerWallet ?? 0,
      bundles: (rules.bundles ?? []).map(([quantity, price]) => ({ quantity, price })),
    })
  ).wait();
}

/**
 * Buys `count` tickets round-robin over `buyers` and returns the buyer of each ticket in order. Vouchers share one
 * expiry and are signed locally, so hundreds of purchases stay fast.
 */
export async function buyTickets(
  world: RaffleWorld,
  buyers: HardhatEthersSigner[],
  price: AssetStruct,
  count: number,
): Promise<HardhatEthersSigner[]> {
  const expiresAt = (await latestTimestamp()) + 3_600n;
  const owners: HardhatEthersSigner[] = [];
  for (let i = 0; i < count; i += 1) {
    const buyer = buyers[i % buyers.length];
    const voucher = await voucherFor(world, buyer, price, { expiresAt, externalId: BigInt(i + 1) });
    await purchase(world, buyer, voucher);
    owners.push(buyer);
  }
  return owners;
}

/** Ends the round as the merchant and returns the VRF request id (0 when no randomness was needed). */
export async function endRound(world: RaffleWorld): Promise<bigint> {
  const roundId = (await world.raffle.getCurrentRoundInfo()).roundId;
  await (await world.raffle.connect(world.merchant).endRound()).wait();
  return (await world.raffle.getRound(roundId)).vrfRequestId;
}

/** A signer that sends transactions as `address` (e.g. the VRF coordinator contract). */
export async function impersonate(address: string): Promise<HardhatEthersSigner> {
  await network.provider.request({ method: "hardhat_impersonateAccount", params: [address] });
  await network.provider.request({ method: "hardhat_setBalance", params: [address, `0x${parseEther("10").toString(16)}`] });
  return ethers.getSigner(address);
}

/** The word the VRF mock answers with when no override is given. */
export function mockWord(requestId: bigint): bigint {
  return BigInt(ethers.solidityPackedKeccak256(["uint256", "uint256"], [requestId, 0n]));
}

/** The address the Exchange recovers from `signature` when `account` submits these (possibly tampered) values. */
export async function recoverVoucherSigner(
  world: RaffleWorld,
  account: string,
  values: { params: PurchaseParamsStruct; item: AssetStruct; price: AssetStruct },
  signature: string,
): Promise<string> {
  const { chainId } = await ethers.provider.getNetwork();
  const domain = exchangeDomain(chainId, await world.exchange.getAddress());
  const digest = TypedDataEncoder.hash(domain, PURCHASE_TYPES, { account, ...values });
  return recoverAddress(digest, signature);
}

/** Round and prize statuses: the client ABI's enums, one source for tests and clients. */
export { PrizeStatus, RoundStatus };

/** An Asset as a struct argument or as ethers returns it from a view or event. */
export interface AssetLike {
  tokenType: number | bigint;
  token: string;
  tokenId: bigint | number;
  amount: bigint | number;
}

/** Asset as ethers returns it in events and views, for deep equality checks. */
export function assetTuple(asset: AssetLike): [bigint, string, bigint, bigint] {
  return [BigInt(asset.tokenType), String(asset.token), BigInt(asset.tokenId), BigInt(asset.amount)];
}

/** A plain Asset from a view's (frozen) result, so it can be passed back into a transaction. */
export function plainAsset(asset: AssetLike): AssetStruct {
  return {
    tokenType: Number(asset.tokenType),
    token: asset.token,
    tokenId: BigInt(asset.tokenId),
    amount: BigInt(asset.amount),
  };
}

export { erc20Price, nativePrice, ticketAsset };

/**
 * Claims the first prize of round `roundId` as `caller`: v1's `claimPrize(roundId)`, now `claimPrizes` of the round's
 * first winning ticket (ticket 0 before the draw, so the round's status is what the call reverts on).
 */
export async function claimRoundPrize(world: RaffleWorld, caller: HardhatEthersSigner, roundId: bigint) {
  const { winningTicketId } = await world.raffle.getRound(roundId);
  return claimPrizes(world, caller, [roundId, winningTicketId]);
}

/** Refunds one ticket as `caller`: v1's `refundTicket(ticketId)`, now `refundTickets` of the ticket's round. */
export async function refundTicket(world: RaffleWorld, caller: HardhatEthersSigner, ticketId: bigint) {
  return refundTickets(world, caller, [await world.raffle.roundOfTicket(ticketId), ticketId]);
}

/** The `claimPrizes` calldata for one ticket, for contracts that re-enter the raffle with it. */
export function claimPrizesCall(world: RaffleWorld, roundId: bigint, ticketId: bigint): string {
  return world.raffle.interface.encodeFunctionData("claimPrizes", [[{ roundId, ticketId }]]);
}

/** The `refundTickets` calldata for one ticket, for contracts that re-enter the raffle with it. */
export function refundTicketsCall(world: RaffleWorld, roundId: bigint, ticketId: bigint): string {
  return world.raffle.interface.encodeFunctionData("refundTickets", [[{ roundId, ticketId }]]);
}

/** The prize status of round `roundId`'s first winner (v1 kept it on the winning ticket). */
export async function firstPrizeStatus(world: RaffleWorld, roundId: bigint): Promise<PrizeStatus> {
  const [first] = await world.raffle.getWinners(roundId);
  return first === undefined ? PrizeStatus.None : (Number(first.status) as PrizeStatus);
}

/** Round `roundId`'s winners as `[ticketId, status]` pairs, first position first (empty before the draw). */
export async function winnersOf(world: RaffleWorld, roundId: bigint): Promise<Array<[bigint, PrizeStatus]>> {
  return (await world.raffle.getWinners(roundId)).map((winner) => [winner.ticketId, Number(winner.status) as PrizeStatus]);
}
