import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/signers";
import { ethers } from "hardhat";
import { Wallet, type ContractTransactionResponse, type Signer } from "ethers";

import { SmartWallet__factory, TestCollectible__factory, TestItems1155__factory, TokenType, signClaimIntent, type AssetStruct } from "@raffle/chain";
import { deployPlatform, deployRaffle, erc20Price, nativePrice, ticketAsset, type DeployedRaffle, type Platform } from "./support/fixtures";
import { authorize, intend, permitFor } from "./support/gasless";
import { signVoucher } from "./support/vouchers";

/**
 * Gas of the operations a merchant and its players pay for, compared with the committed snapshot.
 * A drift above 1% fails; `npm run gas:update` rewrites the snapshot on purpose.
 */
const SNAPSHOT_FILE = path.join(__dirname, "..", "gas-snapshot.json");
const TOLERANCE = 0.01;
/** Calldata varies by a few bytes from run to run (a voucher's expiry and signature), so a small figure such as the
 * cost of one more ticket in a batch (about 2k gas) may move by a few dozen gas: it gets this much slack instead. */
const MIN_SLACK = 100;
const TARGETS: Record<string, number> = {
  "purchaseRaffle.erc20.laterTicket": 150_000,
  "purchaseRaffle.erc20.laterTicket.unlimitedAllowance": 150_000,
  "purchaseRaffle.erc20.tenTickets": 200_000,
  "purchaseRaffle.erc20.tenTickets.bundle": 200_000,
  "purchaseRaffle.erc20.eachFurtherTicket": 5_000,
  "purchaseRaffleWithAuthorization.erc20.oneTicket": 190_000,
  "purchaseRaffleWithAuthorization.erc20.tenTickets": 240_000,
  "purchaseRaffleWithPermit.erc20.oneTicket": 190_000,
  "purchaseRaffleWithPermit.erc20.tenTickets": 240_000,
};

type Figures = Record<string, number>;

async function gasOf(tx: Promise<ContractTransactionResponse>): Promise<number> {
  const receipt = await (await tx).wait();
  return Number(receipt!.gasUsed);
}

/** Voucher nonces of one API run share their upper 31 bytes (see NonceSequence). */
function nonceOfRun(run: number, index: number): string {
  return `0x${run.toString(16).padStart(62, "0")}${index.toString(16).padStart(2, "0")}`;
}

async function buy(
  platform: Platform,
  deployed: DeployedRaffle,
  buyer: HardhatEthersSigner,
  price: AssetStruct,
  nonce: string,
  quantity = 1n,
): Promise<number> {
  const voucher = await signVoucher({
    exchange: platform.exchange,
    signer: platform.signer,
    account: buyer.address,
    receiver: deployed.address,
    item: { ...ticketAsset(deployed.ticketAddress), amount: quantity },
    price,
    nonce,
  });
  const value = price.tokenType === 0 ? price.amount : 0n;
  return gasOf(platform.exchange.connect(buyer).purchaseRaffle(voucher.params, voucher.item, voucher.price, voucher.signature, { value }));
}

async function measure(): Promise<Figures> {
  const platform = await deployPlatform();
  const { merchant, players, token, factory } = platform;
  const figures: Figures = {};

  figures["factory.deployRaffle"] = await gasOf(
    factory.connect(merchant).deployRaffle({
      commission: 1_000n,
      timeLagBeforeRelease: 86_400n,
      ticketName: "Raffle Ticket",
      ticketSymbol: "TICKET",
    }),
  );

  // ERC20 raffle: every buyer is new to the ticket contract (the costlier case). Two approve the exact price; the
  // third approves without limit, which costs more here because the allowance is then never written back to zero.
  const erc20Raffle = await deployRaffle(platform);
  const price = erc20Price(await token.getAddress());
  figures["startRound"] = await gasOf(erc20Raffle.raffle.startRound(ticketAsset(erc20Raffle.ticketAddress), price, 1_000n));
  const exchangeAddress = await platform.exchange.getAddress();
  for (const buyer of players.slice(0, 2)) {
    await (await token.connect(buyer).approve(exchangeAddress, price.amount)).wait();
  }
  await (await token.connect(players[2]).approve(exchangeAddress, 2n ** 256n - 1n)).wait();
  figures["purchaseRaffle.erc20.firstTicket"] = await buy(platform, erc20Raffle, players[0], price, nonceOfRun(1, 0));
  figures["purchaseRaffle.erc20.laterTicket"] = await buy(platform, erc20Raffle, players[1], price, nonceOfRun(1, 1));
  figures["purchaseRaffle.erc20.laterTicket.unlimitedAllowance"] = await buy(platform, erc20Raffle, players[2], price, nonceOfRun(1, 2));

  // Many tickets in one purchase, by buyers new to the ticket contract, each approving the exact price: 10, then 11
  // (what one more ticket in a batch costs).
  const priceOf = (quantity: bigint) => ({ ...price, amount: price.amount * quantity });
  await (await token.connect(players[3]).approve(exchangeAddress, priceOf(10n).amount)).wait();
  await (await token.connect(players[4]).approve(exchangeAddress, priceOf(11n).amount)).wait();
  figures["purchaseRaffle.erc20.tenTickets"] = await buy(platform, erc20Raffle, players[3], priceOf(10n), nonceOfRun(1, 3), 10n);
  const elevenTickets = await buy(platform, erc20Raffle, players[4], priceOf(11n), nonceOfRun(1, 4), 11n);
  figures["purchaseRaffle.erc20.eachFurtherTicket"] = elevenTickets - figures["purchaseRaffle.erc20.tenTickets"];

  // A raffle with bundles (5 for 45, 10 for 80 at a price of 10): the price is read from the round's rules.
  const bundleRaffle = await deployRaffle(platform);
  await (
    await bundleRaffle.raffle.setRoundRules({
      prizeShares: [5_000, 3_000, 2_000],
      minTickets: 3,
      maxTicketsPerWallet: 0,
      bundles: [
        { quantity: 5, price: (price.amount * 45n) / 10n },
        { quantity: 10, price: price.amount * 8n },
      ],
    })
  ).wait();
  await (await bundleRaffle.raffle.startRound(ticketAsset(bundleRaffle.ticketAddress), price, 1_000n)).wait();
  // A first purchase fills the raffle's token balance and the run's nonce word; the figure is a later one.
  await (await token.connect(players[0]).approve(exchangeAddress, price.amount)).wait();
  await buy(platform, bundleRaffle, players[0], price, nonceOfRun(3, 0));
  const bundleOfTen = { ...price, amount: price.amount * 8n };
  await (await token.connect(players[5]).approve(exchangeAddress, bundleOfTen.amount)).wait();
  figures["purchaseRaffle.erc20.tenTickets.bundle"] = await buy(platform, bundleRaffle, players[5], bundleOfTen, nonceOfRun(3, 1), 10n);

  // The same bundle bought by a contract wallet (new to the ticket contract), which gets one ERC721 receiver callback
  // per ticket, submitting the purchase itself: the figure includes the wallet's own forwarding.
  const wallet = await new SmartWallet__factory(players[6]).deploy();
  const walletAddress = await wallet.getAddress();
  await (await token.mint(walletAddress, bundleOfTen.amount)).wait();
  await (
    await wallet.execute(await token.getAddress(), 0n, token.interface.encodeFunctionData("approve", [exchangeAddress, bundleOfTen.amount]))
  ).wait();
  const walletVoucher = await signVoucher({
    exchange: platform.exchange,
    signer: platform.signer,
    account: walletAddress,
    receiver: bundleRaffle.address,
    item: { ...ticketAsset(bundleRaffle.ticketAddress), amount: 10n },
    price: bundleOfTen,
    nonce: nonceOfRun(3, 2),
  });
  const purchaseCall = platform.exchange.interface.encodeFunctionData("purchaseRaffle", [
    walletVoucher.params,
    walletVoucher.item,
    walletVoucher.price,
    walletVoucher.signature,
  ]);
  figures["purchaseRaffle.erc20.tenTickets.bundle.contractWallet"] = await gasOf(wallet.execute(exchangeAddress, 0n, purchaseCall));

  // Gasless, in a raffle of its own so the figures above and the claim below stay as they were: a relayer submits the
  // signatures of buyers who hold the token and no ETH, each new to the ticket contract; the permit path applies the
  // buyer's permit in the same transaction. A first purchase fills the raffle's token balance and the run's nonce word.
  const gaslessRaffle = await deployRaffle(platform);
  await (await gaslessRaffle.raffle.startRound(ticketAsset(gaslessRaffle.ticketAddress), price, 1_000n)).wait();
  await (await token.connect(players[0]).approve(exchangeAddress, price.amount)).wait();
  await buy(platform, gaslessRaffle, players[0], price, nonceOfRun(4, 0));
  const relayer = players[7];
  const gaslessBuyers: Array<Signer & { address: string }> = [players[0]];
  let run = 1;
  for (const quantity of [1n, 10n]) {
    const name = quantity === 1n ? "oneTicket" : "tenTickets";
    const [viaAuthorization, viaPermit] = [Wallet.createRandom(), Wallet.createRandom()];
    gaslessBuyers.push(viaAuthorization, viaPermit);
    for (const buyer of [viaAuthorization, viaPermit]) await (await token.mint(buyer.address, priceOf(quantity).amount)).wait();
    const voucherOf = (buyer: string) =>
      signVoucher({
        exchange: platform.exchange,
        signer: platform.signer,
        account: buyer,
        receiver: gaslessRaffle.address,
        item: { ...ticketAsset(gaslessRaffle.ticketAddress), amount: quantity },
        price: priceOf(quantity),
        nonce: nonceOfRun(4, run++),
      });
    const first = await voucherOf(viaAuthorization.address);
    const authorization = await authorize(viaAuthorization, token, platform.exchange, viaAuthorization.address, first);
    figures[`purchaseRaffleWithAuthorization.erc20.${name}`] = await gasOf(
      platform.exchange.connect(relayer).purchaseRaffleWithAuthorization(first.params, first.item, first.price, first.signature, authorization),
    );
    const second = await voucherOf(viaPermit.address);
    const intent = await intend(viaPermit, platform.exchange, viaPermit.address, second);
    const permit = await permitFor(viaPermit, token, viaPermit.address, exchangeAddress, priceOf(quantity).amount);
    figures[`purchaseRaffleWithPermit.erc20.${name}`] = await gasOf(
      platform.exchange.connect(relayer).purchaseRaffleWithPermit(second.params, second.item, second.price, second.signature, intent, permit),
    );
  }

  // NATIVE raffle, same shape.
  const nativeRaffle = await deployRaffle(platform);
  const native = nativePrice();
  await (await nativeRaffle.raffle.startRound(ticketAsset(nativeRaffle.ticketAddress), native, 1_000n)).wait();
  figures["purchaseRaffle.native.firstTicket"] = await buy(platform, nativeRaffle, players[0], native, nonceOfRun(2, 0));
  figures["purchaseRaffle.native.laterTicket"] = await buy(platform, nativeRaffle, players[1], native, nonceOfRun(2, 1));

  figures["endRound.vrfRequest"] = await gasOf(erc20Raffle.raffle.endRound());
  const { vrfRequestId, winningTicketId } = await erc20Raffle.raffle.getRound(1n).then(async (round) => {
    await (await platform.vrf.fulfillRandomWords(round.vrfRequestId, await platform.factory.getAddress())).wait();
    return erc20Raffle.raffle.getRound(1n);
  });
  expect(vrfRequestId).to.not.equal(0n);
  const owner = await erc20Raffle.ticket.ownerOf(winningTicketId);
  const winner = players.find((player) => player.address === owner);
  expect(winner, "the winning ticket belongs to a player").to.not.equal(undefined);
  figures["claimPrizes.erc20.one"] = await gasOf(erc20Raffle.raffle.connect(winner!).claimPrizes([{ roundId: 1n, ticketId: winningTicketId }]));
  figures["startRound.next"] = await gasOf(erc20Raffle.raffle.startRound(ticketAsset(erc20Raffle.ticketAddress), price, 1_000n));

  // A relayed claim: the gasless raffle's winner (a buyer with no ETH, or players[0]) signs a ClaimIntent and the
  // relayer submits it. Measured last, so every figure above stays as it was.
  await (await gaslessRaffle.raffle.endRound()).wait();
  const gaslessRound = await gaslessRaffle.raffle.getRound(1n);
  await (await platform.vrf.fulfillRandomWords(gaslessRound.vrfRequestId, await platform.factory.getAddress())).wait();
  const { winningTicketId: gaslessWinner } = await gaslessRaffle.raffle.getRound(1n);
  const gaslessOwner = await gaslessRaffle.ticket.ownerOf(gaslessWinner);
  const holderKey = gaslessBuyers.find((buyer) => buyer.address === gaslessOwner);
  expect(holderKey, "the winning ticket belongs to a buyer the test holds the key of").to.not.equal(undefined);
  const claimTickets = [{ roundId: 1n, ticketId: gaslessWinner }];
  const { chainId } = await ethers.provider.getNetwork();
  const claimIntent = await signClaimIntent(
    holderKey!,
    { chainId, exchange: exchangeAddress, raffle: gaslessRaffle.address, holder: gaslessOwner, tickets: claimTickets },
    BigInt((await ethers.provider.getBlock("latest"))!.timestamp) + 600n,
  );
  figures["claimPrizesBySig.erc20.one"] = await gasOf(
    platform.exchange
      .connect(relayer)
      .claimPrizesBySig(gaslessRaffle.address, claimTickets, gaslessOwner, claimIntent.deadline, claimIntent.signature),
  );

  // Item prizes, in a raffle of their own (measured last, so the figures above stay as they were): a sword (ERC721)
  // on the first prize with the pot, potions (ERC1155) alone on the second; two buyers, the sword's claim, then the
  // potions' claim (an item and nothing else).
  const itemRaffle = await deployRaffle(platform);
  const sword = await new TestCollectible__factory(merchant).deploy("Sword", "SWORD", merchant.address);
  const potions = await new TestItems1155__factory(merchant).deploy();
  await (await sword.mint(merchant.address)).wait();
  await (await potions.mint(merchant.address, 7n, 50n)).wait();
  await (await sword.setApprovalForAll(itemRaffle.address, true)).wait();
  await (await potions.setApprovalForAll(itemRaffle.address, true)).wait();
  const swordItem = { tokenType: TokenType.ERC721, token: await sword.getAddress(), tokenId: 1n, amount: 1n };
  const potionItem = { tokenType: TokenType.ERC1155, token: await potions.getAddress(), tokenId: 7n, amount: 50n };
  await (
    await itemRaffle.raffle.setItemPrizes([
      { position: 1, asset: swordItem },
      { position: 2, asset: potionItem },
    ])
  ).wait();
  figures["startRound.items.erc721AndErc1155"] = await gasOf(itemRaffle.raffle.startRound(ticketAsset(itemRaffle.ticketAddress), price, 1_000n));
  for (const [index, buyer] of players.slice(0, 2).entries()) {
    await (await token.connect(buyer).approve(exchangeAddress, price.amount)).wait();
    await buy(platform, itemRaffle, buyer, price, nonceOfRun(5, index));
  }
  await (await itemRaffle.raffle.endRound()).wait();
  const itemRound = await itemRaffle.raffle.getRound(1n);
  await (await platform.vrf.fulfillRandomWords(itemRound.vrfRequestId, await platform.factory.getAddress())).wait();
  const itemWinners = await itemRaffle.raffle.getWinners(1n);
  const itemClaim = async (ticketId: bigint) => {
    const owner = await itemRaffle.ticket.ownerOf(ticketId);
    const holder = players.find((player) => player.address === owner)!;
    return gasOf(itemRaffle.raffle.connect(holder).claimPrizes([{ roundId: 1n, ticketId }]));
  };
  figures["claimPrizes.shareAndItem.erc721"] = await itemClaim(itemWinners[0]!.ticketId);
  figures["claimPrizes.item.erc1155"] = await itemClaim(itemWinners[1]!.ticketId);
  return figures;
}

describe("gas snapshot", () => {
  it("matches the committed snapshot within 1% and meets the targets", async () => {
    const figures = await measure();
    const table = Object.entries(figures).map(([name, gas]) => ({ name, gas, target: TARGETS[name] ?? "" }));
    console.table(table);

    if (process.env.GAS_SNAPSHOT_UPDATE === "1") {
      fs.writeFileSync(SNAPSHOT_FILE, `${JSON.stringify({ figures, targets: TARGETS }, null, 2)}\n`);
      return;
    }
    const snapshot = JSON.parse(fs.readFileSync(SNAPSHOT_FILE, "utf8")) as { figures: Figures };
    expect(Object.keys(figures).sort()).to.deep.equal(Object.keys(snapshot.figures).sort());
    const drifts = Object.entries(figures)
      .filter(([name, gas]) => Math.abs(gas - snapshot.figures[name]) > Math.max(snapshot.figures[name] * TOLERANCE, MIN_SLACK))
      .map(([name, gas]) => `${name}: ${gas} vs snapshot ${snapshot.figures[name]}`);
    expect(drifts, "gas drifted more than 1%; run `npm run gas:update` if intended").to.deep.equal([]);
    for (const [name, target] of Object.entries(TARGETS)) {
      expect(figures[name], `${name} above its target`).to.be.at.most(target);
    }
  });
});
