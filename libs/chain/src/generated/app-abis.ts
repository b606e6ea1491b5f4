// Generated from contracts/artifacts by libs/chain/scripts/abi-generate.cjs (`npm --workspace libs/chain run abi:generate`).
/**
 * What the player app and the merchant console call on the contracts, beyond the client ABIs.
 */

/**
 * Every error a purchase through the Exchange can revert with, from the Exchange, the raffle it calls and an ERC-20
 * price token, so a refusal decodes into its name and then into a sentence.
 */
export const PURCHASE_ERRORS_ABI = [
  "error SignatureExpired(uint256 expiresAt)",
  "error NonceAlreadyUsed(bytes32 nonce)",
  "error InvalidSignature()",
  "error InvalidSigner(address recovered)",
  "error WrongPaymentValue(uint256 expected, uint256 actual)",
  "error EnforcedPause()",
  "error RoundFull(uint256 maxTicket, uint256 left)",
  "error InvalidQuantity(uint256 quantity, uint256 max)",
  "error WalletLimitReached(address account, uint256 held, uint256 quantity, uint256 max)",
  "error RafflePaused()",
  "error NoActiveRound()",
  "error PriceMismatch()",
  "error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed)",
  "error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)",
] as const;

/**
 * What the console's wallet calls on the factory (deployRaffle and the draw budget), with what a deployment can revert
 * with, the raffle's constructor included.
 */
export const CONSOLE_FACTORY_ABI = [
  "function deployRaffle((uint256 commission, uint256 timeLagBeforeRelease, string ticketName, string ticketSymbol) config) returns (address raffle, address ticket)",
  "function drawsUsedToday(address merchant) view returns (uint256)",
  "function drawsPerDayOf(address merchant) view returns (uint256)",
  "event RaffleDeployed(address indexed merchant, address indexed raffle, address indexed ticket, uint256 commission, uint256 timeLagBeforeRelease)",
  "error AccessControlUnauthorizedAccount(address account, bytes32 neededRole)",
  "error VrfNotConfigured()",
  "error CommissionTooHigh(uint256 commission, uint256 max)",
  "error TimeLagTooShort(uint256 timeLag, uint256 min)",
] as const;

/**
 * What the console's wallet calls on a raffle (round rules, startRound, pause and unpause), with what they can revert
 * with, the factory's checks of a round's price token included.
 */
export const CONSOLE_RAFFLE_ABI = [
  "function roundRules() view returns ((uint16[] prizeShares, uint32 minTickets, uint32 maxTicketsPerWallet, (uint32 quantity, uint128 price)[] bundles))",
  "function setRoundRules((uint16[] prizeShares, uint32 minTickets, uint32 maxTicketsPerWallet, (uint32 quantity, uint128 price)[] bundles) rules)",
  "function startRound((uint8 tokenType, address token, uint256 tokenId, uint256 amount) ticket, (uint8 tokenType, address token, uint256 tokenId, uint256 amount) price, uint256 maxTicket)",
  "function ticketContract() view returns (address)",
  "function pause()",
  "function unpause()",
  "error InvalidPrizeShares(uint256 count, uint256 sum)",
  "error InvalidBundle(uint256 index)",
  "error BundleAboveRoundPrice(uint256 index)",
  "error MaxTicketBelowMinimum(uint256 maxTicket, uint256 required)",
  "error AccessControlUnauthorizedAccount(address account, bytes32 neededRole)",
  "error RoundStillActive(uint256 roundId)",
  "error InvalidPriceAsset()",
  "error InvalidTicketAsset()",
  "error MaxTicketTooLarge(uint256 maxTicket)",
  "error RafflePaused()",
  "error RaffleNotPaused()",
  "error PriceTokenNotAllowed(address token)",
  "error NotAContract(address token)",
  "error MerchantNotActive(address merchant)",
] as const;

/**
 * A raffle's item prizes, for the player app (the next round's items and a round's escrowed items) and the console
 * (setItemPrizes, returnItems), with what those calls can revert with.
 */
export const ITEM_PRIZES_ABI = [
  "function itemPrizes() view returns (address merchant, (uint256 position, (uint8 tokenType, address token, uint256 tokenId, uint256 amount) asset)[] items)",
  "function getRoundItems(uint256 roundId) view returns (address merchant, (uint256 position, (uint8 tokenType, address token, uint256 tokenId, uint256 amount) asset, uint8 status)[] items)",
  "function setItemPrizes((uint256 position, (uint8 tokenType, address token, uint256 tokenId, uint256 amount) asset)[] items)",
  "function returnItems(uint256 roundId)",
  "error InvalidItemPrize(uint256 index)",
  "error ItemNotEscrowed(uint256 position, bytes reason)",
  "error ItemAmountMismatch(uint256 expected, uint256 moved)",
  "error NoItemsToReturn(uint256 roundId)",
  "error PrizeNotReleasableYet(uint256 roundId, uint256 releasableAt)",
  "error UnexpectedRoundStatus(uint256 roundId, uint8 status)",
] as const;

/**
 * An ERC721 item prize (any ERC721; here as OpenZeppelin's compiles it): its metadata, its owner and the raffle's
 * approval to escrow it.
 */
export const ITEM_ERC721_ABI = [
  "function name() view returns (string)",
  "function tokenURI(uint256 tokenId) view returns (string)",
  "function ownerOf(uint256 tokenId) view returns (address)",
  "function getApproved(uint256 tokenId) view returns (address)",
  "function isApprovedForAll(address owner, address operator) view returns (bool)",
  "function setApprovalForAll(address operator, bool approved)",
  "function supportsInterface(bytes4 interfaceId) view returns (bool)",
] as const;

/**
 * An ERC1155 item prize (any ERC1155; here as OpenZeppelin's compiles it): its metadata URI, a holder's balance and the
 * raffle's approval to escrow it.
 */
export const ITEM_ERC1155_ABI = [
  "function uri(uint256) view returns (string)",
  "function balanceOf(address account, uint256 id) view returns (uint256)",
  "function isApprovedForAll(address account, address operator) view returns (bool)",
  "function setApprovalForAll(address operator, bool approved)",
] as const;
