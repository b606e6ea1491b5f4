/** Enumerated values of the API resources (spec 2 and 3, completed where the spec shows only observed values). */

export enum ContractStatus {
  ACTIVE = "ACTIVE",
  INACTIVE = "INACTIVE",
}

export enum ContractType {
  NATIVE = "NATIVE",
  ERC20 = "ERC20",
  ERC721 = "ERC721",
  ERC998 = "ERC998",
  ERC1155 = "ERC1155",
}

export enum ContractFeature {
  RANDOM = "RANDOM",
  ALLOWANCE = "ALLOWANCE",
  PAUSABLE = "PAUSABLE",
}

/** RAFFLE: raffles and their tickets; HIERARCHY: plain token contracts; SYSTEM: the platform's own contracts. */
export enum ContractModule {
  RAFFLE = "RAFFLE",
  HIERARCHY = "HIERARCHY",
  SYSTEM = "SYSTEM",
}

export enum ContractSecurity {
  ACCESS_CONTROL = "ACCESS_CONTROL",
}

export enum TemplateStatus {
  ACTIVE = "ACTIVE",
  INACTIVE = "INACTIVE",
}

export enum TokenStatus {
  MINTED = "MINTED",
  BURNED = "BURNED",
}

/** Mirrors the on-chain RoundStatus of the Raffle contract. */
export enum RoundStatus {
  ACTIVE = "ACTIVE",
  DRAWING = "DRAWING",
  DRAWN = "DRAWN",
  CLOSED = "CLOSED",
  REFUNDABLE = "REFUNDABLE",
  CLAIMED = "CLAIMED",
  RELEASED = "RELEASED",
  /** The VRF word arrived; the winners are still to be drawn (by the callback's gas, or anyone's `finishDraw`). */
  WINNERS_PENDING = "WINNERS_PENDING",
}

/** Where one winner position's prize stands (on-chain `PrizeStatus` of `getWinners`). */
export enum PrizeClaimStatus {
  UNCLAIMED = "UNCLAIMED",
  CLAIMED = "CLAIMED",
  RELEASED = "RELEASED",
}

/** A ticket's life, as its contract tells it: a winning ticket whose pot was paid out says so. */
export enum TicketStatus {
  ACTIVE = "ACTIVE",
  REFUNDED = "REFUNDED",
  /** The winning ticket's owner claimed the pot (on-chain `prizeStatus` Claimed). */
  PRIZE_CLAIMED = "PRIZE_CLAIMED",
  /** The merchant took the unclaimed pot after the time lag (on-chain `prizeStatus` Released). */
  PRIZE_RELEASED = "PRIZE_RELEASED",
}

export enum ClaimType {
  RAFFLE_PRIZE = "RAFFLE_PRIZE",
  VOUCHER = "VOUCHER",
  /** What a ticket of a refundable round paid, taken back with `refundTickets`. */
  RAFFLE_REFUND = "RAFFLE_REFUND",
  /** The item a winner position carries (issue #53), sent to the ticket's holder by `claimPrizes`. */
  RAFFLE_ITEM = "RAFFLE_ITEM",
}

/** Where an escrowed item prize of a round is (on-chain `ItemStatus` of `getRoundItems`). */
export enum RoundItemStatus {
  ESCROWED = "ESCROWED",
  CLAIMED = "CLAIMED",
  RETURNED = "RETURNED",
}

export enum ClaimStatus {
  NEW = "NEW",
  REDEEMED = "REDEEMED",
  EXPIRED = "EXPIRED",
  CANCELED = "CANCELED",
  RELEASED = "RELEASED",
}

export enum IndexedEventStatus {
  APPLIED = "APPLIED",
  UNKNOWN = "UNKNOWN",
  MALFORMED = "MALFORMED",
}
