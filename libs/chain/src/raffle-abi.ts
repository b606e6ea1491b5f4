/** `Asset` in the ABI: `tokenType` is uint8 (uint256 only in the EIP-712 types). */
const ASSET = "(uint8 tokenType, address token, uint256 tokenId, uint256 amount)";
/** A ticket of a given round: how claims and refunds name what they settle. */
const TICKET_REF = "(uint256 roundId, uint256 ticketId)";
const RULES = "(uint16[] prizeShares, uint32 minTickets, uint32 maxTicketsPerWallet, (uint32 quantity, uint128 price)[] bundles)";
const ROUND_VIEW =
  `(uint8 status, uint256 startTimestamp, uint256 endTimestamp, uint256 drawnAt, uint256 maxTicket, uint256 ticketCount, ` +
  `uint256 firstTicketId, uint256 winningTicketId, uint256 vrfRequestId, ${ASSET} price, address coordinator, uint256 refundableAt, ` +
  `uint256 vrfVersion, uint256 pot, uint256 randomWord, uint256 winnersCount, uint256 rulesVersion)`;
const ROUND_INFO =
  `(uint256 roundId, uint256 startTimestamp, uint256 endTimestamp, uint256 maxTicket, uint256 prizeNumber, ${ASSET} acceptedAsset, ` +
  `${ASSET} ticketAsset)`;

/**
 * What a player's client (a game backend, the SDK, the player app) calls and reads on a Raffle, as human-readable
 * ABI: the round views, prices, batch claims and refunds, `finishDraw`, the events a purchase and a draw emit, and
 * every error the Raffle can revert with for a player's call, so a refusal decodes to its name. A client carries these
 * lines instead of the generated bindings and their bytecode; raffle-abi.spec.ts holds them equal to the compiled
 * Raffle.
 */
export const RAFFLE_CLIENT_ABI = [
  `function getCurrentRoundInfo() view returns (${ROUND_INFO} info)`,
  `function getRound(uint256 roundId) view returns (${ROUND_VIEW} view_)`,
  `function getWinners(uint256 roundId) view returns ((uint256 ticketId, uint256 share, uint256 amount, uint8 status)[] winners)`,
  `function roundRules() view returns (${RULES})`,
  `function getRoundRules(uint256 roundId) view returns (${RULES})`,
  `function priceOf(uint256 quantity) view returns (${ASSET} price)`,
  "function roundOfTicket(uint256 ticketId) view returns (uint256)",
  "function ticketContract() view returns (address)",
  "function commission() view returns (uint256)",
  "function paused() view returns (bool)",
  "function MAX_TICKETS_PER_PURCHASE() view returns (uint256)",
  "function MAX_BATCH() view returns (uint256)",
  `function claimPrizes(${TICKET_REF}[] tickets)`,
  `function refundTickets(${TICKET_REF}[] tickets)`,
  "function enableRefunds(uint256 roundId)",
  "function finishDraw(uint256 roundId)",
  "event TicketsPurchased(uint256 indexed roundId, address indexed account, uint256 indexed firstTicketId, uint256 quantity, uint256 amount, uint256 externalId)",
  "event RandomnessReceived(uint256 indexed roundId, uint256 randomWord)",
  "event WinnersDrawn(uint256 indexed roundId, uint256 randomWord, uint256[] ticketIds)",
  "event PrizeClaimed(uint256 indexed roundId, uint256 indexed ticketId, address indexed winner, uint256 prize, uint256 commission)",
  "event RoundRefundable(uint256 indexed roundId)",
  "event TicketRefunded(uint256 indexed roundId, uint256 indexed ticketId, address indexed owner, uint256 amount)",
  "error RafflePaused()",
  "error NoActiveRound()",
  "error RoundFull(uint256 maxTicket, uint256 left)",
  "error InvalidQuantity(uint256 quantity, uint256 max)",
  "error WalletLimitReached(address account, uint256 held, uint256 quantity, uint256 max)",
  "error PriceMismatch()",
  "error InvalidTicketAsset()",
  "error WrongNativeValue(uint256 expected, uint256 actual)",
  "error InvalidBatchSize(uint256 size, uint256 max)",
  "error TicketNotInRound(uint256 roundId, uint256 ticketId)",
  "error NoPrizeToClaim(uint256 roundId, uint256 ticketId)",
  "error UnexpectedRoundStatus(uint256 roundId, uint8 status)",
  "error NotTicketOwnerOrApproved(uint256 ticketId, address caller)",
  "error RandomnessNotTimedOut(uint256 roundId, uint256 refundableAt)",
] as const;

/**
 * What a client asks the platform's factory: the merchant of a raffle it deployed (the zero address for any other
 * contract). A raffle's own `factory()` is no proof: a look-alike names a "factory" of its own that says what it likes.
 */
export const RAFFLE_FACTORY_CLIENT_ABI = ["function merchantOf(address raffle) view returns (address merchant)"] as const;

/** What a client reads of a ticket: its state (`TicketStatus` below) and its on-chain JSON metadata. */
export const RAFFLE_TICKET_CLIENT_ABI = [
  "function ticketState(uint256 ticketId) view returns ((uint256 roundId, uint256 tier, uint256 price, uint8 status, bool won, uint256 position) state)",
  "function tokenURI(uint256 ticketId) view returns (string)",
] as const;

/** `RoundStatus` of the Raffle (numbers are stored on-chain: new states are appended, never renumbered). */
export enum RoundStatus {
  None = 0,
  Active = 1,
  Drawing = 2,
  Drawn = 3,
  Closed = 4,
  Refundable = 5,
  Claimed = 6,
  Released = 7,
  WinnersPending = 8,
}

/** `PrizeStatus` of a winner position. */
export enum PrizeStatus {
  None = 0,
  Unclaimed = 1,
  Claimed = 2,
  Released = 3,
}

/** `TicketStatus` of `RaffleTicket.ticketState` (what a ticket stands for now; new states are appended). */
export enum TicketStatus {
  Open = 0,
  Lost = 1,
  Won = 2,
  PrizeClaimed = 3,
  PrizeReleased = 4,
  Refundable = 5,
  Refunded = 6,
}
