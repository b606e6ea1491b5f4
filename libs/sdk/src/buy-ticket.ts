import { Contract, Interface, type Signer } from "ethers";
import { ERC20_CLIENT_ABI, EXCHANGE_CLIENT_ABI, RAFFLE_CLIENT_ABI, TokenType, buildPurchaseArgs } from "@raffle/chain";

import type { RaffleApi } from "./api-client";
import type { Round, SignTicketRequest, TicketSignature } from "./types";

export interface BuyTicketOptions {
  api: RaffleApi;
  /** The buyer's wallet, connected to a provider. */
  signer: Signer;
  contractId: number;
  /** The platform's Exchange: the voucher's verifying contract. */
  exchange: string;
  referrer?: string;
  /**
   * How many tickets to buy in one purchase (default 1), up to the raffle's per-purchase maximum. The API signs the
   * price the round's rules give that quantity (bundle prices), and that is what is approved and paid.
   */
  quantity?: number;
}

export interface BoughtTicket {
  /** The first ticket bought (the only one for a quantity of 1). */
  ticketId: bigint;
  /** Every ticket bought, consecutive ids. */
  ticketIds: bigint[];
  txHash: string;
  round: Round;
  voucher: TicketSignature;
  /** Native value sent, wei. */
  value: bigint;
}

/**
 * Buys tickets the way spec §1 says: (1) find the raffle in GET /raffle/contracts, (2) read its current round,
 * (3) get a voucher from POST /raffle/ticket/sign, (4) call purchaseRaffle with the spec 4.5 mapping; it approves
 * the Exchange first when an ERC20 price needs more allowance. A `quantity` above 1 is sent in the sign request, and
 * the purchase carries the quantity and the total price the API signed for it.
 */
export async function buyTicket(options: BuyTicketOptions): Promise<BoughtTicket> {
  const { api, signer, contractId, exchange } = options;
  const account = await signer.getAddress();
  const { chainId } = await signer.provider!.getNetwork();

  const raffles = await api.listAllRaffleContracts(Number(chainId));
  const raffle = raffles.find((contract) => contract.id === contractId);
  if (!raffle) throw new Error(`raffle contract ${contractId} is not listed for this API key on chain ${chainId}`);
  const round = await api.currentRound(contractId);
  const quantity = options.quantity ?? 1;
  if (!Number.isSafeInteger(quantity) || quantity < 1) throw new RangeError(`quantity must be a whole number of tickets, 1 or more: ${quantity}`);
  // Without a quantity the body is exactly the spec's; `quantity` is raffle v2's field of the same request.
  const request: SignTicketRequest = { account, referrer: options.referrer, contractId };
  if (options.quantity !== undefined) request.quantity = quantity;
  const voucher = await api.signTicket(request);
  if (BigInt(voucher.item.amount) !== BigInt(quantity))
    throw new Error(`the API signed ${voucher.item.amount} tickets where ${quantity} were asked: is it older than raffle v2?`);
  const args = buildPurchaseArgs(round, voucher, voucher.params.referrer, { quantity: BigInt(quantity), amount: BigInt(voucher.price.amount) });

  // The purchase's nonce follows the approve's, given explicitly: ethers' provider answers a repeated call from a
  // 250 ms cache, so on a chain that mines the approve within that time the "pending" nonce it reports for the
  // purchase is the approve's own (NONCE_EXPIRED). A NonceManager signer sets its own nonce and ignores this one.
  let nonce: number | undefined;
  if (args.price.tokenType === TokenType.ERC20) {
    const token = new Contract(args.price.token, ERC20_CLIENT_ABI, signer);
    const allowance: bigint = await token.allowance(account, exchange);
    if (allowance < args.price.amount) {
      const approval = await token.approve(exchange, args.price.amount);
      await approval.wait();
      nonce = approval.nonce + 1;
    }
  }
  const tx = await new Contract(exchange, EXCHANGE_CLIENT_ABI, signer).purchaseRaffle(args.params, args.item, args.price, args.signature, {
    value: args.value,
    ...(nonce === undefined ? {} : { nonce }),
  });
  const receipt = (await tx.wait())!;
  const raffleEvents = new Interface(RAFFLE_CLIENT_ABI);
  const purchased = receipt.logs
    .filter((log: { address: string }) => log.address.toLowerCase() === args.params.receiver.toLowerCase())
    .map((log: { topics: string[]; data: string }) => raffleEvents.parseLog(log))
    .find((parsed: { name: string } | null) => parsed?.name === "TicketsPurchased");
  if (!purchased) throw new Error(`purchase ${tx.hash} minted no ticket`);
  const firstTicketId = purchased.args.firstTicketId as bigint;
  const ticketIds = Array.from({ length: Number(purchased.args.quantity as bigint) }, (_, index) => firstTicketId + BigInt(index));
  return { ticketId: firstTicketId, ticketIds, txHash: tx.hash, round, voucher, value: args.value };
}
