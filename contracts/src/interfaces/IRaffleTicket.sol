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

/// @notice The ERC721 tickets of one raffle, minted in batches (ERC721A), which that raffle alone mints and burns.
interface IRaffleTicket is IERC721A {
    error CallerNotRaffle(address caller);
    error CallerNotRaffleAdmin(address caller);

    /// @notice ERC-4906: the metadata of every ticket may have changed (a new base URI).
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

    /// @notice The id the next minted ticket will get.
    function nextTicketId() external view returns (uint256);
}
