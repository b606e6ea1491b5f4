// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {Bundle} from "../interfaces/IRaffle.sol";
import {BundlePrice} from "../libraries/BundlePrice.sol";
import {DrawRule} from "../libraries/DrawRule.sol";
import {PrizeSplit} from "../libraries/PrizeSplit.sol";

/// @notice Test only: the raffle's rule libraries behind external functions, so the contract tests can check them
/// against the shared vectors (libs/chain/src/rules/vectors.json) that the TypeScript rules are checked against too.
/// @dev The storage-reading rules get their input copied into storage first, as the raffle keeps it; call the
/// non-view functions with `staticCall`.
contract RulesHarness {
    uint16[] private _shares;
    Bundle[] private _bundles;

    /// @notice Every position's prize before commission.
    function prizes(uint256 pot, uint16[] calldata shares) external returns (uint256[] memory amounts) {
        _shares = shares;
        amounts = new uint256[](shares.length);
        for (uint256 position; position < shares.length; ++position) {
            amounts[position] = PrizeSplit.prizeOf(_shares, pot, position);
        }
    }

    function commissionOf(uint256 amount, uint256 rate) external pure returns (uint256) {
        return PrizeSplit.commissionOf(amount, rate);
    }

    function winners(uint256 randomWord, uint256 firstTicketId, uint256 ticketCount, uint256 winnersCount)
        external
        pure
        returns (uint256[] memory)
    {
        return DrawRule.winners(randomWord, firstTicketId, ticketCount, winnersCount);
    }

    /// @notice The per-ticket price and tier a purchase of `quantity` gets.
    function bundlePrice(Bundle[] calldata bundles, uint256 unitPrice, uint256 quantity)
        external
        returns (uint256 perTicket, uint24 tier)
    {
        delete _bundles;
        for (uint256 i; i < bundles.length; ++i) {
            _bundles.push(bundles[i]);
        }
        return BundlePrice.perTicket(_bundles, unitPrice, quantity);
    }
}
