import { Contract, Interface, type ContractRunner, type Signer } from "ethers";
import { RAFFLE_CLIENT_ABI } from "@raffle/chain";

/** A ticket of a given round, as `claimPrizes` and `refundTickets` name it (ids as the API or the chain give them). */
export interface TicketRef {
  roundId: string | number | bigint;
  ticketId: string | number | bigint;
}

/** One ticket settled by a claim (its prize, less `commission`) or by a refund (`amount` is the price it paid back). */
export interface SettledTicket {
  roundId: bigint;
  ticketId: bigint;
  /** Who was paid: the ticket's owner. */
  account: string;
  amount: bigint;
  /** Commission taken off a prize; 0 for a refund. */
  commission: bigint;
  txHash: string;
}

/** An item prize (issue #53) a claim sent to a winning ticket's holder (`ItemClaimed`). */
export interface ClaimedItem {
  roundId: bigint;
  ticketId: bigint;
  /** The winner position it was for: 1 = first prize. */
  position: number;
  /** Who received it: the ticket's owner. */
  winner: string;
  /** The item: `tokenType` as the contract's TokenType index (2 = ERC721, 4 = ERC1155, 1 = ERC20), amounts in smallest units. */
  asset: { tokenType: number; token: string; tokenId: bigint; amount: bigint };
  txHash: string;
}

/**
 * An item prize a claim could not send (`ItemTransferFailed`: the receiver refused it, or its token is paused): it
 * stays in escrow and a later claim of the same ticket sends it; the ticket's share was paid all the same.
 */
export interface FailedItem {
  roundId: bigint;
  position: number;
  to: string;
  /** The token's or receiver's revert data. */
  reason: string;
  txHash: string;
}

export interface Settlement {
  txHashes: string[];
  tickets: SettledTicket[];
  /** Item prizes sent with the claimed shares (always empty for refunds). */
  items: ClaimedItem[];
  /** Item prizes a claim could not send, still claimable (always empty for refunds). */
  failedItems: FailedItem[];
}

/** The Raffle's most tickets per claim or refund call (`MAX_BATCH`): larger lists are sent in several calls. */
export const MAX_TICKETS_PER_BATCH = 100;

const raffleInterface = new Interface(RAFFLE_CLIENT_ABI);

/** A Raffle at `address` with the client ABI (`RAFFLE_CLIENT_ABI`): reads with a provider, sends with a signer. */
export function raffleContract(address: string, runner: ContractRunner): Contract {
  return new Contract(address, RAFFLE_CLIENT_ABI, runner);
}

/**
 * Claims the prizes of winning tickets, across rounds of one raffle, in as few transactions as the contract allows
 * (`claimPrizes`, up to 100 tickets each): each position's share of the pot and the item prize it carries, if any. The
 * signer must own (or be approved for) every ticket; the prizes and items go to the tickets' owners. A ticket without
 * a prize to claim makes its call revert (`NoPrizeToClaim`): nothing is paid then. A ticket whose item could not be
 * sent (`failedItems`) may be claimed again for that item alone.
 */
export function claimPrizes(raffle: string, tickets: readonly TicketRef[], signer: Signer): Promise<Settlement> {
  return settle(raffle, "claimPrizes", "PrizeClaimed", tickets, signer);
}

/**
 * Refunds tickets of refundable rounds (below their minimum, or whose draw did not come), across rounds of one raffle:
 * each ticket is burnt and what it paid goes back to its owner (`refundTickets`, up to 100 tickets per call).
 */
export function refundTickets(raffle: string, tickets: readonly TicketRef[], signer: Signer): Promise<Settlement> {
  return settle(raffle, "refundTickets", "TicketRefunded", tickets, signer);
}

async function settle(
  raffle: string,
  call: "claimPrizes" | "refundTickets",
  event: "PrizeClaimed" | "TicketRefunded",
  tickets: readonly TicketRef[],
  signer: Signer,
): Promise<Settlement> {
  if (tickets.length === 0) throw new RangeError(`${call} needs at least one ticket`);
  const refs = tickets.map((ticket) => ({ roundId: BigInt(ticket.roundId), ticketId: BigInt(ticket.ticketId) }));
  const contract = raffleContract(raffle, signer);
  const settlement: Settlement = { txHashes: [], tickets: [], items: [], failedItems: [] };
  let nonce: number | undefined;
  for (let start = 0; start < refs.length; start += MAX_TICKETS_PER_BATCH) {
    // Each batch's nonce follows the previous one's, given explicitly: ethers' provider answers a repeated nonce query
    // from a 250 ms cache (see buyTicket).
    const tx = await contract[call](refs.slice(start, start + MAX_TICKETS_PER_BATCH), nonce === undefined ? {} : { nonce });
    const receipt = (await tx.wait())!;
    nonce = tx.nonce + 1;
    settlement.txHashes.push(tx.hash);
    for (const log of receipt.logs) {
      if (log.address.toLowerCase() !== raffle.toLowerCase()) continue;
      const parsed = raffleInterface.parseLog(log);
      if (parsed?.name === "ItemClaimed") {
        const { roundId, ticketId, winner, position, asset } = parsed.args;
        const item = { tokenType: Number(asset.tokenType), token: asset.token, tokenId: asset.tokenId, amount: asset.amount };
        settlement.items.push({ roundId, ticketId, position: Number(position), winner, asset: item, txHash: tx.hash });
      }
      if (parsed?.name === "ItemTransferFailed") {
        const { roundId, position, to, reason } = parsed.args;
        settlement.failedItems.push({ roundId, position: Number(position), to, reason, txHash: tx.hash });
      }
      if (parsed?.name !== event) continue;
      const { roundId, ticketId } = parsed.args;
      settlement.tickets.push({
        roundId,
        ticketId,
        account: event === "PrizeClaimed" ? parsed.args.winner : parsed.args.owner,
        amount: event === "PrizeClaimed" ? parsed.args.prize : parsed.args.amount,
        commission: event === "PrizeClaimed" ? parsed.args.commission : 0n,
        txHash: tx.hash,
      });
    }
  }
  return settlement;
}
