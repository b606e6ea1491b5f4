// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {PlatformActions} from "./PlatformActions.sol";
import {RoundG, Voucher} from "./HandlerBase.sol";

/// @notice What a contract wallet player does from inside the ERC721 mint callback of its own purchase: the wallet
/// calls `onWalletCallback`, and the handler acts in the middle of the purchase with the usual predictions and books:
/// it buys again as the wallet (the Exchange must refuse), claims a prize or refunds a ticket the wallet holds, or has
/// the merchant release a pot. Every book of the purchase must already be final by then (checks-effects-interactions).
abstract contract WalletActions is PlatformActions {
    /// @notice Called by a contract wallet from its mint callback (see `_armWallet`); forge never calls it (it is not
    /// among the targets), and outside a purchase it does nothing.
    function onWalletCallback() external {
        address wallet = msg.sender;
        if (!inPurchase || !_isWallet(wallet)) return;
        // One re-entry per purchase: a nested purchase's own callback does nothing.
        inPurchase = false;
        uint256 r = callbackRaffle;
        address token = rounds[r][lastRound[r]].token;
        uint256 before = _balance(token, address(raffles[r]));
        uint256 seed = callbackSeed;
        // The planned re-entry if it has something to act on, else the next one that has; a purchase always does.
        bool acted;
        for (uint256 k = 0; k < 3 && !acted && callbackPlan != REENTER_PURCHASE; k++) {
            acted = _reenter(wallet, uint8(1 + (callbackPlan - 1 + k) % 3), seed);
        }
        if (!acted) _reenter(wallet, REENTER_PURCHASE, seed);
        uint256 afterwards = _balance(token, address(raffles[r]));
        if (afterwards > before) _violate(SOLVENCY, "a mint callback's re-entry paid into the raffle");
        else callbackOutflow += before - afterwards;
        _count("wallet.callback");
    }

    /// @dev One re-entry of kind `plan` as (or for) `wallet`; false when there was nothing to act on.
    function _reenter(address wallet, uint8 plan, uint256 seed) internal returns (bool acted) {
        bool found;
        uint256 r;
        uint256 roundId;
        uint256 ticketId;
        if (plan == REENTER_PURCHASE) {
            r = seed % 2;
            if (lastRound[r] == 0) return false;
            Voucher memory v = _validVoucher(r, wallet, seed);
            _sign(v);
            (bool ok, bytes4 err) = _call(wallet, address(exchange), _value(v), _purchaseData(v));
            _checkOutcome(TICKETS, "a purchase from inside a mint callback", false, REENTRANT_CALL, ok, err);
            _count("wallet.reentered.purchaseRefused");
        } else if (plan == REENTER_CLAIM) {
            (found, r, roundId, ticketId) = _walletPrize(wallet, seed);
            if (!found) return false;
            if (_claim(r, _one(roundId, ticketId), wallet)) _count("wallet.reentered.claim");
        } else if (plan == REENTER_REFUND) {
            (found, r, roundId, ticketId) = _walletRefundable(wallet, seed);
            if (!found) return false;
            if (_refund(r, _one(roundId, ticketId), wallet)) _count("wallet.reentered.refund");
        } else {
            (found, r, roundId) = _releasable(seed);
            if (!found) return false;
            if (_release(r, roundId, merchants[r])) _count("wallet.reentered.release");
        }
        return true;
    }

    /// @dev A drawn round whose unclaimed prizes its merchant may release now.
    function _releasable(uint256 seed) internal view returns (bool found, uint256 r, uint256 roundId) {
        for (uint256 i = 0; i < drawnKeys.length; i++) {
            (r, roundId) = _unkey(drawnKeys[(seed + i) % drawnKeys.length]);
            RoundG storage g = rounds[r][roundId];
            if (g.status == S_DRAWN && block.timestamp >= uint256(g.drawnAt) + raffles[r].timeLagBeforeRelease()) {
                return (true, r, roundId);
            }
        }
        return (false, 0, 0);
    }

    /// @dev An unclaimed prize of a drawn round whose ticket `wallet` holds.
    function _walletPrize(address wallet, uint256 seed)
        internal
        view
        returns (bool found, uint256 r, uint256 roundId, uint256 ticketId)
    {
        for (uint256 i = 0; i < drawnKeys.length; i++) {
            (r, roundId) = _unkey(drawnKeys[(seed + i) % drawnKeys.length]);
            RoundG storage g = rounds[r][roundId];
            if (g.status != S_DRAWN) continue;
            for (uint256 position = 0; position < g.winnersCount; position++) {
                ticketId = winnersG[r][roundId][position];
                if (g.claimedMask & (uint32(1) << position) == 0 && _ownerOf(r, ticketId) == wallet) return (true, r, roundId, ticketId);
            }
        }
        return (false, 0, 0, 0);
    }

    /// @dev A ticket of a refundable round that `wallet` holds (the first few tickets of each round are looked at).
    function _walletRefundable(address wallet, uint256 seed)
        internal
        view
        returns (bool found, uint256 r, uint256 roundId, uint256 ticketId)
    {
        for (uint256 k = 0; k < 2; k++) {
            r = (seed + k) % 2;
            for (roundId = 1; roundId <= lastRound[r]; roundId++) {
                RoundG storage g = rounds[r][roundId];
                if (g.status != S_REFUNDABLE) continue;
                uint256 end = g.firstTicketId + (g.tickets < 40 ? g.tickets : 40);
                for (ticketId = g.firstTicketId; ticketId < end; ticketId++) {
                    if (_exists(r, ticketId) && _ownerOf(r, ticketId) == wallet) return (true, r, roundId, ticketId);
                }
            }
        }
        return (false, 0, 0, 0);
    }
}
