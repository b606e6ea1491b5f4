// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {Asset, TokenType} from "../src/libraries/Assets.sol";
import {CoordinatorActions} from "./CoordinatorActions.sol";
import {IExchangeX, IRaffleFactoryX} from "./utils/Interfaces.sol";
import {IRaffleFactory, RaffleConfig} from "../src/interfaces/IRaffleFactory.sol";
import {VrfConfig} from "../src/interfaces/IRaffle.sol";
import {vm} from "./utils/Vm.sol";

/// @notice What the platform admin does: VRF settings, the Exchange's pause and signers, price tokens, budgets,
/// new raffles.
abstract contract PlatformActions is CoordinatorActions {
    /// @notice The platform announces new VRF settings (either coordinator, any timeout, sometimes a callback gas
    /// limit too low for the raffle's callback); a merchant tries too.
    function proposeVrf(uint256 coordSeed, uint256 timeoutSeed, uint256 gasSeed) external step {
        coordSeed = _h(coordSeed);
        timeoutSeed = _h(timeoutSeed);
        gasSeed = _h(gasSeed);
        // The platform rarely replaces an announcement that is still running its notice.
        if (pendingVrfAt != 0 && timeoutSeed % 4 != 0) return;
        // Mostly a move to the other coordinator.
        uint256 c = coordSeed % 4 == 0 ? vrf.coordinator : vrf.coordinator == BURNER ? 0 : 1 - vrf.coordinator;
        if (coordSeed % 9 == 4) c = BURNER; // a hostile platform points new rounds at a coordinator of its own
        address caller = gasSeed % 10 == 0 ? merchants[gasSeed % 2] : admin;
        uint32 timeout = uint32(_bound(timeoutSeed, 1 hours, 7 days));
        if (timeoutSeed % 13 == 0) timeout = uint32(timeoutSeed % 2 == 0 ? 1 hours - 1 : 7 days + 1);
        uint256 gasPick = gasSeed % 8;
        uint32 gas = gasPick == 1 ? LOW_CALLBACK_GAS : gasPick == 2 ? TIGHT_CALLBACK_GAS : gasPick == 3 ? MIN_CALLBACK_GAS : 500_000;
        if (gasPick == 4) gas = MIN_CALLBACK_GAS - 1;
        _proposeVrf(caller, c, timeout, gas);
    }

    function _proposeVrf(address caller, uint256 c, uint32 timeout, uint32 gas) internal {
        VrfConfig memory cfg = VrfConfig({
            coordinator: _coordinatorAddress(c),
            keyHash: keccak256(abi.encode("key", c)),
            subscriptionId: c == BURNER ? 1 : subscriptions[c],
            callbackGasLimit: gas,
            requestConfirmations: 3,
            randomnessTimeout: timeout
        });
        bytes4 expectErr;
        if (caller != admin) expectErr = UNAUTHORIZED;
        else if (timeout < 1 hours || timeout > 7 days) expectErr = IRaffleFactory.InvalidVrfConfig.selector;
        else if (gas < MIN_CALLBACK_GAS) expectErr = IRaffleFactory.VrfCallbackGasTooLow.selector;
        (bool ok, bytes4 err) = _call(caller, address(factory), 0, abi.encodeCall(IRaffleFactoryX.proposeVrfConfig, (cfg)));
        _count(ok ? "vrfConfig.proposed" : "vrfConfig.proposalRejected");
        if (err == IRaffleFactory.VrfCallbackGasTooLow.selector) _count("vrfConfig.callbackGasTooLowRefused");
        if (ok && gas == MIN_CALLBACK_GAS) _count("vrfConfig.minimumCallbackGas");
        _checkOutcome(ACCESS, "proposeVrfConfig", expectErr == bytes4(0), expectErr, ok, err);
        if (ok && expectErr == bytes4(0)) {
            pendingVrf = VrfG({coordinator: c, timeout: timeout, gas: gas});
            pendingVrfAt = block.timestamp + VRF_CONFIG_DELAY;
        }
    }

    /// @notice A hostile platform, in one story: it points new rounds at a coordinator of its own that burns every
    /// request's gas, waits out the notice and applies it; a merchant then sells a round with two tickets and ends it.
    /// The round must be refundable at once, never frozen (rounds sold earlier keep their own settings).
    function hostilePlatformCoordinator(uint256 seed) external step {
        seed = _h(seed);
        // One call in four: the story ends every honest draw of the sequence after it.
        if ((seed >> 32) % 4 != 0) return;
        uint256 r = seed % 2;
        if (vrf.coordinator != BURNER) {
            _proposeVrf(admin, BURNER, vrf.timeout, vrf.gas);
            if (pendingVrf.coordinator != BURNER || pendingVrfAt == 0) return;
            vm.warp(pendingVrfAt);
            _applyVrf(stranger);
        }
        if (roundActive[r]) _endRound(r, merchants[r]);
        _startRound(r, merchants[r], _ticketAsset(r), Asset(TokenType.NATIVE, address(0), 0, 0.01 ether), 0);
        _buy(seed, r, 0);
        _buy(seed >> 8 | 1, r, 0);
        _endRound(r, merchants[r]);
    }

    /// @notice Anyone applies the announced VRF settings (only once their notice has passed).
    function applyVrf(uint256 callerSeed) external step {
        callerSeed = _h(callerSeed);
        _applyVrf(_person(callerSeed));
    }

    function _applyVrf(address caller) internal {
        bytes4 expectErr;
        if (pendingVrfAt == 0) expectErr = IRaffleFactory.NoVrfConfigProposal.selector;
        else if (block.timestamp < pendingVrfAt) expectErr = IRaffleFactory.VrfConfigNotYetEffective.selector;
        else if (block.timestamp > pendingVrfAt + VRF_PROPOSAL_WINDOW) {
            expectErr = IRaffleFactory.VrfConfigProposalExpired.selector;
        }
        (bool ok, bytes4 err) = _call(caller, address(factory), 0, abi.encodeCall(IRaffleFactoryX.applyVrfConfig, ()));
        if (expectErr == IRaffleFactory.VrfConfigProposalExpired.selector) _count("vrfConfig.expiredRefused");
        _checkOutcome(ACCESS, "applyVrfConfig", expectErr == bytes4(0), expectErr, ok, err);
        if (!ok || expectErr != bytes4(0)) {
            _count("vrfConfig.applyRejected");
            return;
        }
        bool drawing;
        for (uint256 i = 0; i < drawingKeys.length; i++) {
            (uint256 r, uint256 roundId) = _unkey(drawingKeys[i]);
            if (rounds[r][roundId].status == S_DRAWING) drawing = true;
        }
        _count(
            pendingVrf.coordinator != vrf.coordinator
                ? (drawing ? "vrfConfig.coordinatorChangedWhileDrawing" : "vrfConfig.coordinatorChanged")
                : "vrfConfig.applied"
        );
        if (pendingVrf.coordinator == BURNER) _count("vrfConfig.burnerApplied");
        vrf = pendingVrf;
        delete pendingVrf;
        pendingVrfAt = 0;
    }

    function cancelVrf(uint256 seed) external step {
        seed = _h(seed);
        // The platform rarely takes back an announcement.
        if (seed % 3 != 0) return;
        bytes4 expectErr = pendingVrfAt == 0 ? IRaffleFactory.NoVrfConfigProposal.selector : bytes4(0);
        (bool ok, bytes4 err) = _call(admin, address(factory), 0, abi.encodeCall(IRaffleFactoryX.cancelVrfConfigProposal, ()));
        _count(ok ? "vrfConfig.canceled" : "vrfConfig.cancelRejected");
        _checkOutcome(ACCESS, "cancelVrfConfigProposal", expectErr == bytes4(0), expectErr, ok, err);
        if (ok && expectErr == bytes4(0)) {
            delete pendingVrf;
            pendingVrfAt = 0;
        }
    }

    /// @notice The platform pauses or unpauses the Exchange; a stranger or merchant tries too.
    function pauseExchange(uint256 callerSeed) external step {
        callerSeed = _h(callerSeed);
        address caller = callerSeed % 6 == 0 ? _person(callerSeed >> 8) : admin;
        bool pausing = !exchangePaused;
        if (pausing && caller == admin && (callerSeed >> 16) % 4 != 0) return;
        bytes4 expectErr = caller != admin ? UNAUTHORIZED : bytes4(0);
        (bool ok, bytes4 err) = _call(
            caller,
            address(exchange),
            0,
            pausing ? abi.encodeCall(IExchangeX.pause, ()) : abi.encodeCall(IExchangeX.unpause, ())
        );
        _count(ok ? (pausing ? "exchange.paused" : "exchange.unpaused") : "exchange.pauseDenied");
        _checkOutcome(ACCESS, "Exchange pause/unpause", expectErr == bytes4(0), expectErr, ok, err);
        if (ok && expectErr == bytes4(0)) exchangePaused = pausing;
    }

    /// @notice The platform rotates its voucher signer (vouchers of the old one stop working at once).
    function rotateSigner(uint256 callerSeed) external step {
        callerSeed = _h(callerSeed);
        address caller = callerSeed % 6 == 0 ? _person(callerSeed >> 8) : admin;
        uint256 next = (signerIdx + 1) % 3;
        bytes4 expectErr = caller != admin ? UNAUTHORIZED : bytes4(0);
        (bool ok, bytes4 err) = _call(
            caller,
            address(exchange),
            0,
            abi.encodeCall(IExchangeX.rotateSigner, (signers[signerIdx], signers[next]))
        );
        _count(ok ? "signer.rotated" : "signer.rotationDenied");
        _checkOutcome(ACCESS, "rotateSigner", expectErr == bytes4(0), expectErr, ok, err);
        if (ok && expectErr == bytes4(0)) signerIdx = next;
    }

    /// @notice The platform lists or delists a price token (only exact tokens are ever listed); listing an address
    /// without code is refused.
    function setPriceToken(uint256 tokenSeed, bool allowed) external step {
        tokenSeed = _h(tokenSeed);
        address token = tokenSeed % 5 == 0 ? stranger : tokens[1 + tokenSeed % 3];
        bytes4 expectErr = token.code.length == 0 && allowed ? IRaffleFactory.NotAContract.selector : bytes4(0);
        (bool ok, bytes4 err) =
            _call(admin, address(factory), 0, abi.encodeCall(IRaffleFactoryX.setPriceToken, (token, allowed)));
        _count(ok ? (allowed ? "priceToken.listed" : "priceToken.delisted") : "priceToken.rejected");
        _checkOutcome(ACCESS, "setPriceToken", expectErr == bytes4(0), expectErr, ok, err);
        if (ok && expectErr == bytes4(0)) listed[token] = allowed;
    }

    /// @notice The platform sets each merchant's daily VRF draw budget: a hostile one tries nothing at all (refused:
    /// the floor), a cut waits out the notice, a raise applies at once.
    function setDrawsPerDay(uint256 seed) external step {
        seed = _h(seed);
        uint256[8] memory options = [uint256(0), 1, MIN_DRAWS_PER_DAY - 1, MIN_DRAWS_PER_DAY, 30, 288, 288, 1000];
        uint256 value = options[seed % 8];
        uint256 current = _budgetNow();
        bytes4 expectErr = value < MIN_DRAWS_PER_DAY ? IRaffleFactory.DrawBudgetBelowFloor.selector : bytes4(0);
        (bool ok, bytes4 err) = _call(admin, address(factory), 0, abi.encodeCall(IRaffleFactoryX.setDrawsPerDay, (value)));
        _checkOutcome(ACCESS, "setDrawsPerDay", expectErr == bytes4(0), expectErr, ok, err);
        _count("drawBudget.set");
        if (!ok || expectErr != bytes4(0)) {
            _count("drawBudget.belowFloorRefused");
            return;
        }
        if (value >= current) {
            drawsPerDay = value;
            pendingDrawsAt = 0;
        } else {
            drawsPerDay = current;
            pendingDrawsPerDay = value;
            pendingDrawsAt = block.timestamp + VRF_CONFIG_DELAY;
            _count("drawBudget.cutAnnounced");
        }
        if (factory.drawsPerDay() != _budgetNow()) _violate(ACCESS, "the draw budget is not the one the admin set");
    }

    /// @notice A merchant deploys another raffle: the factory serves any number of them (no VRF consumer cap).
    function deployRaffle(uint256 seed) external step {
        seed = _h(seed);
        RaffleConfig memory config =
            RaffleConfig({commission: seed % 3_001, timeLagBeforeRelease: 1 days, ticketName: "More", ticketSymbol: "MR"});
        uint256 before = factory.raffleCount();
        (bool ok, bytes4 err) =
            _call(merchants[seed % 2], address(factory), 0, abi.encodeCall(IRaffleFactory.deployRaffle, (config)));
        _checkOutcome(ACCESS, "deployRaffle", true, err, ok, err);
        if (ok && factory.raffleCount() != before + 1) _violate(ACCESS, "deployRaffle did not count the raffle");
        _count(before + 1 > 100 ? "raffle.deployedPast100" : "raffle.deployed");
    }
}
