// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {vm} from "./utils/Vm.sol";
import {ITokenX} from "./utils/Interfaces.sol";
import {HandlerBase, RoundG, TicketG} from "./HandlerBase.sol";
import {RoundView, VrfConfig, Winner} from "../src/interfaces/IRaffle.sol";
import {PrizeStatus} from "../src/interfaces/IRaffleTicket.sol";

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
                if (s == S_ACTIVE || s == S_DRAWING || s == S_PENDING) derived[t] += rv.pot;
                else if (s == S_DRAWN) derived[t] += rv.pot - rounds[r][id].claimedAmount;
                else if (s == S_REFUNDABLE) derived[t] += rv.pot - rounds[r][id].refundedAmount;
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

    /// @notice A round is drawn at most once, with its rules' number of winners: distinct tickets of its own round, in
    /// position order, following from the word of the coordinator the round asked at endRound by the draw rule (a
    /// single ticket wins without VRF); a word that arrived is kept until its winners are drawn; the round keeps the
    /// request and refundableAt it asked with; every status is the model's.
    function checkDraws() external view returns (string memory) {
        for (uint256 r = 0; r < 2; r++) {
            for (uint256 id = 1; id <= lastRound[r]; id++) {
                string memory failure = _checkDraw(r, id);
                if (bytes(failure).length != 0) return failure;
            }
        }
        return _pending(DRAW);
    }

    function _checkDraw(uint256 r, uint256 id) private view returns (string memory) {
        RoundView memory rv = raffles[r].getRound(id);
        RoundG storage g = rounds[r][id];
        uint8 s = uint8(rv.status);
        if (s != g.status) {
            return string.concat(_round(r, id), " has status ", vm.toString(s), ", the model ", vm.toString(g.status));
        }
        if (rv.winnersCount != g.winnersCount) return string.concat(_round(r, id), " has another number of winners");
        Winner[] memory winners = raffles[r].getWinners(id);
        bool won = s == S_DRAWN || s == S_CLAIMED || s == S_RELEASED;
        if (!won) {
            if (rv.winningTicketId != 0 || g.winners != 0 || winners.length != 0) {
                return string.concat(_round(r, id), " has a winner but no draw");
            }
            if (s == S_PENDING && (rv.randomWord != g.word || !g.wordRecorded || rv.coordinator != g.drawnBy)) {
                return string.concat(_round(r, id), " lost the word its winners wait for");
            }
        } else {
            if (g.winners != 1) return string.concat(_round(r, id), " was drawn more than once");
            if (winners.length != g.winnersCount || rv.winningTicketId != winners[0].ticketId) {
                return string.concat(_round(r, id), " does not show one winner per position");
            }
            for (uint256 i = 0; i < winners.length; i++) {
                uint256 w = winners[i].ticketId;
                if (w != winnersG[r][id][i]) return string.concat(_round(r, id), "'s winners are not the draw rule's");
                if (w < rv.firstTicketId || w >= rv.firstTicketId + rv.ticketCount || ticketsG[r][w].round != id) {
                    return string.concat(_round(r, id), "'s winner is not one of its tickets");
                }
                for (uint256 j = 0; j < i; j++) {
                    if (winners[j].ticketId == w) return string.concat(_round(r, id), " drew the same ticket twice");
                }
            }
            if (rv.randomWord != g.word) return string.concat(_round(r, id), " does not keep the word it was drawn from");
            if (rv.ticketCount >= 2) {
                if (rv.coordinator != g.coordinator || g.drawnBy != g.coordinator) {
                    return string.concat(_round(r, id), " was drawn by a coordinator it did not ask");
                }
            } else if (rv.coordinator != address(0) || winners[0].ticketId != rv.firstTicketId) {
                return string.concat(_round(r, id), ": a single ticket must win without VRF");
            }
        }
        if (g.requestId != 0) {
            if (rv.coordinator != g.coordinator || rv.vrfRequestId != g.requestId || rv.refundableAt != g.refundableAt) {
                return string.concat(_round(r, id), " no longer holds the coordinator, request and deadline it asked with");
            }
        }
        return "";
    }

    /// @notice No round holds more tickets than its maxTicket; tickets are numbered on from round to round; every
    /// ticket belongs to its round and records the price tier it paid; each round's pot is what its rules priced its
    /// purchases at; no buyer holds more of a round than its wallet cap; no purchase happened outside an active
    /// round, while the raffle or the Exchange was paused, or at a price other than its rules give.
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
                if (rv.pot != g.pot) return string.concat(_round(r, id), "'s pot is not what its rules priced its tickets at");
                if (rv.rulesVersion != g.version) return string.concat(_round(r, id), " plays by other rules than it started with");
                uint256 cap = rulesG[r][g.version].cap;
                for (uint256 p = 0; cap != 0 && p < 4; p++) {
                    if (boughtG[r][id][players[p]] > cap) return string.concat(_round(r, id), " sold a wallet more than its cap");
                }
                next += rv.ticketCount;
            }
            if (next != lastTicket[r] + 1) return string.concat(_r(r), " minted tickets outside its rounds");
            if (raffles[r].getCurrentRoundInfo().roundId != lastRound[r]) return string.concat(_r(r), " has another current round");
            if (raffles[r].paused() != rafflePaused[r]) return string.concat(_r(r), "'s pause flag is not the model's");
            for (uint256 t = 1; t <= lastTicket[r]; t++) {
                TicketG storage tg = ticketsG[r][t];
                if (raffles[r].roundOfTicket(t) != tg.round) {
                    return string.concat(_r(r), " ticket ", vm.toString(t), " is not found in its round");
                }
                if (!_exists(r, t)) continue;
                uint256 tier = tickets[r].tierOf(t);
                RoundG storage g = rounds[r][tg.round];
                uint256 price = tier == 0
                    ? g.price
                    : rulesG[r][g.version].bundlePrice[tier - 1] / rulesG[r][g.version].bundleQuantity[tier - 1];
                if (price != tg.paid) return string.concat(_r(r), " ticket ", vm.toString(t), " does not record what it paid");
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

    /// @notice Every ticket is paid out at most once (a prize claimed or released, or a refund); refunds come only from
    /// rounds below their minimum, whose randomness timed out or whose draw was refused, and burn the ticket; only
    /// winners are paid prizes; each winner's status says what it still carries; the prizes of a round add up to
    /// its pot.
    function checkPayouts() external view returns (string memory) {
        for (uint256 r = 0; r < 2; r++) {
            for (uint256 t = 1; t <= lastTicket[r]; t++) {
                TicketG storage tg = ticketsG[r][t];
                if (tg.payouts > 1) return string.concat(_r(r), " ticket ", vm.toString(t), " was paid out more than once");
                RoundG storage g = rounds[r][tg.round];
                uint256 position = _positionOf(r, tg.round, t);
                if (tg.payoutKind == 3) {
                    if (position != MAX_WINNERS || g.status != S_REFUNDABLE || g.refundReason == 0) {
                        return string.concat(_r(r), " refunded a ticket of a round that was not refundable");
                    }
                    if (g.refundReason == 1 && g.tickets >= _required(r, tg.round)) {
                        return string.concat(_r(r), " refunded a round that reached its minimum");
                    }
                    if (g.refundReason == 2 && g.requestId == 0) return string.concat(_r(r), " timed out a round that asked nothing");
                    try tickets[r].ownerOf(t) returns (address) {
                        return string.concat(_r(r), " refunded ticket ", vm.toString(t), " still exists");
                    } catch {}
                    continue;
                }
                if (tg.payoutKind != 0 && position == MAX_WINNERS) {
                    return string.concat(_r(r), " paid a prize to ticket ", vm.toString(t), ", which did not win");
                }
            }
            for (uint256 id = 1; id <= lastRound[r]; id++) {
                string memory failure = _checkPrizes(r, id);
                if (bytes(failure).length != 0) return failure;
            }
        }
        return _pending(PAYOUT);
    }

    function _checkPrizes(uint256 r, uint256 id) private view returns (string memory) {
        RoundG storage g = rounds[r][id];
        if (g.winners == 0) return "";
        Winner[] memory winners = raffles[r].getWinners(id);
        uint256 total;
        for (uint256 i = 0; i < winners.length; i++) {
            bool claimed = g.claimedMask & (uint32(1) << i) != 0;
            PrizeStatus expected = claimed
                ? PrizeStatus.Claimed
                : g.status == S_RELEASED ? PrizeStatus.Released : PrizeStatus.Unclaimed;
            if (winners[i].status != expected) return string.concat(_round(r, id), " shows a winner's prize in a wrong status");
            if (winners[i].amount != _prizeOf(r, id, i) || winners[i].share != rulesG[r][g.version].shares[i]) {
                return string.concat(_round(r, id), " pays a position other than its share of the pot");
            }
            TicketG storage tg = ticketsG[r][winners[i].ticketId];
            uint8 kind = claimed ? 1 : g.status == S_RELEASED ? 2 : 0;
            if (tg.payoutKind != kind || (kind != 0) != (tg.payouts == 1)) {
                return string.concat(_round(r, id), " paid a winner otherwise than its status says");
            }
            total += winners[i].amount;
        }
        if (total != g.pot) return string.concat(_round(r, id), "'s prizes do not add up to its pot");
        return "";
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
                if (g.commissionTaken * BPS > g.pot * MAX_COMMISSION) {
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
