import { Wallet, ZeroAddress, parseEther, parseUnits, type JsonRpcProvider, type Signer } from "ethers";

import { assetFromChain } from "../asset";
import { LOCAL_DEV_KEYS } from "../deploy/dev-accounts";
import { LOCAL_DRAWS_PER_DAY, LOCAL_VRF_SETTINGS, allowPriceToken, deployPlatform } from "../deploy/deploy-platform";
import { deployMerchantRaffle } from "../deploy/deploy-raffle";
import type { PlatformDeployment } from "../deploy/deployment";
import { RAFFLE_PURCHASE_EXTRA } from "../eip712";
import { NonceSequence } from "../nonce";
import type { AssetStruct } from "../purchase-args";
import { TokenType } from "../token-type";
import { Exchange__factory, Raffle__factory, TestToken__factory, VRFCoordinatorV2_5Mock__factory } from "../typechain";
import type { RoundRulesStruct } from "../typechain/src/Raffle";
import { signPurchaseVoucher } from "../voucher";

/** A local chain with the platform, a price token and funded players: what tests and demos script against. */
export interface TestWorld {
  provider: JsonRpcProvider;
  deployment: PlatformDeployment;
  admin: Signer;
  merchant: Signer;
  players: Signer[];
  token: string;
}

export interface TestRaffle {
  raffle: string;
  ticket: string;
  price: AssetStruct;
}

const nonces = new NonceSequence();

export interface WorldOptions {
  /** VRF settings of the platform instead of the local ones (e.g. a low callback gas limit). */
  vrf?: Partial<typeof LOCAL_VRF_SETTINGS>;
  /** Chain ids that may take the local VRF mock and dev keys, besides 31337 and 31338 (the bench's quiet chains). */
  localChainIds?: readonly number[];
}

export async function setUpWorld(provider: JsonRpcProvider, options: WorldOptions = {}): Promise<TestWorld> {
  const admin = await provider.getSigner(0);
  const merchant = await provider.getSigner(2);
  const players = await Promise.all([5, 6, 7, 8].map((index) => provider.getSigner(index)));
  const deployment = await deployPlatform(
    admin,
    {
      signer: new Wallet(LOCAL_DEV_KEYS.voucherSigner).address,
      merchants: [await merchant.getAddress()],
      vrf: { ...LOCAL_VRF_SETTINGS, ...options.vrf },
      drawsPerDay: LOCAL_DRAWS_PER_DAY,
    },
    undefined,
    options.localChainIds,
  );
  const token = await new TestToken__factory(admin).deploy("Test Gold", "GOLD", await admin.getAddress());
  await token.waitForDeployment();
  await allowPriceToken(admin, deployment.raffleFactory, await token.getAddress());
  for (const player of players) await (await token.mint(await player.getAddress(), parseUnits("1000", 18))).wait();
  return { provider, deployment, admin, merchant, players, token: await token.getAddress() };
}

/** Round rules as `setRoundRules` takes them (raffle v2); the default rules are one winner, no minimum, no cap, no bundle. */
export type RoundRules = RoundRulesStruct;

/**
 * Deploys a raffle of the world's merchant and starts its first round; with `rules`, they are set first, so the first
 * round already plays by them.
 */
export async function deployTestRaffle(world: TestWorld, kind: "ERC20" | "NATIVE", maxTicket = 100n, rules?: RoundRules): Promise<TestRaffle> {
  const price: AssetStruct =
    kind === "ERC20"
      ? { tokenType: TokenType.ERC20, token: world.token, tokenId: 0n, amount: parseUnits("10", 18) }
      : { tokenType: TokenType.NATIVE, token: ZeroAddress, tokenId: 0n, amount: parseEther("0.01") };
  const deployed = await deployMerchantRaffle(world.merchant, {
    factory: world.deployment.raffleFactory,
    commission: 1_000n,
    timeLagBeforeRelease: 86_400n,
    ticketName: `${kind} Ticket`,
    ticketSymbol: `T${kind}`,
    rules,
    firstRound: { price, maxTicket },
  });
  return { raffle: deployed.raffle, ticket: deployed.ticket, price };
}

/** A player buys one ticket with a voucher signed by the platform's signer key; returns the ticket id. */
export async function buyTicket(world: TestWorld, raffle: TestRaffle, player: Signer, externalId = 1n): Promise<bigint> {
  const [ticketId] = await buyTickets(world, raffle, player, 1, externalId);
  return ticketId;
}

/**
 * A player buys `quantity` tickets in one purchase, at the round's price for that quantity (`priceOf`, which applies
 * its bundle prices), with a voucher signed by the platform's signer key; returns the ticket ids.
 */
export async function buyTickets(world: TestWorld, raffle: TestRaffle, player: Signer, quantity: number, externalId = 1n): Promise<bigint[]> {
  const account = await player.getAddress();
  const exchange = Exchange__factory.connect(world.deployment.exchange, player);
  const contract = Raffle__factory.connect(raffle.raffle, player);
  const price = assetFromChain(await contract.priceOf(quantity));
  if (price.tokenType === TokenType.ERC20) {
    const token = TestToken__factory.connect(price.token, player);
    await (await token.approve(world.deployment.exchange, price.amount)).wait();
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
  const receipt = await (await exchange.purchaseRaffle(params, item, price, signature, { value })).wait();
  for (const log of receipt!.logs.filter((entry) => entry.address === raffle.raffle)) {
    const parsed = contract.interface.parseLog(log);
    if (parsed?.name === "TicketsPurchased") {
      const first = parsed.args.firstTicketId as bigint;
      return Array.from({ length: quantity }, (_, index) => first + BigInt(index));
    }
  }
  throw new Error("no ticket minted");
}

/**
 * Gas of a mock fulfilment transaction. The coordinator mock calls back with `call{gas: callbackGasLimit}`, which
 * passes less when less is left, and the raffle then records the word and leaves its winners to `finishDraw`; a gas
 * estimate finds exactly that cheaper path. Chainlink's real coordinator always gives the callback its full limit, so
 * a stand-in sends enough for the limit and the coordinator's own work.
 */
export const VRF_FULFILMENT_GAS = 3_000_000n;

/** Ends the active round and, when VRF was asked, answers from the mock (the callback getting its full gas limit). */
export async function endAndDraw(world: TestWorld, raffle: TestRaffle): Promise<void> {
  const contract = Raffle__factory.connect(raffle.raffle, world.merchant);
  await (await contract.endRound()).wait();
  const info = await contract.getCurrentRoundInfo();
  const round = await contract.getRound(info.roundId);
  if (round.vrfRequestId !== 0n) {
    const vrf = VRFCoordinatorV2_5Mock__factory.connect(world.deployment.vrfCoordinator, world.admin);
    await (await vrf.fulfillRandomWords(round.vrfRequestId, world.deployment.raffleFactory, { gasLimit: VRF_FULFILMENT_GAS })).wait();
  }
}

/**
 * Gas of a mock fulfilment that leaves a three-winner round's callback short of gas: the raffle records the word and
 * leaves the winners to `finishDraw` (WinnersPending), as a callback gas limit too low for the round's winners would.
 * Measured on Hardhat and anvil alike: from about 142,000 (below, the mock itself runs out) to 190,000 the word is
 * recorded without the winners; from 200,000 the winners are drawn in the callback.
 */
export const SHORT_FULFILMENT_GAS = 170_000n;

/** Answers the draw of ended round `roundId` so that only its word is recorded (see SHORT_FULFILMENT_GAS). */
export async function answerDrawWithoutWinners(world: TestWorld, raffle: TestRaffle, roundId: bigint): Promise<string> {
  const round = await Raffle__factory.connect(raffle.raffle, world.provider).getRound(roundId);
  if (round.vrfRequestId === 0n) throw new Error(`round ${roundId} asked no randomness`);
  const vrf = VRFCoordinatorV2_5Mock__factory.connect(world.deployment.vrfCoordinator, world.admin);
  const tx = await vrf.fulfillRandomWords(round.vrfRequestId, world.deployment.raffleFactory, { gasLimit: SHORT_FULFILMENT_GAS });
  await tx.wait();
  return tx.hash;
}

export async function startNextRound(world: TestWorld, raffle: TestRaffle, maxTicket = 100n): Promise<void> {
  const contract = Raffle__factory.connect(raffle.raffle, world.merchant);
  const info = await contract.getCurrentRoundInfo();
  await (await contract.startRound(assetFromChain(info.ticketAsset), assetFromChain(info.acceptedAsset), maxTicket)).wait();
}
