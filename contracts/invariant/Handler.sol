// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {FakeCoordinator, IRaffleTicketX, ITokenX} from "./utils/Interfaces.sol";
import {Platform, RoundG} from "./HandlerBase.sol";
import {WalletActions} from "./WalletActions.sol";
import {vm} from "./utils/Vm.sol";

/// @notice The actors of the platform, as one fuzz target: players, merchants (honest and hostile), the VRF
/// coordinators, the platform admin, anyone, and time. Every action predicts its outcome from the model (ghost
/// state), performs the call as its actor, and records any disagreement as a violation that the invariants report.
/// Nothing here reverts on purpose: the suite runs with fail_on_revert, so a revert is a harness bug.
contract Handler is WalletActions {
    constructor(Platform memory p) {
        admin = p.admin;
        exchange = p.exchange;
        factory = p.factory;
        coordinators = p.coordinators;
        burner = p.burner;
        subscriptions = p.subscriptions;
        tokens = p.tokens;
        raffles = p.raffles;
        merchants = p.merchants;
        hotKeys = p.hotKeys;
        signerKeys = p.signerKeys;
        for (uint256 k = 0; k < 3; k++) signers[k] = vm.addr(p.signerKeys[k]);
        players = p.players;
        stranger = p.stranger;
        beneficiaries = p.beneficiaries;
        for (uint256 r = 0; r < 2; r++) {
            tickets[r] = IRaffleTicketX(address(p.raffles[r].ticketContract()));
            beneficiary[r] = p.merchants[r];
            // Version 0, the rules every raffle is born with: one winner takes the pot.
            rulesG[r][0].shares.push(uint16(BPS));
            rulesCount[r] = 1;
        }
        for (uint256 t = 1; t <= BLOCK; t++) listed[p.tokens[t]] = true;
        vrf = VrfG({coordinator: 0, timeout: p.vrfTimeout, gas: p.vrfGas});
        roundManagerRole = p.raffles[0].ROUND_MANAGER_ROLE();
        fakeCoordinator = new FakeCoordinator();
        domainSeparator = keccak256(
            abi.encode(
                keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"),
                keccak256("EXCHANGE"),
                keccak256("1.0.0"),
                block.chainid,
                address(p.exchange)
            )
        );
    }

    // Players, merchants, coordinators and the platform admin act in the contracts this one extends, one file per
    // actor; time and the settlement after each sequence are here.

    // ================================================================== time

    /// @notice Time passes: seconds, hours, days or weeks.
    function warp(uint256 seed) external step {
        seed = _h(seed);
        uint256 kind = seed % 4;
        uint256 delta = kind == 0
            ? _bound(seed >> 8, 1, 10 minutes)
            : kind == 1 ? _bound(seed >> 8, 1 hours, 1 days) : kind == 2 ? _bound(seed >> 8, 1 days, 4 days) : _bound(seed >> 8, 4 days, 3 weeks);
        vm.warp(block.timestamp + delta);
        _count("time.warp");
    }

    /// @notice Time jumps to just before, at, or just after a deadline that matters: a round's refundableAt, a
    /// prize's release time, a round's 30-day overdue mark, the VRF notice, or the next UTC day (draw budget).
    function warpToDeadline(uint256 seed) external step {
        seed = _h(seed);
        uint256 kind = seed % 5;
        uint256 at;
        if (kind == 0 && drawingKeys.length != 0) {
            (uint256 r, uint256 roundId) = _unkey(drawingKeys[(seed >> 8) % drawingKeys.length]);
            at = rounds[r][roundId].refundableAt;
        } else if (kind == 1 && drawnKeys.length != 0) {
            (uint256 r, uint256 roundId) = _unkey(drawnKeys[(seed >> 8) % drawnKeys.length]);
            at = uint256(rounds[r][roundId].drawnAt) + raffles[r].timeLagBeforeRelease();
        } else if (kind == 2) {
            uint256 r = (seed >> 8) % 2;
            at = uint256(rounds[r][lastRound[r]].startedAt) + MAX_ROUND_DURATION;
        } else if (kind == 3) {
            at = pendingVrfAt;
        } else {
            at = (block.timestamp / 1 days + 1) * 1 days;
        }
        if (at == 0) return;
        at = at + ((seed >> 16) % 3) - 1; // one second before, at, or one after
        if (at > block.timestamp) {
            vm.warp(at);
            _count("time.warpToDeadline");
        }
    }

    // ================================================================== settlement (after each sequence)

    /// @notice Ends the story of every round so every payout is made: nobody blocked, a draw budget, every active
    /// round ended, every outstanding request answered in time, rounds still drawing refunded after their deadline,
    /// every prize claimed by the holder of its ticket, every ticket of a refundable round refunded, every commission
    /// withdrawn. Then each raffle must hold exactly the donations it got: everything it owed was paid, to the right
    /// people, by the same checks as during the sequence.
    function settle() external returns (string memory) {
        ITokenX blocklist = ITokenX(tokens[BLOCK]);
        for (uint256 i = 0; i < 7; i++) blocklist.setBlocked(_person(i), false);
        for (uint256 r = 0; r < 2; r++) {
            blocklist.setBlocked(merchants[r], false);
            blocklist.setBlocked(beneficiary[r], false);
        }
        // Liveness: nobody restores anything. Whatever budget, coordinator or pause the sequence left, a stranger
        // ends every round once it is overdue, and every round with tickets then pays every ticket within the
        // round's randomness timeout (at most 7 days).
        uint256 settleBy = block.timestamp;
        for (uint256 r = 0; r < 2; r++) {
            if (!roundActive[r]) continue;
            uint256 overdueAt = uint256(rounds[r][lastRound[r]].startedAt) + MAX_ROUND_DURATION;
            if (overdueAt > block.timestamp) vm.warp(overdueAt);
            if (overdueAt > settleBy) settleBy = overdueAt;
            if (!_endRound(r, stranger)) return "settlement: a stranger could not end an overdue round";
        }
        settleBy += 7 days;
        uint256 latest;
        for (uint256 i = 0; i < drawingKeys.length; i++) {
            (uint256 r, uint256 id) = _unkey(drawingKeys[i]);
            RoundG storage g = rounds[r][id];
            if (g.status == S_DRAWING && !g.delivered && block.timestamp < g.refundableAt) {
                _deliver(r, id, uint256(keccak256(abi.encode("settle", r, id))));
            }
            if (g.status == S_DRAWING && g.refundableAt > latest) latest = g.refundableAt;
        }
        if (latest > settleBy) return "settlement: a round waits for randomness past its bound";
        if (latest > block.timestamp) vm.warp(latest);
        for (uint256 i = 0; i < drawingKeys.length; i++) {
            (uint256 r, uint256 id) = _unkey(drawingKeys[i]);
            if (rounds[r][id].status == S_DRAWING) _enableRefunds(r, id, stranger);
            // A word that arrived is final: anyone draws its winners, whenever.
            if (rounds[r][id].status == S_PENDING) _finishDraw(r, id, stranger);
        }
        for (uint256 r = 0; r < 2; r++) {
            for (uint256 id = 1; id <= lastRound[r]; id++) {
                RoundG storage g = rounds[r][id];
                if (g.status == S_DRAWN) {
                    for (uint256 position = 0; position < g.winnersCount; position++) {
                        uint256 ticketId = winnersG[r][id][position];
                        if (g.claimedMask & (uint32(1) << position) == 0) _claim(r, _one(id, ticketId), _ownerOf(r, ticketId));
                    }
                } else if (g.status == S_REFUNDABLE) {
                    for (uint256 t = g.firstTicketId; t < g.firstTicketId + g.tickets; t++) {
                        if (_exists(r, t)) _refund(r, _one(id, t), _ownerOf(r, t));
                    }
                }
            }
            for (uint256 t = 0; t < 4; t++) {
                if (accrued[r][tokens[t]] != 0) _withdraw(r, tokens[t], merchants[r]);
            }
        }
        for (uint256 c = 0; c < CATEGORIES; c++) {
            if (violations[c] != 0) return string.concat("settlement: ", firstViolation[c]);
        }
        for (uint256 r = 0; r < 2; r++) {
            for (uint256 t = 0; t < 7; t++) {
                address token = tokens[t];
                if (owed[r][token] != 0) return "settlement: a raffle still owes money after every payout";
                if (_balance(token, address(raffles[r])) != donated[r][token]) {
                    return string.concat(
                        "settlement: raffle ", vm.toString(r), " holds other than its donations of token ", vm.toString(t)
                    );
                }
                if (raffles[r].accruedCommission(token) != 0) return "settlement: commission left behind";
            }
        }
        return "";
    }

    // ================================================================== views for the test contract

    function callSummary() external view returns (string memory line) {
        line = string.concat("fp=", vm.toString(fingerprint));
        for (uint256 i = 0; i < counterNames.length; i++) {
            line = string.concat(line, ";", counterNames[i], "=", vm.toString(counters[keccak256(bytes(counterNames[i]))]));
        }
        // The tickets the contract wallets hold when the sequence ends (settlement then pays them like any other).
        uint256 held;
        for (uint256 r = 0; r < 2; r++) held += tickets[r].balanceOf(players[2]) + tickets[r].balanceOf(players[3]);
        line = string.concat(line, ";wallet.ticketsHeld=", vm.toString(held));
    }
}
