// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {Bundle} from "../interfaces/IRaffle.sol";

/// @notice What a ticket costs when a round sells bundles: bundles are sorted by quantity, and a purchase pays the
/// per-ticket price of the largest bundle it reaches.
/// @dev The raffle prices purchases and refunds with it; the player app shows the same prices from
/// libs/chain/src/rules/bundle-price.ts, and both are checked against libs/chain/src/rules/vectors.json.
library BundlePrice {
    /// @notice The per-ticket price of the largest bundle whose quantity is at most `quantity`, and its tier (1-based;
    /// 0 = no bundle, the round's `unitPrice`). A ticket's tier is what its refund pays back.
    function perTicket(Bundle[] storage bundles, uint256 unitPrice, uint256 quantity)
        internal
        view
        returns (uint256 price, uint24 tier)
    {
        price = unitPrice;
        for (uint256 i; i < bundles.length; ++i) {
            Bundle storage bundle = bundles[i];
            if (bundle.quantity > quantity) break;
            price = bundle.price / bundle.quantity;
            tier = uint24(i + 1);
        }
    }

    /// @notice What one ticket of `bundle` pays: exact, since a bundle's price is a multiple of its quantity.
    function ofBundle(Bundle storage bundle) internal view returns (uint256) {
        return bundle.price / bundle.quantity;
    }
}
