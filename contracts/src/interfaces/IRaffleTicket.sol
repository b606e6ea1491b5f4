// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";

/// @notice What a winning ticket still carries. A ticket that never won stays `None`; a won ticket is `Unclaimed`
/// until its owner takes the pot (`Claimed`) or the merchant takes an unclaimed pot after the time lag (`Released`).
/// Either way a settled ticket says so, so it can never be sold as if it still carried the pot.
enum PrizeStatus {
    None,
    Unclaimed,
    Claimed,
    Released
}

/// @notice What a ticket remembers of its purchase. Packed into one storage slot.
struct TicketData {
    uint64 roundId;
    uint64 serial;
    uint120 externalId;
    PrizeStatus prizeStatus;
}

/// @notice The ERC721 tickets of one raffle, which alone mints, flags and burns them.
interface IRaffleTicket is IERC721 {
    error CallerNotRaffle(address caller);
    error CallerNotRaffleAdmin(address caller);
    error ExternalIdTooLarge(uint256 externalId);

    /// @notice Mints ticket `ticketId` of round `roundId` to `to`. Raffle only.
    function mintTicket(address to, uint256 ticketId, uint256 roundId, uint256 serial, uint256 externalId) external;

    /// @notice Records what a winning ticket carries now, and emits ERC-4906 `MetadataUpdate`. Raffle only.
    function setPrizeStatus(uint256 ticketId, PrizeStatus status) external;

    /// @notice Burns a refunded ticket. Raffle only.
    function burn(uint256 ticketId) external;

    function getTicketData(uint256 ticketId) external view returns (TicketData memory);
}
