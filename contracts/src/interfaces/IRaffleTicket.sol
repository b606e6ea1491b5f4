// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IERC721A} from "erc721a/contracts/IERC721A.sol";

/// @notice Where a winning ticket's prize stands. A ticket that never won is `None`; a winner is `Unclaimed` until
/// its owner takes the prize (`Claimed`) or the merchant takes an unclaimed prize after the time lag (`Released`).
enum PrizeStatus {
    None,
    Unclaimed,
    Claimed,
    Released
}

/// @notice What a ticket stands for now. `Open` until its round's outcome is known; then `Lost`, or `Won` (prize
/// unclaimed) until its owner takes the prize (`PrizeClaimed`) or the merchant takes an unclaimed prize after the time
/// lag (`PrizeReleased`); in a round that refunds, `Refundable` until refunded (`Refunded`: the ticket was burned).
enum TicketStatus {
    Open,
    Lost,
    Won,
    PrizeClaimed,
    PrizeReleased,
    Refundable,
    Refunded
}

/// @notice One ticket's state, read from its raffle (see `ticketState`).
struct TicketState {
    uint256 roundId;
    /// @dev The price tier it was bought at (0 = the round's price, i = the round's i-th bundle).
    uint256 tier;
    /// @dev What it paid, and what a refund pays back: in the round's price token, smallest unit.
    uint256 price;
    TicketStatus status;
    bool won;
    /// @dev Its winner position (0 = first, as in `Raffle.getWinners`); 0 when it did not win.
    uint256 position;
}

/// @notice The ERC721 tickets of one raffle, minted in batches (ERC721A), which that raffle alone mints and burns.
interface IRaffleTicket is IERC721A {
    error CallerNotRaffle(address caller);
    error CallerNotRaffleAdmin(address caller);
    /// @notice No ticket with this id was ever minted.
    error TicketDoesNotExist(uint256 ticketId);

    /// @notice ERC-4906: the state, and so the metadata, of one ticket changed (its prize claimed, or refunded).
    event MetadataUpdate(uint256 _tokenId);
    /// @notice ERC-4906: the metadata of tickets `_fromTokenId` to `_toTokenId` (inclusive) may have changed (their
    /// round was drawn, became refundable or released its unclaimed prizes; or a new base URI: every ticket).
    event BatchMetadataUpdate(uint256 _fromTokenId, uint256 _toTokenId);

    /// @notice Mints `quantity` consecutive tickets to `to` and returns the first id. `tier` says which price per ticket
    /// they paid (0 = the round's price, i = its i-th bundle), so a refund pays back exactly that. The tickets and
    /// their tier are written first; then, for a contract `to`, each ticket's `onERC721Received` must return its
    /// selector (else ERC721A's `TransferToNonERC721ReceiverImplementer`, or the receiver's own revert). Raffle only.
    function mintTickets(address to, uint256 quantity, uint24 tier) external returns (uint256 firstTicketId);

    /// @notice Burns a refunded ticket. Raffle only.
    function burn(uint256 ticketId) external;

    /// @notice The price tier a ticket was bought at (see `mintTickets`); reverts for a ticket that does not exist.
    function tierOf(uint256 ticketId) external view returns (uint256);

    /// @notice Emits ERC-4906 `MetadataUpdate` (one ticket) or `BatchMetadataUpdate` for tickets `fromTicketId` to
    /// `toTicketId` whose state changed. Raffle only.
    function metadataChanged(uint256 fromTicketId, uint256 toTicketId) external;

    /// @notice What ticket `ticketId` stands for now: its round, price tier and price, whether it won and at which
    /// position, and whether its prize or refund was paid. A refunded (burned) ticket still answers, as `Refunded`;
    /// an id never minted reverts with `TicketDoesNotExist`.
    function ticketState(uint256 ticketId) external view returns (TicketState memory);

    /// @notice The id the next minted ticket will get.
    function nextTicketId() external view returns (uint256);
}
