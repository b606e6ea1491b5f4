// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// @notice What a ticket remembers of its purchase. Packed into one storage slot.
struct TicketData {
    uint64 roundId;
    uint64 serial;
    uint120 externalId;
    bool prize;
}

interface IRaffleTicket {
    error CallerNotRaffle(address caller);
    error CallerNotRaffleAdmin(address caller);
    error ExternalIdTooLarge(uint256 externalId);

    /// @notice Mints ticket `ticketId` of round `roundId` to `to`. Raffle only.
    function mintTicket(address to, uint256 ticketId, uint256 roundId, uint256 serial, uint256 externalId) external;

    /// @notice Flags a ticket as the winner of its round. Raffle only.
    function setPrize(uint256 ticketId) external;

    /// @notice Burns a refunded ticket. Raffle only.
    function burn(uint256 ticketId) external;

    function getTicketData(uint256 ticketId) external view returns (TicketData memory);
}
