// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {VrfConfig} from "../interfaces/IRaffle.sol";

/// @notice One rule for a usable Chainlink VRF configuration, shared by the factory and every raffle.
library VrfConfigs {
    /// @notice Shortest wait for randomness before ticket holders may take their price back.
    uint256 internal constant MIN_RANDOMNESS_TIMEOUT = 1 hours;
    /// @notice Longest wait: a dead coordinator can hold a pot for at most this long before refunds open.
    uint256 internal constant MAX_RANDOMNESS_TIMEOUT = 7 days;
    /// @notice Lowest callback gas limit: what the VRF callback needs, with every slot cold, to route the answer and
    /// record the word of a 20-winner round (its first step; `finishDraw` draws the winners), about twice over.
    uint32 internal constant MIN_CALLBACK_GAS_LIMIT = 100_000;

    function isValid(VrfConfig memory config) internal pure returns (bool) {
        return config.coordinator != address(0) && config.keyHash != bytes32(0) && config.callbackGasLimit != 0
            && config.randomnessTimeout >= MIN_RANDOMNESS_TIMEOUT && config.randomnessTimeout <= MAX_RANDOMNESS_TIMEOUT;
    }
}
