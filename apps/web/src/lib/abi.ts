import { parseAbi } from "viem";

import { EXCHANGE_CLIENT_ABI } from "../../../../libs/chain/src/exchange-abi";
import { RAFFLE_CLIENT_ABI } from "../../../../libs/chain/src/raffle-abi";

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
  "error RoundFull(uint256 maxTicket, uint256 left)",
  "error InvalidQuantity(uint256 quantity, uint256 max)",
  "error WalletLimitReached(address account, uint256 held, uint256 quantity, uint256 max)",
  "error RafflePaused()",
  "error NoActiveRound()",
  "error PriceMismatch()",
  "error EnforcedPause()",
  "error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed)",
  "error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)",
]);

/**
 * What a ticket holder calls and reads on the raffle (one source: libs/chain's Raffle client ABI): batch claims and
 * refunds, the round views (`getRound`, `getWinners`) and every error a player's call can revert with.
 */
export const RAFFLE_ABI = parseAbi(RAFFLE_CLIENT_ABI);
