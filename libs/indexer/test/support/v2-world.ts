import { Wallet, ZeroAddress, type Signer } from "ethers";
import {
  Exchange__factory,
  LOCAL_DEV_KEYS,
  NonceSequence,
  RAFFLE_PURCHASE_EXTRA,
  RaffleTicket__factory,
  Raffle__factory,
  TestToken__factory,
  TokenType,
  VRFCoordinatorV2_5Mock__factory,
  signPurchaseVoucher,
} from "@raffle/chain";
import { type TestRaffle, type TestWorld } from "@raffle/chain/testing";

/**
 * Raffle v2 steps the indexer and API suites script against a local chain: the rules a merchant sets, a purchase of
 * several tickets at the contract's own price for the quantity, batch claims and refunds. (The one-ticket helpers are
 * libs/chain's `buyTicket`, `endAndDraw` and `startNextRound`.)
 */

export interface RulesInput {
  prizeShares: number[];
  minTickets?: number;
  maxTicketsPerWallet?: number;
  /** quantity and total price, smallest units */
  bundles?: Array<{ quantity: number; price: bigint }>;
}

const nonces = new NonceSequence();

/** The merchant sets the rules the next rounds start with. */
export async function setRules(world: TestWorld, raffle: TestRaffle, rules: RulesInput): Promise<void> {
  const contract = Raffle__factory.connect(raffle.raffle, world.merchant);
  await (
    await contract.setRoundRules({
      prizeShares: rules.prizeShares,
      minTickets: rules.minTickets ?? 0,
      maxTicketsPerWallet: rules.maxTicketsPerWallet ?? 0,
      bundles: rules.bundles ?? [],
    })
  ).wait();
}

/** Ends the active round (after `setRules`) and starts the next with the same ticket and price, under the new rules. */
export async function restartRound(world: TestWorld, raffle: TestRaffle, maxTicket = 100n): Promise<void> {
  const contract = Raffle__factory.connect(raffle.raffle, world.merchant);
  const info = await contract.getCurrentRoundInfo();
  if ((await contract.getRound(info.roundId)).status === 1n) await (await contract.endRound()).wait();
  const ticket = { tokenType: TokenType.ERC721, token: raffle.ticket, tokenId: 0n, amount: 1n };
  await (await contract.startRound(ticket, raffle.price, maxTicket)).wait();
}

/** A player buys `quantity` tickets in one purchase at the contract's `priceOf(quantity)`; returns their ids. */
export async function buyTickets(world: TestWorld, raffle: TestRaffle, player: Signer, quantity: number, externalId = 1n): Promise<bigint[]> {
  const account = await player.getAddress();
  const contract = Raffle__factory.connect(raffle.raffle, player);
  const quoted = await contract.priceOf(quantity);
  const price = { tokenType: Number(quoted.tokenType), token: quoted.token, tokenId: quoted.tokenId, amount: quoted.amount };
  if (price.tokenType === TokenType.ERC20) {
    await (await TestToken__factory.connect(price.token, player).approve(world.deployment.exchange, price.amount)).wait();
  }
  const block = await world.provider.getBlock("latest");
  const params = {
    externalId,
    expiresAt: BigInt(block!.timestamp + 600),
    nonce: nonces.take(),
    extra: RAFFLE_PURCHASE_EXTRA,
    receiver: raffle.raffle,
    referrer: ZeroAddress,
  };
  const item = { tokenType: TokenType.ERC721, token: raffle.ticket, tokenId: 0n, amount: BigInt(quantity) };
  const signature = await signPurchaseVoucher(new Wallet(LOCAL_DEV_KEYS.voucherSigner), world.deployment.chainId, world.deployment.exchange, {
    account,
    params,
    item,
    price,
  });
  const value = price.tokenType === TokenType.NATIVE ? price.amount : 0n;
  const receipt = await (
    await Exchange__factory.connect(world.deployment.exchange, player).purchaseRaffle(params, item, price, signature, { value })
  ).wait();
  const raffleInterface = Raffle__factory.createInterface();
  for (const log of receipt!.logs.filter((entry) => entry.address === raffle.raffle)) {
    const parsed = raffleInterface.parseLog(log);
    if (parsed?.name === "TicketsPurchased") {
      const first = parsed.args.firstTicketId as bigint;
      return Array.from({ length: quantity }, (_, i) => first + BigInt(i));
    }
  }
  throw new Error("no tickets minted");
}

/**
 * Ends the active round and answers its VRF request from the mock, if one was made; returns the round id. The answer
 * is sent with a generous gas limit: the mock calls back with at most 63/64 of what is left, and an estimated limit
 * is just enough for the callback to record the word and leave the winners to `finishDraw` (a real coordinator gives
 * the callback its full gas limit; `gasLimit: null` sends the estimate, to leave the round WinnersPending). With
 * `finish`, a round left WinnersPending is finished here, as anyone may.
 */
export async function endAndDraw(
  world: TestWorld,
  raffle: TestRaffle,
  { finish = true, gasLimit = 3_000_000 as number | null } = {},
): Promise<bigint> {
  const contract = Raffle__factory.connect(raffle.raffle, world.merchant);
  await (await contract.endRound()).wait();
  const { roundId } = await contract.getCurrentRoundInfo();
  const round = await contract.getRound(roundId);
  if (round.vrfRequestId !== 0n && round.status === ROUND_DRAWING) {
    const vrf = VRFCoordinatorV2_5Mock__factory.connect(world.deployment.vrfCoordinator, world.admin);
    await (await vrf.fulfillRandomWords(round.vrfRequestId, world.deployment.raffleFactory, gasLimit === null ? {} : { gasLimit })).wait();
  }
  if (finish && (await contract.getRound(roundId)).status === ROUND_WINNERS_PENDING) await (await contract.finishDraw(roundId)).wait();
  return roundId;
}

const ROUND_DRAWING = 2n;
const ROUND_WINNERS_PENDING = 8n;

/** The owner of each ticket claims its prize in one batch per owner. */
export async function claimPrizes(world: TestWorld, raffle: TestRaffle, roundId: bigint, ticketIds: bigint[]): Promise<void> {
  await settle(world, raffle, roundId, ticketIds, "claimPrizes");
}

/** The owner of each ticket refunds it, in one batch per owner. */
export async function refundTickets(world: TestWorld, raffle: TestRaffle, roundId: bigint, ticketIds: bigint[]): Promise<void> {
  await settle(world, raffle, roundId, ticketIds, "refundTickets");
}

async function settle(
  world: TestWorld,
  raffle: TestRaffle,
  roundId: bigint,
  ticketIds: bigint[],
  call: "claimPrizes" | "refundTickets",
): Promise<void> {
  const ticket = RaffleTicket__factory.connect(raffle.ticket, world.provider);
  const byOwner = new Map<string, bigint[]>();
  for (const ticketId of ticketIds) {
    const owner = await ticket.ownerOf(ticketId);
    byOwner.set(owner, [...(byOwner.get(owner) ?? []), ticketId]);
  }
  for (const [owner, ids] of byOwner) {
    const contract = Raffle__factory.connect(raffle.raffle, await world.provider.getSigner(owner));
    await (await contract[call](ids.map((ticketId) => ({ roundId, ticketId })))).wait();
  }
}
