// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {VrfConfig} from "./IRaffle.sol";

/// @notice What a merchant chooses when it deploys a raffle.
struct RaffleConfig {
    uint256 commission;
    uint256 timeLagBeforeRelease;
    string ticketName;
    string ticketSymbol;
}

interface IRaffleFactory {
    /// @notice One raffle and its ticket contract were deployed for `merchant`, which administers them.
    event RaffleDeployed(
        address indexed merchant,
        address indexed raffle,
        address indexed ticket,
        uint256 commission,
        uint256 timeLagBeforeRelease
    );
    event VrfConfigSet(address indexed coordinator, bytes32 keyHash, uint256 subscriptionId);

    error ZeroAddress();
    error InvalidVrfConfig();

    /// @notice Deploys a raffle administered by the caller, wired to the platform's Exchange and VRF subscription.
    function deployRaffle(RaffleConfig calldata config) external returns (address raffle, address ticket);

    function vrfConfig() external view returns (VrfConfig memory);
}
