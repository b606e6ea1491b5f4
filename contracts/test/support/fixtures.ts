import { ethers } from "hardhat";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/signers";
import { ZeroAddress, parseEther, parseUnits } from "ethers";

import {
  Exchange__factory,
  RaffleFactory__factory,
  RaffleTicketDeployer__factory,
  RaffleDeployer__factory,
  Raffle__factory,
  RaffleTicket__factory,
  TestToken__factory,
  VRFCoordinatorV2_5Mock__factory,
  TokenType,
  type Exchange,
  type Raffle,
  type RaffleFactory,
  type RaffleTicket,
  type TestToken,
  type VRFCoordinatorV2_5Mock,
} from "@raffle/chain";

export const KEY_HASH = `0x${"11".repeat(32)}`;
export const ONE_DAY = 24n * 60n * 60n;
export const COMMISSION_BPS = 1_000n; // 10%
export const TICKET_PRICE = parseUnits("10", 18);
export const NATIVE_TICKET_PRICE = parseEther("0.01");
export const DEFAULT_VRF = {
  keyHash: KEY_HASH,
  subscriptionId: 0n,
  callbackGasLimit: 500_000,
  requestConfirmations: 3,
  randomnessTimeout: Number(ONE_DAY),
};

export interface Platform {
  admin: HardhatEthersSigner;
  signer: HardhatEthersSigner;
  merchant: HardhatEthersSigner;
  players: HardhatEthersSigner[];
  vrf: VRFCoordinatorV2_5Mock;
  exchange: Exchange;
  factory: RaffleFactory;
  token: TestToken;
}

export interface DeployedRaffle {
  raffle: Raffle;
  ticket: RaffleTicket;
  address: string;
  ticketAddress: string;
}

/** The platform as the deploy script builds it: VRF mock, Exchange, factory owning a funded subscription, and the
 * test token on the factory's list of price tokens. */
export async function deployPlatform(): Promise<Platform> {
  const [admin, signer, merchant, ...players] = await ethers.getSigners();
  const vrf = await new VRFCoordinatorV2_5Mock__factory(admin).deploy(parseEther("0.1"), 1_000_000_000n, parseEther("0.004"));
  const exchange = await new Exchange__factory(admin).deploy(admin.address);
  await (await exchange.grantRole(await exchange.SIGNER_ROLE(), signer.address)).wait();
  const ticketDeployer = await new RaffleTicketDeployer__factory(admin).deploy();
  const raffleDeployer = await new RaffleDeployer__factory(admin).deploy();
  const factory = await new RaffleFactory__factory(admin).deploy(
    admin.address,
    await exchange.getAddress(),
    await ticketDeployer.getAddress(),
    await raffleDeployer.getAddress(),
  );
  await (await exchange.grantRole(await exchange.FACTORY_ROLE(), await factory.getAddress())).wait();
  await (await factory.proposeVrfConfig({ ...DEFAULT_VRF, coordinator: await vrf.getAddress() })).wait();
  await (await factory.createVrfSubscription()).wait();
  const { subscriptionId } = await factory.vrfConfig();
  await (await vrf.fundSubscription(subscriptionId, parseEther("1000"))).wait();
  await (await factory.grantRole(await factory.MERCHANT_ROLE(), merchant.address)).wait();

  const token = await new TestToken__factory(admin).deploy("Test Gold", "GOLD", admin.address);
  await (await factory.setPriceToken(await token.getAddress(), true)).wait();
  for (const player of players.slice(0, 8)) await (await token.mint(player.address, parseUnits("1000000", 18))).wait();
  return { admin, signer, merchant, players, vrf, exchange, factory, token };
}

export async function deployRaffle(
  platform: Platform,
  config: Partial<{ commission: bigint; timeLagBeforeRelease: bigint }> = {},
): Promise<DeployedRaffle> {
  const tx = await platform.factory.connect(platform.merchant).deployRaffle({
    commission: config.commission ?? COMMISSION_BPS,
    timeLagBeforeRelease: config.timeLagBeforeRelease ?? ONE_DAY,
    ticketName: "Raffle Ticket",
    ticketSymbol: "TICKET",
  });
  const receipt = await tx.wait();
  const event = receipt!.logs.map((log) => platform.factory.interface.parseLog(log)).find((parsed) => parsed?.name === "RaffleDeployed");
  const address = event!.args.raffle as string;
  const ticketAddress = event!.args.ticket as string;
  return {
    raffle: Raffle__factory.connect(address, platform.merchant),
    ticket: RaffleTicket__factory.connect(ticketAddress, platform.merchant),
    address,
    ticketAddress,
  };
}

export function ticketAsset(ticketAddress: string) {
  return { tokenType: TokenType.ERC721, token: ticketAddress, tokenId: 0n, amount: 1n };
}

export function erc20Price(token: string, amount: bigint = TICKET_PRICE) {
  return { tokenType: TokenType.ERC20, token, tokenId: 0n, amount };
}

export function nativePrice(amount: bigint = NATIVE_TICKET_PRICE) {
  return { tokenType: TokenType.NATIVE, token: ZeroAddress, tokenId: 0n, amount };
}

/** The platform admin allows `token` as a round price (as a listing of a token that turns out hostile would). */
export async function listPriceToken(platform: Pick<Platform, "factory" | "admin">, token: { getAddress(): Promise<string> }) {
  await (await platform.factory.connect(platform.admin).setPriceToken(await token.getAddress(), true)).wait();
}
