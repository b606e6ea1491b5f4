// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IRaffleTicketDeployer} from "./interfaces/IDeployers.sol";
import {RaffleTicket} from "./RaffleTicket.sol";

/// @notice Creates ticket contracts for raffles. It exists so the factory's code does not have to carry both the
/// raffle's and the ticket's creation code, which together pass the 24 KiB contract size limit.
/// @dev The caller becomes the ticket's raffle, so anyone may call it: a ticket is only useful to its own caller.
contract RaffleTicketDeployer is IRaffleTicketDeployer {
    function deployTicket(string calldata name, string calldata symbol) external returns (address) {
        return address(new RaffleTicket(name, symbol, msg.sender));
    }
}
