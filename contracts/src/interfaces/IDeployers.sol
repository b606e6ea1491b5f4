// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {RaffleSettings} from "./IRaffle.sol";

// The factory and the raffle call their deployers through these interfaces, never by importing the deployers' sources:
// an import would compile the raffle (or the ticket) again inside every importer's compilation job, and a one-line
// change in Raffle.sol would then cost three via-IR compiles of it instead of one (docs/development.md).

/// @notice Creates raffles; the caller becomes the new raffle's factory.
interface IRaffleDeployer {
    function deployRaffle(RaffleSettings calldata settings) external returns (address raffle);
}

/// @notice Creates ticket contracts; the caller becomes the new ticket's raffle.
interface IRaffleTicketDeployer {
    function deployTicket(string calldata name, string calldata symbol) external returns (address);
}
