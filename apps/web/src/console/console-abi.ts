import { parseAbi } from "viem";

/**
 * What the console's wallet calls: the factory's deployRaffle and draw budget, the raffle's startRound, pause and
 * unpause (contracts/src/interfaces), with the errors they can revert with, decoded into sentences (messages.ts).
 */
export const FACTORY_ABI = parseAbi([
  "struct RaffleConfig { uint256 commission; uint256 timeLagBeforeRelease; string ticketName; string ticketSymbol; }",
  "function deployRaffle(RaffleConfig config) returns (address raffle, address ticket)",
  "function drawsUsedToday(address merchant) view returns (uint256)",
  "function drawsPerDayOf(address merchant) view returns (uint256)",
  "event RaffleDeployed(address indexed merchant, address indexed raffle, address indexed ticket, uint256 commission, uint256 timeLagBeforeRelease)",
  "error AccessControlUnauthorizedAccount(address account, bytes32 neededRole)",
  "error CommissionTooHigh(uint256 commission, uint256 max)",
  "error TimeLagTooShort(uint256 timeLag, uint256 min)",
  "error VrfNotConfigured()",
]);

export const CONSOLE_RAFFLE_ABI = parseAbi([
  "struct Asset { uint8 tokenType; address token; uint256 tokenId; uint256 amount; }",
  "struct Bundle { uint32 quantity; uint128 price; }",
  "struct RoundRules { uint16[] prizeShares; uint32 minTickets; uint32 maxTicketsPerWallet; Bundle[] bundles; }",
  // Raffle v2 (round rules): a raffle without them does not answer roundRules(), and the console skips the step.
  "function roundRules() view returns (RoundRules)",
  "function setRoundRules(RoundRules rules)",
  "error InvalidPrizeShares(uint256 count, uint256 sum)",
  "error InvalidBundle(uint256 index)",
  "error BundleAboveRoundPrice(uint256 index)",
  "error MaxTicketBelowMinimum(uint256 maxTicket, uint256 required)",
  "function startRound(Asset ticket, Asset price, uint256 maxTicket)",
  "function ticketContract() view returns (address)",
  "function pause()",
  "function unpause()",
  "error AccessControlUnauthorizedAccount(address account, bytes32 neededRole)",
  "error RoundStillActive(uint256 roundId)",
  "error PriceTokenNotAllowed(address token)",
  "error NotAContract(address token)",
  "error MerchantNotActive(address merchant)",
  "error InvalidPriceAsset()",
  "error InvalidTicketAsset()",
  "error MaxTicketTooLarge(uint256 maxTicket)",
  "error RafflePaused()",
  "error RaffleNotPaused()",
]);

export const ERC20_METADATA_ABI = parseAbi(["function decimals() view returns (uint8)", "function symbol() view returns (string)"]);
