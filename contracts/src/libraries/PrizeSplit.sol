// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// @notice How a round's pot is shared among its winner positions, and what the merchant keeps of each prize.
/// @dev One rule, written once: the raffle pays with it, and the indexer, the SDK and the player app compute the same
/// amounts from libs/chain/src/rules (both checked against libs/chain/src/rules/vectors.json), so a player is shown
/// exactly what a claim pays.
library PrizeSplit {
    /// @notice Shares and commissions are in basis points: 10,000 is the whole.
    uint256 internal constant BASIS_POINTS = 10_000;

    /// @notice Position `position`'s prize before commission: pot x share / 10,000, rounded down, with the first
    /// position also taking what the rounding of all positions left, so the prizes add up to the pot to the last unit
    /// and no dust is ever stranded in the raffle.
    function prizeOf(uint16[] storage shares, uint256 pot, uint256 position) internal view returns (uint256 amount) {
        if (position != 0) return pot * shares[position] / BASIS_POINTS;
        amount = pot;
        for (uint256 other = 1; other < shares.length; ++other) {
            amount -= pot * shares[other] / BASIS_POINTS;
        }
    }

    /// @notice The merchant's commission on a prize of `amount` at `rate` basis points, rounded down: the winner is
    /// never paid less than the rate says.
    function commissionOf(uint256 amount, uint256 rate) internal pure returns (uint256) {
        return amount * rate / BASIS_POINTS;
    }
}
