// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {RaffleSettings} from "./interfaces/IRaffle.sol";
import {Raffle} from "./Raffle.sol";

/// @notice Creates raffles for the factory. It exists so the factory's code does not have to carry the raffle's
/// creation code, which together with the factory's own passes the 24 KiB contract size limit.
/// @dev The caller becomes the raffle's factory, so anyone may call it: a raffle only draws, prices and starts rounds
/// through its own factory, which only serves the raffles it deployed.
contract RaffleDeployer {
    function deployRaffle(RaffleSettings calldata settings) external returns (address) {
        RaffleSettings memory own = settings;
        own.factory = msg.sender;
        return address(new Raffle(own));
    }
}
