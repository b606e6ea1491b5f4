// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// @notice Test-only: an attacker's stand-in for the platform's factory behind a look-alike raffle (the genuine Raffle
/// bytecode, pointed at the real Exchange). It authorises any round and says every raffle has a merchant, so only the
/// platform's own factory and Exchange can tell the look-alike apart.
contract LookAlikeFactory {
    function authorizeRound(address) external pure returns (uint32) {
        return 1;
    }

    function merchantOf(address) external view returns (address) {
        return address(this);
    }
}
