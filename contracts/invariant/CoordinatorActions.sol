// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IRaffleFactory} from "../src/interfaces/IRaffleFactory.sol";
import {IRaffle} from "../src/interfaces/IRaffle.sol";
import {IVRFMock} from "./utils/Interfaces.sol";
import {MerchantActions} from "./MerchantActions.sol";
import {RoundG} from "./HandlerBase.sol";
import {vm} from "./utils/Vm.sol";

/// @notice What the VRF coordinators do (answer, late, twice, from the wrong address, with too little gas) and what
/// anyone does when no answer comes (let the draw time out, open refunds).
abstract contract CoordinatorActions is MerchantActions {
    /// @notice The coordinator a round asked answers it through Chainlink's mock (the normal path).
    function fulfill(uint256 seed, uint256 word) external step {
        seed = _h(seed);
        (bool found, uint256 r, uint256 roundId) = _pickUndelivered(seed);
        if (!found) return;
        _deliver(r, roundId, word);
    }

    /// @notice The coordinator answers only after the round's refundableAt: the answer must be ignored.
    function fulfillLate(uint256 seed, uint256 word, uint256 delaySeed) external step {
        seed = _h(seed);
        delaySeed = _h(delaySeed);
        (bool found, uint256 r, uint256 roundId) = _pickUndelivered(seed);
        if (!found) return;
        RoundG storage g = rounds[r][roundId];
        uint256 at = uint256(g.refundableAt) + _bound(delaySeed, 0, 2 days);
        if (at > block.timestamp) vm.warp(at);
        _deliver(r, roundId, word);
    }

    function _deliver(uint256 r, uint256 roundId, uint256 word) internal {
        RoundG storage g = rounds[r][roundId];
        IVRFMock coordinator = IVRFMock(g.coordinator);
        uint256[] memory words = new uint256[](1);
        words[0] = word;
        bool accept = g.status == S_DRAWING && block.timestamp < g.refundableAt && g.callbackGas != LOW_CALLBACK_GAS;
        (bool ok, bytes4 err) = _call(
            address(0xC0FFEE),
            address(coordinator),
            0,
            abi.encodeCall(IVRFMock.fulfillRandomWordsWithOverride, (g.requestId, address(factory), words))
        );
        _checkOutcome(DRAW, "the coordinator's fulfillment", true, err, ok, err);
        g.delivered = true;
        if (accept) {
            _acceptWord(r, roundId, address(coordinator), word);
            _count("vrf.drawn");
        } else if (g.status == S_DRAWING && g.callbackGas == LOW_CALLBACK_GAS && block.timestamp < g.refundableAt) {
            _count("vrf.callbackOutOfGas");
        } else {
            _count(g.status == S_DRAWING ? "vrf.lateIgnored" : "vrf.answerForSettledRoundIgnored");
        }
    }

    /// @notice The coordinator a round asked answers it in time with a tight callback gas limit, as a coordinator
    /// honouring a low `callbackGasLimit` does: the word must be kept, and its winners drawn now or by finishDraw.
    function fulfillTight(uint256 seed, uint256 word) external step {
        seed = _h(seed);
        (bool found, uint256 r, uint256 roundId) = _pickUndelivered(seed);
        if (!found) return;
        RoundG storage g = rounds[r][roundId];
        if (g.status != S_DRAWING || block.timestamp >= g.refundableAt) return;
        uint256[] memory words = new uint256[](1);
        words[0] = word;
        vm.prank(g.coordinator);
        (bool ok,) = address(factory).call{gas: 90_000 + (seed >> 8) % 60_000}(
            abi.encodeCall(IRaffleFactory.rawFulfillRandomWords, (g.requestId, words))
        );
        if (!ok) _violate(DRAW, "an answer with a tight callback gas limit reverted");
        g.delivered = true;
        _acceptWord(r, roundId, g.coordinator, word);
        _count("vrf.tightAnswer");
        // Often someone finishes the draw at once (the worker does); otherwise later, or at settlement.
        if (g.status == S_PENDING && (seed >> 32) % 2 == 0) _finishDraw(r, roundId, _person(seed >> 40));
    }

    /// @notice The round's coordinator calls the raffle again, directly: a duplicate answer (ignored once the round
    /// is drawn or past refundableAt), or the first answer if it never came through the mock. Sometimes with no
    /// words at all (ignored).
    function answerAgain(uint256 seed, uint256 word) external step {
        seed = _h(seed);
        if (drawingKeys.length == 0) return;
        (uint256 r, uint256 roundId) = _unkey(drawingKeys[seed % drawingKeys.length]);
        if (seed % 3 != 0 && drawnKeys.length != 0) {
            (uint256 r2, uint256 id2) = _unkey(drawnKeys[(seed >> 8) % drawnKeys.length]);
            if (rounds[r2][id2].requestId != 0) (r, roundId) = (r2, id2);
        }
        RoundG storage g = rounds[r][roundId];
        uint256 length = seed % 11 == 0 ? 0 : 1;
        _answerAs(g.coordinator, r, g.requestId, word, length, "duplicate answer");
    }

    /// @notice Another coordinator (the platform's other one), the merchant, a stranger or a fake coordinator answers
    /// a round's request id: refused unless that caller is the coordinator of a round with that id.
    function answerFromWrongCoordinator(uint256 seed, uint256 word) external step {
        seed = _h(seed);
        if (drawingKeys.length == 0) return;
        (uint256 r, uint256 roundId) = _unkey(drawingKeys[seed % drawingKeys.length]);
        RoundG storage g = rounds[r][roundId];
        uint256 pick = (seed >> 8) % 4;
        address caller = pick == 0
            ? (g.coordinator == address(coordinators[0]) ? address(coordinators[1]) : address(coordinators[0]))
            : pick == 1 ? merchants[r] : pick == 2 ? stranger : address(fakeCoordinator);
        _answerAs(caller, r, g.requestId, word, 1, "answer from another address");
    }

    /// @dev `r` names the raffle the caller meant; the factory routes by (caller, request id) alone, so the round
    /// that moves (if any) is the one the model recorded for that pair.
    function _answerAs(address caller, uint256 r, uint256 requestId, uint256 word, uint256 length, string memory what)
        internal
    {
        r; // the factory, not the caller, decides which raffle an answer reaches
        uint256[] memory words = new uint256[](length);
        if (length != 0) words[0] = word;
        uint256 keyPlusOne = requestTarget[caller][requestId];
        bytes32 before = _bothStates();
        (bool ok, bytes4 err) =
            _call(caller, address(factory), 0, abi.encodeCall(IRaffleFactory.rawFulfillRandomWords, (requestId, words)));
        if (keyPlusOne == 0) {
            _count("vrf.unknownCallerRefused");
            _checkOutcome(DRAW, what, false, IRaffleFactory.UnknownVrfRequest.selector, ok, err);
            if (_bothStates() != before) _violate(DRAW, string.concat(what, " changed a round"));
            return;
        }
        _checkOutcome(DRAW, what, true, err, ok, err);
        _answered(keyPlusOne - 1, caller, word, length != 0, what, before);
    }

    function _answered(uint256 key, address caller, uint256 word, bool hasWord, string memory what, bytes32 before)
        internal
    {
        (uint256 r, uint256 roundId) = _unkey(key);
        RoundG storage g = rounds[r][roundId];
        if (g.status == S_DRAWING && block.timestamp < g.refundableAt && hasWord) {
            _acceptWord(r, roundId, caller, word);
            _count("vrf.drawnByDirectAnswer");
            return;
        }
        _count(
            g.status == S_DRAWN || g.status == S_CLAIMED || g.status == S_RELEASED || g.status == S_PENDING
                ? "vrf.duplicateIgnored"
                : "vrf.lateOrEmptyIgnored"
        );
        if (_bothStates() != before) _violate(DRAW, string.concat(what, " changed a settled or late round"));
    }

    function _bothStates() internal view returns (bytes32) {
        return keccak256(abi.encode(_stateHash(0), _stateHash(1)));
    }

    function _pickUndelivered(uint256 seed) internal view returns (bool, uint256, uint256) {
        uint256 n = drawingKeys.length;
        for (uint256 i = 0; i < n; i++) {
            (uint256 r, uint256 roundId) = _unkey(drawingKeys[(seed % n + i) % n]);
            if (!rounds[r][roundId].delivered) return (true, r, roundId);
        }
        return (false, 0, 0);
    }

    /// @notice No answer comes for a round (the coordinator is down): time passes beyond its refundableAt and
    /// anyone opens refunds.
    function letDrawTimeOut(uint256 seed, uint256 delaySeed) external step {
        seed = _h(seed);
        delaySeed = _h(delaySeed);
        (bool found, uint256 r, uint256 roundId) = _pickUndelivered(seed);
        if (!found || rounds[r][roundId].status != S_DRAWING) return;
        uint256 at = uint256(rounds[r][roundId].refundableAt) + _bound(delaySeed, 0, 1 days);
        if (at > block.timestamp) vm.warp(at);
        _enableRefunds(r, roundId, _person(delaySeed >> 8));
    }

    // ================================================================== anyone

    /// @notice Anyone opens refunds for a round whose randomness did not arrive by its refundableAt.
    function enableRefunds(uint256 raffleSeed, uint256 roundSeed, uint256 callerSeed) external step {
        raffleSeed = _h(raffleSeed);
        roundSeed = _h(roundSeed);
        callerSeed = _h(callerSeed);
        (uint256 r, uint256 roundId) = _pickRound(raffleSeed, roundSeed, S_DRAWING);
        // Mostly a round whose deadline has passed, if there is one.
        for (uint256 i = 0; i < drawingKeys.length && roundSeed % 4 != 0; i++) {
            (uint256 r2, uint256 id2) = _unkey(drawingKeys[(roundSeed % drawingKeys.length + i) % drawingKeys.length]);
            RoundG storage g = rounds[r2][id2];
            if (g.status == S_DRAWING && block.timestamp >= g.refundableAt) {
                (r, roundId) = (r2, id2);
                break;
            }
        }
        if (roundId == 0) return;
        _enableRefunds(r, roundId, _person(callerSeed));
    }

    function _enableRefunds(uint256 r, uint256 roundId, address caller) internal returns (bool ok) {
        RoundG storage g = rounds[r][roundId];
        bytes4 expectErr;
        if (g.status != S_DRAWING) expectErr = IRaffle.UnexpectedRoundStatus.selector;
        else if (block.timestamp < g.refundableAt) expectErr = IRaffle.RandomnessNotTimedOut.selector;
        bytes4 err;
        (ok, err) = _call(caller, address(raffles[r]), 0, abi.encodeCall(IRaffle.enableRefunds, (roundId)));
        _count(ok ? "refunds.enabled" : "refunds.rejected");
        _checkOutcome(DRAW, "enableRefunds", expectErr == bytes4(0), expectErr, ok, err);
        if (ok && expectErr == bytes4(0)) {
            g.status = S_REFUNDABLE;
            g.refundReason = 2;
        }
    }
}
