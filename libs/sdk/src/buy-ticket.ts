import { Contract, Interface, type Signer } from "ethers";
import { EXCHANGE_CLIENT_ABI, TICKET_TRANSFER_ABI, TokenType, buildPurchaseArgs } from "@raffle/chain";

import type { RaffleApi } from "./api-client";
import type { Round, TicketSignature } from "./types";

const ERC20_ABI = [
  "function allowance(address owner, address spender) view returns (uint256)",
  "function approve(address spender, uint256 amount) returns (bool)",
];

export interface BuyTicketOptions {
  api: RaffleApi;
  /** The buyer's wallet, connected to a provider. */
  signer: Signer;
  contractId: number;
  /** The platform's Exchange: the voucher's verifying contract. */
  exchange: string;
  referrer?: string;
}

export interface BoughtTicket {
  ticketId: bigint;
  txHash: string;
  round: Round;
  voucher: TicketSignature;
  /** Native value sent, wei. */
  value: bigint;
}

/**
 * Buys one ticket the way spec §1 says: (1) find the raffle in GET /raffle/contracts, (2) read its current round,
 * (3) get a voucher from POST /raffle/ticket/sign, (4) call purchaseRaffle with the spec 4.5 mapping; it approves
 * the Exchange first when an ERC20 price needs more allowance.
 */
export async function buyTicket(options: BuyTicketOptions): Promise<BoughtTicket> {
  const { api, signer, contractId, exchange } = options;
  const account = await signer.getAddress();
  const { chainId } = await signer.provider!.getNetwork();

  const raffles = await api.listAllRaffleContracts(Number(chainId));
  const raffle = raffles.find((contract) => contract.id === contractId);
  if (!raffle) throw new Error(`raffle contract ${contractId} is not listed for this API key on chain ${chainId}`);
  const round = await api.currentRound(contractId);
  const voucher = await api.signTicket({ account, referrer: options.referrer, contractId });
  const args = buildPurchaseArgs(round, voucher, voucher.params.referrer);

  // The purchase's nonce follows the approve's, given explicitly: ethers' provider answers a repeated call from a
  // 250 ms cache, so on a chain that mines the approve within that time the "pending" nonce it reports for the
  // purchase is the approve's own (NONCE_EXPIRED). A NonceManager signer sets its own nonce and ignores this one.
  let nonce: number | undefined;
  if (args.price.tokenType === TokenType.ERC20) {
    const token = new Contract(args.price.token, ERC20_ABI, signer);
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
  const ticketEvents = new Interface(TICKET_TRANSFER_ABI);
  const minted = receipt.logs
    .filter((log: { address: string }) => log.address.toLowerCase() === args.item.token.toLowerCase())
    .map((log: { topics: string[]; data: string }) => ticketEvents.parseLog(log))
    .find((parsed: { name: string } | null) => parsed?.name === "Transfer");
  if (!minted) throw new Error(`purchase ${tx.hash} minted no ticket`);
  return { ticketId: minted.args.tokenId as bigint, txHash: tx.hash, round, voucher, value: args.value };
}
