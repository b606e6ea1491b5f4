// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {vm} from "./utils/Vm.sol";
import {ITokenX} from "./utils/Interfaces.sol";
import {HandlerBase, RoundG, TicketG} from "./HandlerBase.sol";
import {RoundView, VrfConfig} from "../src/interfaces/IRaffle.sol";
import {PrizeStatus, TicketData} from "../src/interfaces/IRaffleTicket.sol";

/// @notice The invariants, as views over the contracts and the model. Each returns "" when it holds, else why not.
/// The invariant test calls them after every step of every sequence.
abstract contract Checks is HandlerBase {
    function _r(uint256 r) private pure returns (string memory) {
        return string.concat("raffle ", vm.toString(r));
    }

    function _round(uint256 r, uint256 id) private pure returns (string memory) {
        return string.concat(_r(r), " round ", vm.toString(id));
    }

    function _pending(uint256 category) private view returns (string memory) {
        if (violations[category] == 0) return "";
        return string.concat(vm.toString(violations[category]), " violation(s), first: ", firstViolation[category]);
    }

    function _tokenIndex(address token) private view returns (uint256) {
        for (uint256 t = 0; t < 7; t++) {
            if (tokens[t] == token) return t;
        }
        return 7;
    }

    /// @notice Each raffle holds, of every token, exactly what it owes (unclaimed pots, open refunds, accrued
    /// commission) plus what was sent to it outside purchases; the contract's own books agree with the model; the
    /// Exchange never keeps a payment.
    function checkSolvency() external view returns (string memory) {
        for (uint256 r = 0; r < 2; r++) {
            uint256[7] memory derived;
            for (uint256 id = 1; id <= lastRound[r]; id++) {
                RoundView memory rv = raffles[r].getRound(id);
                uint256 t = _tokenIndex(rv.price.token);
                if (t == 7) return string.concat(_round(r, id), " is priced in an unknown token");
                uint8 s = uint8(rv.status);
                if (s == S_ACTIVE || s == S_DRAWING || s == S_DRAWN) derived[t] += rv.ticketCount * rv.price.amount;
                else if (s == S_REFUNDABLE) derived[t] += (rv.ticketCount - rounds[r][id].refunded) * rv.price.amount;
            }
            for (uint256 t = 0; t < 7; t++) {
                address token = tokens[t];
                uint256 balance = _balance(token, address(raffles[r]));
                uint256 owes = owed[r][token];
                if (balance < owes) {
                    return string.concat(
                        _r(r), " holds ", vm.toString(balance), " of token ", vm.toString(t), " but owes ", vm.toString(owes)
                    );
                }
                if (balance != owes + donated[r][token]) {
                    return string.concat(
                        _r(r),
                        " holds ",
                        vm.toString(balance),
                        " of token ",
                        vm.toString(t),
                        ", not what it owes plus donations: ",
                        vm.toString(owes + donated[r][token])
                    );
                }
                derived[t] += raffles[r].accruedCommission(token);
                if (derived[t] != owes) {
                    return string.concat(
                        _r(r), "'s books owe ", vm.toString(derived[t]), " of token ", vm.toString(t), ", the model ", vm.toString(owes)
                    );
                }
            }
        }
        for (uint256 t = 0; t < 7; t++) {
            if (_balance(tokens[t], address(exchange)) != 0) return "the Exchange kept a payment";
        }
        return _pending(SOLVENCY);
    }

    /// @notice A round has at most one winner, drawn from its own tickets (first + word % count) by the coordinator
    /// the round asked at endRound, whose request and refundableAt the round kept; every status is the model's.
    function checkDraws() external view returns (string memory) {
        for (uint256 r = 0; r < 2; r++) {
            for (uint256 id = 1; id <= lastRound[r]; id++) {
                RoundView memory rv = raffles[r].getRound(id);
                RoundG storage g = rounds[r][id];
                uint8 s = uint8(rv.status);
                if (s != g.status) {
                    return string.concat(_round(r, id), " has status ", vm.toString(s), ", the model ", vm.toString(g.status));
                }
                bool won = s == S_DRAWN || s == S_CLAIMED || s == S_RELEASED;
                if (!won) {
                    if (rv.winningTicketId != 0 || g.winners != 0) return string.concat(_round(r, id), " has a winner but no draw");
                } else {
                    if (g.winners != 1) return string.concat(_round(r, id), " was drawn more than once");
                    uint256 w = rv.winningTicketId;
                    if (w != g.winner) return string.concat(_round(r, id), "'s winner is not the model's");
                    if (w < rv.firstTicketId || w >= rv.firstTicketId + rv.ticketCount) {
                        return string.concat(_round(r, id), "'s winner is not one of its tickets");
                    }
                    if (ticketsG[r][w].round != id || tickets[r].getTicketData(w).roundId != id) {
                        return string.concat(_round(r, id), "'s winning ticket belongs to another round");
                    }
                    if (rv.ticketCount >= 2) {
                        if (rv.coordinator != g.coordinator || g.drawnBy != g.coordinator) {
                            return string.concat(_round(r, id), " was drawn by a coordinator it did not ask");
                        }
                        if (w != rv.firstTicketId + g.word % rv.ticketCount) {
                            return string.concat(_round(r, id), "'s winner does not follow from the coordinator's word");
                        }
                    } else if (rv.coordinator != address(0) || w != rv.firstTicketId) {
                        return string.concat(_round(r, id), ": a single ticket must win without VRF");
                    }
                }
                if (g.requestId != 0) {
                    if (rv.coordinator != g.coordinator || rv.vrfRequestId != g.requestId || rv.refundableAt != g.refundableAt) {
                        return string.concat(_round(r, id), " no longer holds the coordinator, request and deadline it asked with");
                    }
                }
            }
        }
        return _pending(DRAW);
    }

    /// @notice No round holds more tickets than its maxTicket; tickets are numbered on from round to round; every
    /// ticket records its round, serial and externalId; no purchase happened outside an active round, while the
    /// raffle or the Exchange was paused, or at a wrong price.
    function checkTickets() external view returns (string memory) {
        for (uint256 r = 0; r < 2; r++) {
            uint256 next = 1;
            for (uint256 id = 1; id <= lastRound[r]; id++) {
                RoundView memory rv = raffles[r].getRound(id);
                RoundG storage g = rounds[r][id];
                if (rv.ticketCount != g.tickets) {
                    return string.concat(
                        _round(r, id), " counts ", vm.toString(rv.ticketCount), " tickets, the model ", vm.toString(g.tickets)
                    );
                }
                if (rv.maxTicket != 0 && rv.ticketCount > rv.maxTicket) {
                    return string.concat(_round(r, id), " sold beyond its maxTicket");
                }
                if (rv.maxTicket != g.maxTicket || rv.firstTicketId != next || g.firstTicketId != next) {
                    return string.concat(_round(r, id), " does not continue the ticket numbering");
                }
                if (rv.price.amount != g.price || rv.price.token != g.token) return string.concat(_round(r, id), " changed its price");
                next += rv.ticketCount;
            }
            if (next != lastTicket[r] + 1) return string.concat(_r(r), " minted tickets outside its rounds");
            if (raffles[r].getCurrentRoundInfo().roundId != lastRound[r]) return string.concat(_r(r), " has another current round");
            if (raffles[r].paused() != rafflePaused[r]) return string.concat(_r(r), "'s pause flag is not the model's");
            for (uint256 t = 1; t <= lastTicket[r]; t++) {
                if (!_exists(r, t)) continue;
                TicketData memory data = tickets[r].getTicketData(t);
                TicketG storage tg = ticketsG[r][t];
                if (data.roundId != tg.round || data.serial != tg.serial || data.externalId != tg.externalId) {
                    return string.concat(_r(r), " ticket ", vm.toString(t), " does not record its purchase");
                }
            }
        }
        return _pending(TICKETS);
    }

    /// @notice Every nonce that bought a ticket bought exactly one and is marked used; no stored voucher's nonce
    /// is marked used before it is; the Exchange's domain is the one vouchers are signed for.
    function checkVouchers() external view returns (string memory) {
        for (uint256 i = 0; i < usedNonces.length; i++) {
            if (nonceUses[usedNonces[i]] != 1) return "a voucher nonce bought more than one ticket";
            if (!exchange.isNonceUsed(usedNonces[i])) return "a spent nonce is not marked used";
        }
        for (uint256 i = 0; i < stash.length; i++) {
            bytes32 nonce = stash[i].params.nonce;
            if (exchange.isNonceUsed(nonce) != (nonceUses[nonce] != 0)) return "an unspent voucher's nonce is marked used";
        }
        if (exchange.domainSeparator() != domainSeparator) return "the Exchange's EIP-712 domain changed";
        if (exchange.paused() != exchangePaused) return "the Exchange's pause flag is not the model's";
        return _pending(VOUCHER);
    }

    /// @notice Every ticket is paid out at most once (claimed, released or refunded); a refunded ticket is burnt;
    /// each ticket's prizeStatus says what it still carries.
    function checkPayouts() external view returns (string memory) {
        for (uint256 r = 0; r < 2; r++) {
            for (uint256 t = 1; t <= lastTicket[r]; t++) {
                TicketG storage tg = ticketsG[r][t];
                if (tg.payouts > 1) return string.concat(_r(r), " ticket ", vm.toString(t), " was paid out more than once");
                RoundG storage g = rounds[r][tg.round];
                bool winner = g.winners != 0 && g.winner == t;
                PrizeStatus expected = PrizeStatus.None;
                uint8 kind = 0;
                if (winner && g.status == S_DRAWN) expected = PrizeStatus.Unclaimed;
                if (winner && g.status == S_CLAIMED) (expected, kind) = (PrizeStatus.Claimed, 1);
                if (winner && g.status == S_RELEASED) (expected, kind) = (PrizeStatus.Released, 2);
                if (tg.payoutKind == 3) {
                    if (winner || g.status != S_REFUNDABLE) return string.concat(_r(r), " refunded a ticket of a round that was not refundable");
                    try tickets[r].ownerOf(t) returns (address) {
                        return string.concat(_r(r), " refunded ticket ", vm.toString(t), " still exists");
                    } catch {}
                    continue;
                }
                if (tg.payoutKind != kind || (kind != 0) != (tg.payouts == 1)) {
                    return string.concat(_r(r), " ticket ", vm.toString(t), " was paid otherwise than its round says");
                }
                if (tickets[r].getTicketData(t).prizeStatus != expected) {
                    return string.concat(_r(r), " ticket ", vm.toString(t), " shows a wrong prizeStatus");
                }
            }
        }
        return _pending(PAYOUT);
    }

    /// @notice Commission never exceeds the 30% cap: the raffle's rate, each claim's cut, and the total accrued per
    /// token, which the raffle's books hold exactly.
    function checkCommission() external view returns (string memory) {
        for (uint256 r = 0; r < 2; r++) {
            uint256 rate = raffles[r].commission();
            if (rate > MAX_COMMISSION || raffles[r].MAX_COMMISSION() != MAX_COMMISSION) {
                return string.concat(_r(r), "'s commission is above the cap");
            }
            for (uint256 id = 1; id <= lastRound[r]; id++) {
                RoundG storage g = rounds[r][id];
                if (g.commissionTaken * BPS > uint256(g.tickets) * g.price * MAX_COMMISSION) {
                    return string.concat(_round(r, id), " paid more commission than the cap");
                }
            }
            for (uint256 t = 0; t < 7; t++) {
                address token = tokens[t];
                if (raffles[r].accruedCommission(token) != accrued[r][token]) {
                    return string.concat(_r(r), "'s accrued commission in token ", vm.toString(t), " is not the model's");
                }
                if (commissionTotal[r][token] * BPS > claimedPots[r][token] * rate) {
                    return string.concat(_r(r), " took more than its commission rate of claimed pots");
                }
            }
        }
        return _pending(COMMISSION);
    }

    /// @notice Roles and platform settings move only as the platform admin moved them: no merchant holds a platform
    /// role, only the current signer signs, the VRF settings, price tokens and draw budget are the admin's.
    function checkAccess() external view returns (string memory) {
        bytes32 adminRole = bytes32(0);
        bytes32 merchantRole = factory.MERCHANT_ROLE();
        bytes32 signerRole = exchange.SIGNER_ROLE();
        bytes32 pauserRole = exchange.PAUSER_ROLE();
        if (!factory.hasRole(adminRole, admin) || !exchange.hasRole(adminRole, admin)) return "the platform admin lost its role";
        if (factory.hasRole(merchantRole, stranger)) return "a stranger became a merchant";
        for (uint256 i = 0; i < 2; i++) {
            address m = merchants[i];
            if (factory.hasRole(adminRole, m) || exchange.hasRole(adminRole, m)) return "a merchant holds a platform admin role";
            if (exchange.hasRole(signerRole, m) || exchange.hasRole(pauserRole, m)) return "a merchant holds an Exchange role";
            if (!raffles[i].hasRole(adminRole, m)) return "a merchant lost its raffle";
            if (raffles[i].hasRole(roundManagerRole, hotKeys[i]) != hotKeyGranted[i]) return "a hot key's role is not the model's";
            if (raffles[i].hasRole(adminRole, stranger) || raffles[i].hasRole(roundManagerRole, stranger)) {
                return "a stranger holds a raffle role";
            }
            if (raffles[i].beneficiary() != beneficiary[i]) return "a raffle's beneficiary is not the model's";
        }
        for (uint256 k = 0; k < 3; k++) {
            if (exchange.hasRole(signerRole, signers[k]) != (k == signerIdx)) {
                return "SIGNER_ROLE is not held by exactly the current signer";
            }
        }
        VrfConfig memory cfg = factory.vrfConfig();
        if (
            cfg.coordinator != _coordinatorAddress(vrf.coordinator) || cfg.randomnessTimeout != vrf.timeout
                || cfg.callbackGasLimit != vrf.gas || cfg.subscriptionId != (vrf.coordinator == BURNER ? 1 : subscriptions[vrf.coordinator])
        ) return "the factory's VRF settings are not the ones the admin applied";
        (, uint256 effectiveAt) = factory.pendingVrfConfig();
        if (effectiveAt != pendingVrfAt) return "the announced VRF settings are not the admin's";
        for (uint256 t = 1; t < 7; t++) {
            if (factory.isPriceToken(tokens[t]) != listed[tokens[t]]) return "the price-token list is not the admin's";
            if (t >= FEE && listed[tokens[t]]) return "a hostile token is listed";
        }
        if (factory.drawsPerDay() != _budgetNow()) return "the draw budget is not the admin's";
        for (uint256 i = 0; i < 2; i++) {
            if (factory.drawsUsedToday(merchants[i]) != _drawsTodayView(merchants[i])) return "a merchant's draw count is off";
        }
        return _pending(ACCESS);
    }

    function _drawsTodayView(address merchant) private view returns (uint256) {
        return drawDay[merchant] == block.timestamp / 1 days ? drawsUsed[merchant] : 0;
    }
}
