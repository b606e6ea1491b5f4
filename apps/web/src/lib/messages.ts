import { BaseError, ChainMismatchError, ContractFunctionRevertedError, InsufficientFundsError, UserRejectedRequestError } from "viem";

import { ApiError } from "./api";

/** The API's problem codes a player can meet, as sentences (the code is the stable part of an answer, never its text). */
const API_SENTENCES: Record<string, string> = {
  roundFull: "This round is sold out. Try the next round.",
  walletLimitReached: "You already hold the most tickets one wallet may buy in this round.",
  roundEnded: "This round has just ended. The next one starts soon.",
  roundNotFound: "This raffle has not started its first round yet.",
  contractPaused: "This raffle is paused for now. Try again later.",
  contractInactive: "This raffle is closed.",
  exchangePaused: "Ticket sales are paused for now. Try again later.",
  publicRaffleNotFound: "This raffle is not on sale to wallet users.",
  tooManyRequests: "Too many requests in a short time. Wait a minute and try again.",
  sessionRequired: "Your sign-in has ended. Sign in again to continue.",
  siweNonceInvalid: "The sign-in request expired. Please sign in again.",
  siweExpired: "The sign-in request expired. Please sign in again.",
  siweSignatureInvalid: "The signature does not match your wallet's address. Please sign in again.",
  siweDomainMismatch: "This site is not allowed to sign you in to the raffle service.",
  siweMessageInvalid: "The sign-in request could not be read. Please sign in again.",
  chainNotServed: "This network is not served here. Switch to one of the listed networks.",
  signerNotAuthorized: "Ticket sales are unavailable right now. Try again later.",
  chainUnavailable: "The network is not answering right now. Try again in a moment.",
  serviceUnavailable: "The raffle service is busy. Try again in a moment.",
  networkError: "The raffle service cannot be reached. Check your connection and try again.",
  // Buying, claiming and refunding without gas (the API checks a signed request before it queues it).
  voucherUnknown: "This purchase offer was not issued here. Press Buy without gas again for a fresh one.",
  voucherExpired: "What you signed expired before it could be sent. Nothing was charged: press the button again for a fresh one.",
  buyerSignatureInvalid: "The signature does not match your wallet's address or this request. Nothing was charged; please try again.",
  authorizationMismatch: "The signed payment does not match this purchase. Nothing was charged; please try again.",
  insufficientBalance: "Your wallet does not hold enough tokens to pay for these tickets. Nothing was charged.",
  gaslessUnavailable: "Buying without gas is not available for this raffle right now. You can still buy and pay the network fee yourself.",
  gaslessBudgetExhausted: "The organiser's budget for paying network fees is used up for today. Try again tomorrow, or pay the network fee yourself.",
  gaslessPlayerLimitReached: "You have used today's gas-free requests for this organiser. Try again tomorrow, or pay the network fee yourself.",
  roundClosed: "This round has just closed. The next one starts soon.",
  gaslessDuplicate: "This purchase was already sent. Follow it below.",
  notTicketHolder: "These tickets are no longer in your wallet. Reload the page.",
  gaslessRequestNotFound: "This request is not one of yours, or it no longer exists.",
  // The merchant console.
  notAMerchant: "This wallet is not a merchant's wallet on this platform. Connect the wallet your raffles were deployed with.",
  merchantSessionRequired: "Your console sign-in has ended. Sign in with Ethereum again to continue.",
  unauthorized: "Your console sign-in has ended. Sign in with Ethereum again to continue.",
  validationFailed: "Some of what you entered is not valid. Check the fields and try again.",
  contractNotFound: "This raffle is not one of yours, or it is not indexed yet.",
  apiKeyNotFound: "This API key is not one of yours.",
  webhookNotFound: "This webhook endpoint no longer exists.",
  deliveryNotFound: "This delivery no longer exists.",
  webhookUrlInvalid: "The endpoint URL is not a valid http(s) URL.",
  webhookUrlRefused: "This endpoint URL is not allowed: use a public https:// address.",
  webhookLimitReached: "You have the most webhook endpoints allowed. Delete one first.",
  retryLimited: "Too many sends to this endpoint in the last minute. Wait a minute and try again.",
};

/** Contract errors a purchase, claim or refund can revert with, as sentences. */
const REVERT_SENTENCES: Record<string, string> = {
  SignatureExpired: "The purchase offer expired before your transaction was sent. Press Buy again for a fresh one.",
  NonceAlreadyUsed: "This purchase offer was already used. Press Buy again for a fresh one.",
  RoundFull: "This round is sold out. Try the next round.",
  RafflePaused: "This raffle is paused for now. Try again later.",
  EnforcedPause: "Ticket sales are paused for now. Try again later.",
  NoActiveRound: "This round has ended. The next one starts soon.",
  PriceMismatch: "The price changed. Press Buy again.",
  ERC20InsufficientBalance: "Your wallet does not hold enough tokens to pay for this ticket.",
  ERC20InsufficientAllowance: "The token approval is too small. Press Buy again to approve the exact price.",
  UnexpectedRoundStatus: "This ticket cannot do that now: the round's state has changed. Reload the page.",
  NotTicketOwnerOrApproved: "This ticket is no longer in your wallet.",
  // The merchant console's transactions.
  AccessControlUnauthorizedAccount: "This wallet is not allowed to do that: connect the merchant's wallet that administers the raffle.",
  CommissionTooHigh: "The commission is too high: at most 30%.",
  TimeLagTooShort: "Unclaimed prizes must wait at least one day before they can be released.",
  VrfNotConfigured: "The platform's randomness is not set up on this network yet. Try again later.",
  MerchantNotActive: "This wallet is no longer an active merchant on this network.",
  PriceTokenNotAllowed: "This token is not on the platform's list of price tokens.",
  NotAContract: "No token contract lives at this address.",
  InvalidPriceAsset: "The price is not valid: choose the native coin or an ERC20 token with an amount above zero.",
  RoundStillActive: "A round is already running on this raffle.",
  MaxTicketTooLarge: "The ticket cap is too large.",
  RaffleNotPaused: "This raffle is not paused.",
  InvalidPrizeShares: "The prize shares must add up to 100 %, with at most the number of winners the contract allows.",
  InvalidBundle: "Each bundle needs at least 2 tickets, in increasing quantities.",
  BundleAboveRoundPrice: "A bundle may not cost more per ticket than a single ticket.",
  MaxTicketBelowMinimum: "The ticket cap is below the minimum number of tickets.",
  InvalidQuantity: "That many tickets cannot be bought in one purchase. Choose fewer.",
  WalletLimitReached: "You already hold the most tickets one wallet may buy in this round.",
  NoPrizeToClaim: "This ticket has no prize left to claim: it was already paid.",
  TicketNotInRound: "This ticket is not part of that round. Reload the page.",
  // Item prizes (the console: setItemPrizes, startRound's escrow, returnItems).
  InvalidItemPrize: "One of the items is not a valid prize: one item per position from 1 to 20, with an amount above 0.",
  ItemNotEscrowed: "An item prize could not be taken into escrow: the wallet must hold it and have approved the raffle. The round did not start.",
  ItemAmountMismatch: "The item token moved a different amount than asked (a token that charges a fee on transfers): it cannot be a prize.",
  NoItemsToReturn: "This round holds no item to return: every item was claimed or returned already.",
  PrizeNotReleasableYet: "The winners still have time to claim: the items can be returned once the release time has passed.",
};

/** The wallet library's (wagmi's) errors, by name: they are not viem's classes. */
const WALLET_SENTENCES: Record<string, string> = {
  ProviderNotFoundError: "No browser wallet was found. Install one (such as MetaMask or Rabby), then reload this page.",
  ConnectorNotFoundError: "No browser wallet was found. Install one (such as MetaMask or Rabby), then reload this page.",
  ConnectorNotConnectedError: "Your wallet is not connected any more. Connect it again.",
  ConnectorAccountNotFoundError: "Your wallet does not share this account with the site any more. Connect it again.",
  ConnectorChainMismatchError: "Your wallet is on another network. Switch it to this raffle's network and try again.",
  SwitchChainNotSupportedError: "Your wallet cannot switch networks from this page. Switch it to this raffle's network yourself.",
  ChainNotConfiguredError: "This network is not served here. Switch to one of the listed networks.",
};

const SIGN_ON_ACTIVE_CHAIN =
  "Your wallet signs only for the network it is on. Switch it to this raffle's network and press the button again: it still costs no gas.";

const NOT_ENOUGH_FUNDS = "Your wallet does not hold enough to pay for this and its network fee. Nothing was charged.";

/** A sentence a player understands, for anything a step of a purchase, claim or refund can throw. */
export function explain(error: unknown): string {
  const name = (error as { name?: string })?.name;
  if (name && WALLET_SENTENCES[name]) return WALLET_SENTENCES[name];
  if (error instanceof ApiError) return API_SENTENCES[error.code] ?? "The raffle service refused the request. Try again later.";
  if (error instanceof BaseError) {
    if (error.walk((cause) => cause instanceof UserRejectedRequestError)) return "You declined the request in your wallet. Nothing was done.";
    if (error.walk((cause) => cause instanceof InsufficientFundsError)) return NOT_ENOUGH_FUNDS;
    if (error.walk((cause) => cause instanceof ChainMismatchError)) return WALLET_SENTENCES.ConnectorChainMismatchError;
    const reverted = error.walk((cause) => cause instanceof ContractFunctionRevertedError);
    if (reverted instanceof ContractFunctionRevertedError) {
      const name = reverted.data?.errorName ?? "";
      return REVERT_SENTENCES[name] ?? "The network refused the transaction. Nothing was charged.";
    }
    if (/insufficient funds/i.test(error.message)) return NOT_ENOUGH_FUNDS;
  }
  // Some wallets (MetaMask) sign typed data only for the network they are on, whatever the message's own chain.
  if (/must match the active chain/i.test((error as { message?: string })?.message ?? "")) return SIGN_ON_ACTIVE_CHAIN;
  const code = (error as { code?: number })?.code;
  if (code === 4001) return "You declined the request in your wallet. Nothing was done.";
  if (code === 4100) return "Your wallet has not shared an account with this site. Connect it again.";
  if (code === 4902) return "Your wallet does not know this network yet. Add it in your wallet, then switch to it.";
  return "Something went wrong. Nothing was charged; please try again.";
}
