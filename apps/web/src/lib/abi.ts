import { parseAbi } from "viem";

import { EXCHANGE_CLIENT_ABI } from "../../../../libs/chain/src/exchange-abi";

/**
 * The Exchange's purchase (one source: libs/chain's client ABI) with the errors a purchase can revert with, from the
 * Exchange and from the raffle it calls, so a refusal is decoded into its name and then into a sentence.
 */
export const PURCHASE_ABI = parseAbi([
  ...EXCHANGE_CLIENT_ABI,
  "error SignatureExpired(uint256 expiresAt)",
  "error NonceAlreadyUsed(bytes32 nonce)",
  "error InvalidSignature()",
  "error InvalidSigner(address recovered)",
  "error WrongPaymentValue(uint256 expected, uint256 actual)",
  "error RoundFull(uint256 maxTicket)",
  "error RafflePaused()",
  "error NoActiveRound()",
  "error PriceMismatch()",
  "error EnforcedPause()",
  "error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed)",
  "error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)",
]);

/** What a ticket holder calls on the raffle. */
export const RAFFLE_ABI = parseAbi([
  "function claimPrize(uint256 roundId)",
  "function refundTicket(uint256 ticketId)",
  "error UnexpectedRoundStatus(uint256 roundId, uint8 status)",
  "error NotTicketOwnerOrApproved(uint256 ticketId, address caller)",
  "error RafflePaused()",
]);
