import type { Signer } from "ethers";

import { RaffleFactory__factory, Raffle__factory } from "../typechain";
import type { RoundRulesStruct } from "../typechain/src/Raffle";
import type { AssetStruct } from "../purchase-args";
import { TokenType } from "../token-type";
import type { Progress } from "./deploy-platform";

export interface MerchantRaffleOptions {
  factory: string;
  /** Basis points of each pot paid to the merchant. */
  commission: bigint;
  /** Seconds after a draw before an unclaimed prize may be released to the merchant. */
  timeLagBeforeRelease: bigint;
  ticketName: string;
  ticketSymbol: string;
  /**
   * Round rules (raffle v2: prize shares, minimum tickets, cap per wallet, bundle prices) set before the first round,
   * so every round plays by them; the contract's defaults (one winner, no minimum, no cap, no bundle) without.
   */
  rules?: RoundRulesStruct;
  /** When given, the first round is started right away with this price and ticket cap (0 = no cap). */
  firstRound?: { price: AssetStruct; maxTicket: bigint };
}

export interface MerchantRaffle {
  raffle: string;
  ticket: string;
  deployBlock: number;
  deployTxHash: string;
}

/** Deploys a raffle through the factory with the merchant's own key, and optionally starts its first round. */
export async function deployMerchantRaffle(
  merchant: Signer,
  options: MerchantRaffleOptions,
  progress: Progress = () => undefined,
): Promise<MerchantRaffle> {
  const factory = RaffleFactory__factory.connect(options.factory, merchant);
  progress(`deploying a raffle for ${await merchant.getAddress()} through factory ${options.factory}`);
  const tx = await factory.deployRaffle({
    commission: options.commission,
    timeLagBeforeRelease: options.timeLagBeforeRelease,
    ticketName: options.ticketName,
    ticketSymbol: options.ticketSymbol,
  });
  const receipt = (await tx.wait())!;
  const deployed = receipt.logs.map((log) => factory.interface.parseLog(log)).find((parsed) => parsed?.name === "RaffleDeployed");
  if (!deployed) throw new Error(`transaction ${tx.hash} emitted no RaffleDeployed event`);
  const result: MerchantRaffle = {
    raffle: deployed.args.raffle as string,
    ticket: deployed.args.ticket as string,
    deployBlock: receipt.blockNumber,
    deployTxHash: tx.hash,
  };
  progress(`raffle ${result.raffle} with ticket ${result.ticket} deployed in block ${result.deployBlock} (tx ${tx.hash})`);

  const raffle = Raffle__factory.connect(result.raffle, merchant);
  if (options.rules) {
    const setRules = await raffle.setRoundRules(options.rules);
    await setRules.wait();
    progress(`round rules set (tx ${setRules.hash})`);
  }
  if (options.firstRound) {
    const ticketAsset = { tokenType: TokenType.ERC721, token: result.ticket, tokenId: 0n, amount: 1n };
    const start = await raffle.startRound(ticketAsset, options.firstRound.price, options.firstRound.maxTicket);
    await start.wait();
    progress(`first round started (tx ${start.hash})`);
  }
  return result;
}
