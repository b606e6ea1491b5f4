import { type Signer } from "ethers";
import { DemoItem721__factory, Raffle__factory, TokenType, assetFromChain } from "@raffle/chain";

/** Where the item wallet's demo items are, and what each round escrows. */
export interface ItemKeeperOptions {
  /** The item raffle. */
  raffle: string;
  /** The demo ERC721 (swords) the keeper mints each round's first prize from. */
  sword: string;
  /** The item wallet: a co-admin of the item raffle that sets its items, so they come from and go back to it. */
  wallet: Signer;
  log?: (message: string, fields?: Record<string, unknown>) => void;
}

/**
 * Stands in for the studio behind the local stack's item raffle, which the merchant worker rotates like any other:
 *
 * - An ERC721 prize is one token: once a round escrowed its sword, the next round needs another. As soon as the sword
 *   set for the next round is no longer in the item wallet (escrowed, or won), the keeper sets another with
 *   `setItemPrizes` (one that came back from an earlier round, else a new one it mints), so the worker's next
 *   `startRound` escrows it without any extra call in its flow.
 * - A round that can pay no winner (closed without tickets, or refundable) keeps its items until someone calls
 *   `returnItems`, as does a drawn round's unclaimed item after the release period: the keeper calls it (anyone may;
 *   the items only ever go back to the item wallet).
 *
 * It only keeps items the item wallet set: once the merchant chooses other items (the console), it leaves them alone.
 */
export class ItemKeeper {
  private timer: NodeJS.Timeout | null = null;
  private busy = false;
  private fromBlock = 0;
  /** Rounds that escrowed items and may still hold some. */
  private readonly holding = new Set<bigint>();
  /** Swords that came back to the item wallet, to be set again before minting another. */
  private readonly returnedSwords: bigint[] = [];
  /** Rounds whose items the keeper sent home, and swords it minted for coming rounds. */
  returnedRounds = 0;
  swordsMinted = 0;

  constructor(private readonly options: ItemKeeperOptions) {}

  /** Polls once at once (the worker's first rotation needs the next round's sword set), then every `intervalMs`. */
  async start(intervalMs = 1_000): Promise<void> {
    await this.poll();
    this.timer = setInterval(() => void this.poll(), intervalMs);
  }

  /** Stops polling, and waits for a poll under way, so that none runs on after the chain it talks to stopped. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    while (this.busy) await new Promise((resolve) => setTimeout(resolve, 50));
  }

  async poll(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    const log = this.options.log ?? (() => undefined);
    try {
      await this.readNewEvents();
      // The swords it just returned are read back before choosing the next round's.
      if (await this.returnWhatCanGoHome()) await this.readNewEvents();
      await this.keepNextSword();
    } catch (error) {
      log("item keeper step failed; will retry", { error: error instanceof Error ? error.message : String(error) });
    } finally {
      this.busy = false;
    }
  }

  private async keepNextSword(): Promise<void> {
    const { wallet, log = () => undefined } = this.options;
    const raffle = Raffle__factory.connect(this.options.raffle, wallet);
    const sword = DemoItem721__factory.connect(this.options.sword, wallet);
    const walletAddress = (await wallet.getAddress()).toLowerCase();
    const [merchant, items] = await raffle.itemPrizes();
    if (merchant.toLowerCase() !== walletAddress) return;
    const swordAt = items.findIndex(
      (item) => Number(item.asset.tokenType) === TokenType.ERC721 && item.asset.token.toLowerCase() === this.options.sword.toLowerCase(),
    );
    if (swordAt < 0) return;
    if ((await sword.ownerOf(items[swordAt].asset.tokenId)).toLowerCase() === walletAddress) return;
    let tokenId: bigint | null = null;
    while (tokenId === null && this.returnedSwords.length > 0) {
      const candidate = this.returnedSwords.shift()!;
      if ((await sword.ownerOf(candidate)).toLowerCase() === walletAddress) tokenId = candidate;
    }
    if (tokenId === null) {
      const minted = await (await sword.mint(walletAddress)).wait();
      tokenId = minted!.logs.map((entry) => sword.interface.parseLog(entry)).find((parsed) => parsed?.name === "Transfer")!.args.tokenId as bigint;
      this.swordsMinted += 1;
    }
    const next = items.map((item) => ({ position: item.position, asset: assetFromChain(item.asset) }));
    next[swordAt] = { position: next[swordAt].position, asset: { ...next[swordAt].asset, tokenId } };
    await (await raffle.setItemPrizes(next)).wait();
    log("the next round's sword is set", { tokenId: tokenId.toString() });
  }

  /** The rounds that escrowed items, and the swords that came back, since the last poll. */
  private async readNewEvents(): Promise<void> {
    const raffle = Raffle__factory.connect(this.options.raffle, this.options.wallet);
    const head = await this.options.wallet.provider!.getBlockNumber();
    if (this.fromBlock > head) return;
    for (const escrowed of await raffle.queryFilter(raffle.filters.ItemsEscrowed(), this.fromBlock, head)) this.holding.add(escrowed.args.roundId);
    for (const returned of await raffle.queryFilter(raffle.filters.ItemReturned(), this.fromBlock, head)) {
      const { asset } = returned.args;
      if (asset.token.toLowerCase() === this.options.sword.toLowerCase()) this.returnedSwords.push(asset.tokenId);
    }
    this.fromBlock = head + 1;
  }

  /** Returns the items of every round that can pay no winner; true when it returned any. */
  private async returnWhatCanGoHome(): Promise<boolean> {
    const { wallet, log = () => undefined } = this.options;
    const raffle = Raffle__factory.connect(this.options.raffle, wallet);
    let returnedAny = false;
    for (const roundId of this.holding) {
      const [, items] = await raffle.getRoundItems(roundId);
      // Status 1 is Escrowed (ItemStatus): what the round still holds.
      if (!items.some((item) => Number(item.status) === 1)) {
        this.holding.delete(roundId);
        continue;
      }
      // Refused while the round can still pay its winners: asked again at the next poll.
      const returnable = await raffle.returnItems.staticCall(roundId).then(
        () => true,
        () => false,
      );
      if (!returnable) continue;
      const tx = await raffle.returnItems(roundId);
      await tx.wait();
      this.returnedRounds += 1;
      returnedAny = true;
      log("items returned to the item wallet", { roundId: roundId.toString(), txHash: tx.hash });
    }
    return returnedAny;
  }
}
