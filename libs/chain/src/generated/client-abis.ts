// Generated from contracts/artifacts by libs/chain/scripts/abi-generate.cjs (`npm --workspace libs/chain run abi:generate`).
/**
 * What a client of the platform (the SDK, a game backend, the player app) calls and reads on the contracts.
 */

/**
 * A Raffle for a player's client: the round views, prices, batch claims and refunds, `finishDraw`, the events a
 * purchase, a draw and a claim (its share and its item prize) emit, and every error a player's call can revert with, so
 * a refusal decodes to its name.
 */
export const RAFFLE_CLIENT_ABI = [
  "function getCurrentRoundInfo() view returns ((uint256 roundId, uint256 startTimestamp, uint256 endTimestamp, uint256 maxTicket, uint256 prizeNumber, (uint8 tokenType, address token, uint256 tokenId, uint256 amount) acceptedAsset, (uint8 tokenType, address token, uint256 tokenId, uint256 amount) ticketAsset) info)",
  "function getRound(uint256 roundId) view returns ((uint8 status, uint256 startTimestamp, uint256 endTimestamp, uint256 drawnAt, uint256 maxTicket, uint256 ticketCount, uint256 firstTicketId, uint256 winningTicketId, uint256 vrfRequestId, (uint8 tokenType, address token, uint256 tokenId, uint256 amount) price, address coordinator, uint256 refundableAt, uint256 vrfVersion, uint256 pot, uint256 randomWord, uint256 winnersCount, uint256 rulesVersion) view_)",
  "function getWinners(uint256 roundId) view returns ((uint256 ticketId, uint256 share, uint256 amount, uint8 status)[] winners)",
  "function roundRules() view returns ((uint16[] prizeShares, uint32 minTickets, uint32 maxTicketsPerWallet, (uint32 quantity, uint128 price)[] bundles))",
  "function getRoundRules(uint256 roundId) view returns ((uint16[] prizeShares, uint32 minTickets, uint32 maxTicketsPerWallet, (uint32 quantity, uint128 price)[] bundles))",
  "function priceOf(uint256 quantity) view returns ((uint8 tokenType, address token, uint256 tokenId, uint256 amount) price)",
  "function roundOfTicket(uint256 ticketId) view returns (uint256)",
  "function ticketContract() view returns (address)",
  "function commission() view returns (uint256)",
  "function paused() view returns (bool)",
  "function MAX_TICKETS_PER_PURCHASE() view returns (uint256)",
  "function MAX_BATCH() view returns (uint256)",
  "function claimPrizes((uint256 roundId, uint256 ticketId)[] tickets)",
  "function refundTickets((uint256 roundId, uint256 ticketId)[] tickets)",
  "function enableRefunds(uint256 roundId)",
  "function finishDraw(uint256 roundId)",
  "event TicketsPurchased(uint256 indexed roundId, address indexed account, uint256 indexed firstTicketId, uint256 quantity, uint256 amount, uint256 externalId)",
  "event RandomnessReceived(uint256 indexed roundId, uint256 randomWord)",
  "event WinnersDrawn(uint256 indexed roundId, uint256 randomWord, uint256[] ticketIds)",
  "event PrizeClaimed(uint256 indexed roundId, uint256 indexed ticketId, address indexed winner, uint256 prize, uint256 commission)",
  "event ItemClaimed(uint256 indexed roundId, uint256 indexed ticketId, address indexed winner, uint256 position, (uint8 tokenType, address token, uint256 tokenId, uint256 amount) asset)",
  "event ItemTransferFailed(uint256 indexed roundId, uint256 position, address to, bytes reason)",
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
 * The platform's factory, for a client: the merchant of a raffle it deployed (the zero address for any other contract).
 * A raffle's own `factory()` is no proof: a look-alike names a "factory" of its own.
 */
export const RAFFLE_FACTORY_CLIENT_ABI = ["function merchantOf(address raffle) view returns (address merchant)"] as const;

/**
 * A ticket, for a client: its state and its on-chain JSON metadata.
 */
export const RAFFLE_TICKET_CLIENT_ABI = [
  "function ticketState(uint256 ticketId) view returns ((uint256 roundId, uint256 tier, uint256 price, uint8 status, bool won, uint256 position) state)",
  "function tokenURI(uint256 ticketId) view returns (string)",
] as const;

/**
 * The Exchange, for a client of the API: the purchase and the claim a signed voucher pays for.
 */
export const EXCHANGE_CLIENT_ABI = [
  "function purchaseRaffle((uint256 externalId, uint256 expiresAt, bytes32 nonce, bytes32 extra, address receiver, address referrer) params, (uint8 tokenType, address token, uint256 tokenId, uint256 amount) item, (uint8 tokenType, address token, uint256 tokenId, uint256 amount) price, bytes signature) payable",
  "function claim((uint256 externalId, uint256 expiresAt, bytes32 nonce, bytes32 extra, address receiver, address referrer) params, (uint8 tokenType, address token, uint256 tokenId, uint256 amount)[] items, bytes signature)",
] as const;

/**
 * The Exchange's gasless entry points, for whoever builds or submits a relayed call (the API, a relayer, the SDK): the
 * purchases a relayer submits on the buyer's signatures, the claims and refunds it submits on the holder's, and the
 * errors only they revert with, so a refusal decodes to its name. JSON fragments rather than lines: viem's type-level
 * parser refuses these signatures ("invalid at position 2"), and ethers and viem both read JSON.
 */
export const EXCHANGE_GASLESS_ABI = [
  {
    name: "purchaseRaffleWithAuthorization",
    stateMutability: "nonpayable",
    type: "function",
    inputs: [
      {
        name: "params",
        type: "tuple",
        components: [
          { name: "externalId", type: "uint256" },
          { name: "expiresAt", type: "uint256" },
          { name: "nonce", type: "bytes32" },
          { name: "extra", type: "bytes32" },
          { name: "receiver", type: "address" },
          { name: "referrer", type: "address" },
        ],
      },
      {
        name: "item",
        type: "tuple",
        components: [
          { name: "tokenType", type: "uint8" },
          { name: "token", type: "address" },
          { name: "tokenId", type: "uint256" },
          { name: "amount", type: "uint256" },
        ],
      },
      {
        name: "price",
        type: "tuple",
        components: [
          { name: "tokenType", type: "uint8" },
          { name: "token", type: "address" },
          { name: "tokenId", type: "uint256" },
          { name: "amount", type: "uint256" },
        ],
      },
      { name: "voucherSignature", type: "bytes" },
      {
        name: "authorization",
        type: "tuple",
        components: [
          { name: "from", type: "address" },
          { name: "validAfter", type: "uint256" },
          { name: "validBefore", type: "uint256" },
          { name: "signature", type: "bytes" },
        ],
      },
    ],
    outputs: [],
  },
  {
    name: "purchaseRaffleWithPermit",
    stateMutability: "nonpayable",
    type: "function",
    inputs: [
      {
        name: "params",
        type: "tuple",
        components: [
          { name: "externalId", type: "uint256" },
          { name: "expiresAt", type: "uint256" },
          { name: "nonce", type: "bytes32" },
          { name: "extra", type: "bytes32" },
          { name: "receiver", type: "address" },
          { name: "referrer", type: "address" },
        ],
      },
      {
        name: "item",
        type: "tuple",
        components: [
          { name: "tokenType", type: "uint8" },
          { name: "token", type: "address" },
          { name: "tokenId", type: "uint256" },
          { name: "amount", type: "uint256" },
        ],
      },
      {
        name: "price",
        type: "tuple",
        components: [
          { name: "tokenType", type: "uint8" },
          { name: "token", type: "address" },
          { name: "tokenId", type: "uint256" },
          { name: "amount", type: "uint256" },
        ],
      },
      { name: "voucherSignature", type: "bytes" },
      {
        name: "intent",
        type: "tuple",
        components: [
          { name: "buyer", type: "address" },
          { name: "deadline", type: "uint256" },
          { name: "signature", type: "bytes" },
        ],
      },
      {
        name: "permit",
        type: "tuple",
        components: [
          { name: "value", type: "uint256" },
          { name: "deadline", type: "uint256" },
          { name: "v", type: "uint8" },
          { name: "r", type: "bytes32" },
          { name: "s", type: "bytes32" },
        ],
      },
    ],
    outputs: [],
  },
  {
    name: "claimPrizesBySig",
    stateMutability: "nonpayable",
    type: "function",
    inputs: [
      { name: "raffle", type: "address" },
      {
        name: "tickets",
        type: "tuple[]",
        components: [
          { name: "roundId", type: "uint256" },
          { name: "ticketId", type: "uint256" },
        ],
      },
      { name: "holder", type: "address" },
      { name: "deadline", type: "uint256" },
      { name: "signature", type: "bytes" },
    ],
    outputs: [],
  },
  {
    name: "refundTicketsBySig",
    stateMutability: "nonpayable",
    type: "function",
    inputs: [
      { name: "raffle", type: "address" },
      {
        name: "tickets",
        type: "tuple[]",
        components: [
          { name: "roundId", type: "uint256" },
          { name: "ticketId", type: "uint256" },
        ],
      },
      { name: "holder", type: "address" },
      { name: "deadline", type: "uint256" },
      { name: "signature", type: "bytes" },
    ],
    outputs: [],
  },
  { name: "IntentExpired", type: "error", inputs: [{ name: "deadline", type: "uint256" }] },
  { name: "BuyerSignatureInvalid", type: "error", inputs: [{ name: "buyer", type: "address" }] },
  { name: "HolderSignatureInvalid", type: "error", inputs: [{ name: "holder", type: "address" }] },
  {
    name: "PermitRefused",
    type: "error",
    inputs: [
      { name: "token", type: "address" },
      { name: "allowance", type: "uint256" },
    ],
  },
  { name: "AuthorizationUnsupported", type: "error", inputs: [{ name: "token", type: "address" }] },
  { name: "RaffleNotListed", type: "error", inputs: [{ name: "receiver", type: "address" }] },
] as const;

/**
 * The ticket's Transfer event, which names the tickets a purchase minted.
 */
export const TICKET_TRANSFER_ABI = ["event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)"] as const;

/**
 * What a client asks of an ERC-20 price token: its metadata, and the allowance a purchase needs (any ERC-20; here as
 * OpenZeppelin's compiles it).
 */
export const ERC20_CLIENT_ABI = [
  "function name() view returns (string)",
  "function symbol() view returns (string)",
  "function decimals() view returns (uint8)",
  "function allowance(address owner, address spender) view returns (uint256)",
  "function approve(address spender, uint256 value) returns (bool)",
] as const;
