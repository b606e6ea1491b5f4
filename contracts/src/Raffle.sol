// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Address} from "@openzeppelin/contracts/utils/Address.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";

import {Asset, TokenType} from "./libraries/Assets.sol";
import {VrfConfigs} from "./libraries/VrfConfigs.sol";
import {IRaffle, RaffleRoundInfo, RaffleSettings, RoundStatus, RoundView} from "./interfaces/IRaffle.sol";
import {IRaffleFactory} from "./interfaces/IRaffleFactory.sol";
import {IRaffleTicket, PrizeStatus, TicketData} from "./interfaces/IRaffleTicket.sol";
import {RaffleTicketDeployer} from "./RaffleTicketDeployer.sol";

/// @notice A merchant's raffle: rounds of tickets sold through the Exchange, a winner drawn with Chainlink VRF v2.5,
/// and a real pot that the winner claims (less the merchant's commission).
/// @dev The merchant administers the raffle but owns nothing of its draw: the factory asks the platform's coordinator
/// with the VRF settings in force when the round started, and routes the answer here. A draw the factory cannot get
/// makes the round refundable at once, so no failure outside the raffle can keep a round from ending. Price tokens
/// come from the factory's allow-list, and the Exchange measures every payment, so every pot is fully paid.
contract Raffle is IRaffle, AccessControl, ReentrancyGuardTransient {
    using SafeERC20 for IERC20;

    /// @notice May start and end rounds. The merchant holds it; it can grant it to a hot key for automation.
    bytes32 public constant ROUND_MANAGER_ROLE = keccak256("ROUND_MANAGER_ROLE");
    /// @notice Commission cap in basis points (30%).
    uint256 public constant MAX_COMMISSION = 3_000;
    uint256 public constant MIN_TIME_LAG_BEFORE_RELEASE = 1 days;
    uint256 public constant MIN_RANDOMNESS_TIMEOUT = VrfConfigs.MIN_RANDOMNESS_TIMEOUT;
    uint256 public constant MAX_RANDOMNESS_TIMEOUT = VrfConfigs.MAX_RANDOMNESS_TIMEOUT;
    /// @notice After a round has been open this long anyone may end it, so no merchant can hold its players'
    /// money in a round that never ends.
    uint256 public constant MAX_ROUND_DURATION = 30 days;
    /// @notice Gas the factory gets to request a draw; `endRound` refuses to start with less (plus what it needs
    /// afterwards), so no caller can starve the request to turn a draw into refunds.
    uint256 public constant DRAW_REQUEST_GAS = 500_000;
    /// @dev What `endRound` needs after a failed request: the refundable state and three events.
    uint256 private constant DRAW_SETTLE_GAS = 60_000;
    uint256 private constant BASIS_POINTS = 10_000;

    address public immutable exchange;
    /// @notice The platform's factory that deployed this raffle: the source of its randomness and price tokens.
    IRaffleFactory public immutable factory;
    IRaffleTicket public immutable ticketContract;
    uint256 public immutable commission;
    uint256 public immutable timeLagBeforeRelease;

    /// @dev Everything a purchase reads and writes, in one slot: one cold read and one write per ticketContract.
    struct CurrentRound {
        uint64 roundId;
        uint64 nextTicketId;
        uint32 ticketCount;
        uint32 maxTicket;
        bool active;
        bool paused;
    }

    /// @dev Slot 0 holds the round's clock and counters, slot 1 what its draw was asked with; the price is stored
    /// whole for payouts and views.
    struct Round {
        RoundStatus status;
        uint40 startTimestamp;
        uint40 endTimestamp;
        uint40 drawnAt;
        uint32 maxTicket;
        uint32 ticketCount;
        uint64 firstTicketId;
        address coordinator;
        uint40 refundableAt;
        uint32 vrfVersion;
        uint256 winningTicketId;
        uint256 vrfRequestId;
        Asset price;
    }

    CurrentRound private _current;
    /// @dev keccak256 of the active round's price: a purchase compares one word instead of reading four.
    bytes32 private _currentPriceHash;
    mapping(uint256 roundId => Round) private _rounds;
    address public beneficiary;
    /// @dev Commission earned on claimed prizes, per price token (address(0) for native), until the merchant withdraws
    /// it. Pulled, not pushed, so a beneficiary that refuses payment can never block a winner's claim.
    mapping(address token => uint256 amount) public accruedCommission;

    constructor(RaffleSettings memory settings) {
        if (
            settings.admin == address(0) || settings.factory == address(0) || settings.exchange == address(0)
                || settings.ticketDeployer == address(0)
        ) revert ZeroAddress();
        if (settings.commission > MAX_COMMISSION) revert CommissionTooHigh(settings.commission, MAX_COMMISSION);
        if (settings.timeLagBeforeRelease < MIN_TIME_LAG_BEFORE_RELEASE) {
            revert TimeLagTooShort(settings.timeLagBeforeRelease, MIN_TIME_LAG_BEFORE_RELEASE);
        }
        exchange = settings.exchange;
        factory = IRaffleFactory(settings.factory);
        commission = settings.commission;
        timeLagBeforeRelease = settings.timeLagBeforeRelease;
        ticketContract = IRaffleTicket(
            RaffleTicketDeployer(settings.ticketDeployer).deployTicket(settings.ticketName, settings.ticketSymbol)
        );
        _current.nextTicketId = 1;
        _setBeneficiary(settings.admin);
        _grantRole(DEFAULT_ADMIN_ROLE, settings.admin);
        _grantRole(ROUND_MANAGER_ROLE, settings.admin);
    }

    // ---------------------------------------------------------------- rounds

    /// @inheritdoc IRaffle
    function startRound(Asset calldata ticket, Asset calldata price, uint256 maxTicket)
        external
        onlyRole(ROUND_MANAGER_ROLE)
    {
        CurrentRound memory current = _current;
        if (current.active) revert RoundStillActive(current.roundId);
        if (!_isTicketAsset(ticket)) revert InvalidTicketAsset();
        _requireValidPrice(price);
        if (maxTicket > type(uint32).max) revert MaxTicketTooLarge(maxTicket);
        uint32 vrfVersion = factory.authorizeRound(price.tokenType == TokenType.ERC20 ? price.token : address(0));

        uint256 roundId = current.roundId + 1;
        Round storage round = _rounds[roundId];
        round.status = RoundStatus.Active;
        round.startTimestamp = uint40(block.timestamp);
        round.maxTicket = uint32(maxTicket);
        round.firstTicketId = current.nextTicketId;
        round.vrfVersion = vrfVersion;
        round.price = price;

        _current = CurrentRound({
            roundId: uint64(roundId),
            nextTicketId: current.nextTicketId,
            ticketCount: 0,
            maxTicket: uint32(maxTicket),
            active: true,
            paused: current.paused
        });
        _currentPriceHash = keccak256(abi.encode(price));
        emit RoundStarted(roundId, ticket, price, maxTicket, current.nextTicketId);
    }

    /// @inheritdoc IRaffle
    /// @dev Purchases stop first; then 0 tickets close the round, 1 ticket wins outright, more ask the factory for a
    /// draw with the settings the round started with. Whatever the factory or the coordinator do (a spent budget, a
    /// refused request, a revert, all the gas), the round ends: refundable at once if the draw was not requested.
    function endRound() external nonReentrant {
        CurrentRound memory current = _current;
        if (!current.active) revert NoActiveRound();
        uint256 roundId = current.roundId;
        Round storage round = _rounds[roundId];
        if (!hasRole(ROUND_MANAGER_ROLE, msg.sender)) {
            uint256 overdueAt = uint256(round.startTimestamp) + MAX_ROUND_DURATION;
            if (block.timestamp < overdueAt) revert RoundNotOverdue(roundId, overdueAt);
        }
        _current.active = false;

        round.endTimestamp = uint40(block.timestamp);
        round.ticketCount = current.ticketCount;

        if (current.ticketCount == 0) {
            round.status = RoundStatus.Closed;
            emit RoundEnded(roundId, 0, 0);
        } else if (current.ticketCount == 1) {
            emit RoundEnded(roundId, 1, 0);
            _recordWinner(roundId, round, round.firstTicketId, 0);
        } else {
            _requestDraw(roundId, round, current.ticketCount);
        }
    }

    /// @inheritdoc IRaffle
    /// @dev Only the factory calls it, for the coordinator the round asked, and only before the round's
    /// `refundableAt`: from then on the round's fate is refunds, whoever calls `enableRefunds` first, so a loser who
    /// sees a late answer in the mempool gains nothing by racing it. A duplicate or late answer is ignored without
    /// reverting.
    function fulfillDraw(uint256 roundId, uint256 requestId, uint256 randomWord) external {
        if (msg.sender != address(factory)) revert CallerNotFactory(msg.sender);
        Round storage round = _rounds[roundId];
        if (
            round.status != RoundStatus.Drawing || round.vrfRequestId != requestId
                || block.timestamp >= round.refundableAt
        ) return;
        // Full-width modulo: every ticket of the round is reachable, however many there are.
        uint256 winner = round.firstTicketId + (randomWord % round.ticketCount);
        _recordWinner(roundId, round, winner, randomWord);
    }

    // ---------------------------------------------------------------- purchases

    /// @inheritdoc IRaffle
    /// @dev Re-checks everything a buyer controls, so a stale voucher can never buy at a stale price.
    function printTicket(address account, Asset calldata item, Asset calldata price, uint256 externalId)
        external
        payable
        returns (uint256 ticketId)
    {
        if (msg.sender != exchange) revert CallerNotExchange(msg.sender);
        CurrentRound memory current = _current;
        if (current.paused) revert RafflePaused();
        if (!current.active) revert NoActiveRound();
        if (!_isTicketAsset(item)) revert InvalidTicketAsset();
        if (keccak256(abi.encode(price)) != _currentPriceHash) revert PriceMismatch();
        uint256 expectedValue = price.tokenType == TokenType.NATIVE ? price.amount : 0;
        if (msg.value != expectedValue) revert WrongNativeValue(expectedValue, msg.value);
        if (
            (current.maxTicket != 0 && current.ticketCount >= current.maxTicket)
                || current.ticketCount == type(uint32).max
        ) revert RoundFull(current.maxTicket);

        ticketId = current.nextTicketId;
        uint256 serial = current.ticketCount + 1;
        current.ticketCount = uint32(serial);
        current.nextTicketId = uint64(ticketId + 1);
        _current = current;

        emit TicketPurchased(current.roundId, ticketId, account, serial, externalId);
        ticketContract.mintTicket(account, ticketId, current.roundId, serial, externalId);
    }

    // ---------------------------------------------------------------- prizes and refunds

    /// @notice Pays the pot of a drawn round, less commission, to the winning ticket's owner; the commission is
    /// credited to the beneficiary (see `withdrawCommission`). The owner or an approved operator may call it, once.
    function claimPrize(uint256 roundId) external nonReentrant {
        Round storage round = _rounds[roundId];
        _requireStatus(roundId, round, RoundStatus.Drawn);
        uint256 ticketId = round.winningTicketId;
        address winner = _requireOwnerOrApproved(ticketId);
        round.status = RoundStatus.Claimed;

        uint256 pot = _pot(round);
        uint256 commissionAmount = pot * commission / BASIS_POINTS;
        uint256 prize = pot - commissionAmount;
        accruedCommission[round.price.token] += commissionAmount;
        emit PrizeClaimed(roundId, ticketId, winner, prize, commissionAmount);
        ticketContract.setPrizeStatus(ticketId, PrizeStatus.Claimed);
        _pay(round.price.token, winner, prize);
    }

    /// @notice Sends the commission accrued in `token` (address(0) for native) to the beneficiary.
    function withdrawCommission(address token) external onlyRole(DEFAULT_ADMIN_ROLE) nonReentrant {
        uint256 amount = accruedCommission[token];
        if (amount == 0) revert NothingToWithdraw(token);
        accruedCommission[token] = 0;
        address to = beneficiary;
        emit CommissionWithdrawn(token, to, amount);
        _pay(token, to, amount);
    }

    /// @notice Sends an unclaimed pot to the beneficiary once `timeLagBeforeRelease` has passed since the draw.
    function releasePrize(uint256 roundId) external onlyRole(DEFAULT_ADMIN_ROLE) nonReentrant {
        Round storage round = _rounds[roundId];
        _requireStatus(roundId, round, RoundStatus.Drawn);
        uint256 releasableAt = uint256(round.drawnAt) + timeLagBeforeRelease;
        if (block.timestamp < releasableAt) revert PrizeNotReleasableYet(roundId, releasableAt);
        round.status = RoundStatus.Released;

        uint256 pot = _pot(round);
        address to = beneficiary;
        emit PrizeReleased(roundId, to, pot);
        ticketContract.setPrizeStatus(round.winningTicketId, PrizeStatus.Released);
        _pay(round.price.token, to, pot);
    }

    /// @notice Opens refunds for a round whose randomness did not arrive by its `refundableAt`. Anyone may call it:
    /// the outcome depends only on the time, never on who calls first.
    function enableRefunds(uint256 roundId) external {
        Round storage round = _rounds[roundId];
        _requireStatus(roundId, round, RoundStatus.Drawing);
        uint256 refundableAt = round.refundableAt;
        if (block.timestamp < refundableAt) revert RandomnessNotTimedOut(roundId, refundableAt);
        round.status = RoundStatus.Refundable;
        emit RoundRefundable(roundId);
    }

    /// @notice Burns a ticket of a refundable round and pays its price back to its owner.
    function refundTicket(uint256 ticketId) external nonReentrant {
        TicketData memory data = ticketContract.getTicketData(ticketId);
        Round storage round = _rounds[data.roundId];
        _requireStatus(data.roundId, round, RoundStatus.Refundable);
        address owner = _requireOwnerOrApproved(ticketId);

        uint256 amount = round.price.amount;
        emit TicketRefunded(data.roundId, ticketId, owner, amount);
        ticketContract.burn(ticketId);
        _pay(round.price.token, owner, amount);
    }

    // ---------------------------------------------------------------- admin

    function pause() external onlyRole(DEFAULT_ADMIN_ROLE) {
        if (_current.paused) revert RafflePaused();
        _current.paused = true;
        emit Paused(msg.sender);
    }

    function unpause() external onlyRole(DEFAULT_ADMIN_ROLE) {
        if (!_current.paused) revert RaffleNotPaused();
        _current.paused = false;
        emit Unpaused(msg.sender);
    }

    function setBeneficiary(address newBeneficiary) external onlyRole(DEFAULT_ADMIN_ROLE) {
        _setBeneficiary(newBeneficiary);
    }

    // ---------------------------------------------------------------- views

    /// @inheritdoc IRaffle
    function getCurrentRoundInfo() external view returns (RaffleRoundInfo memory info) {
        uint256 roundId = _current.roundId;
        if (roundId == 0) return info;
        Round storage round = _rounds[roundId];
        info = RaffleRoundInfo({
            roundId: roundId,
            startTimestamp: round.startTimestamp,
            endTimestamp: round.endTimestamp,
            maxTicket: round.maxTicket,
            prizeNumber: round.winningTicketId,
            acceptedAsset: round.price,
            ticketAsset: ticketAsset()
        });
    }

    /// @notice Full state of any round; `ticketCount` is live for the active round.
    function getRound(uint256 roundId) external view returns (RoundView memory view_) {
        Round storage round = _rounds[roundId];
        CurrentRound memory current = _current;
        bool live = current.active && roundId == current.roundId;
        view_ = RoundView({
            status: round.status,
            startTimestamp: round.startTimestamp,
            endTimestamp: round.endTimestamp,
            drawnAt: round.drawnAt,
            maxTicket: round.maxTicket,
            ticketCount: live ? current.ticketCount : round.ticketCount,
            firstTicketId: round.firstTicketId,
            winningTicketId: round.winningTicketId,
            vrfRequestId: round.vrfRequestId,
            price: round.price,
            coordinator: round.coordinator,
            refundableAt: round.refundableAt,
            vrfVersion: round.vrfVersion
        });
    }

    /// @notice The only ticket asset this raffle sells: one token of its own ticket contract.
    function ticketAsset() public view returns (Asset memory) {
        return Asset({tokenType: TokenType.ERC721, token: address(ticketContract), tokenId: 0, amount: 1});
    }

    function paused() external view returns (bool) {
        return _current.paused;
    }

    // ---------------------------------------------------------------- internals

    function _recordWinner(uint256 roundId, Round storage round, uint256 ticketId, uint256 randomWord) private {
        round.status = RoundStatus.Drawn;
        round.drawnAt = uint40(block.timestamp);
        round.winningTicketId = ticketId;
        emit WinnerDrawn(roundId, ticketId, randomWord);
        ticketContract.setPrizeStatus(ticketId, PrizeStatus.Unclaimed);
    }

    /// @dev The request gets a fixed gas allowance and the caller must send enough for it and what follows, so a
    /// failure here is the factory's or the coordinator's, never a caller's choice.
    function _requestDraw(uint256 roundId, Round storage round, uint256 ticketCount) private {
        uint256 required = DRAW_REQUEST_GAS * 64 / 63 + DRAW_SETTLE_GAS;
        if (gasleft() < required) revert NotEnoughGasForDraw(required, gasleft());
        try factory.requestDraw{gas: DRAW_REQUEST_GAS}(roundId, round.vrfVersion) returns (
            uint256 requestId, address coordinator, uint32 randomnessTimeout
        ) {
            round.status = RoundStatus.Drawing;
            round.coordinator = coordinator;
            round.refundableAt = uint40(block.timestamp + randomnessTimeout);
            round.vrfRequestId = requestId;
            emit RoundEnded(roundId, ticketCount, requestId);
        } catch (bytes memory reason) {
            round.status = RoundStatus.Refundable;
            round.refundableAt = uint40(block.timestamp);
            emit RoundEnded(roundId, ticketCount, 0);
            emit DrawRefused(roundId, reason);
            emit RoundRefundable(roundId);
        }
    }

    function _setBeneficiary(address newBeneficiary) private {
        if (newBeneficiary == address(0)) revert ZeroAddress();
        beneficiary = newBeneficiary;
        emit BeneficiarySet(newBeneficiary);
    }

    function _requireStatus(uint256 roundId, Round storage round, RoundStatus expected) private view {
        if (round.status != expected) revert UnexpectedRoundStatus(roundId, round.status);
    }

    function _requireOwnerOrApproved(uint256 ticketId) private view returns (address owner) {
        owner = ticketContract.ownerOf(ticketId);
        if (
            msg.sender != owner && !ticketContract.isApprovedForAll(owner, msg.sender)
                && ticketContract.getApproved(ticketId) != msg.sender
        ) revert NotTicketOwnerOrApproved(ticketId, msg.sender);
    }

    function _pot(Round storage round) private view returns (uint256) {
        return uint256(round.ticketCount) * round.price.amount;
    }

    /// @dev Prices are NATIVE (token 0) or ERC20, so the token address alone says how to pay.
    function _pay(address token, address to, uint256 amount) private {
        if (amount == 0) return;
        if (token == address(0)) Address.sendValue(payable(to), amount);
        else IERC20(token).safeTransfer(to, amount);
    }

    function _isTicketAsset(Asset calldata asset) private view returns (bool) {
        return asset.tokenType == TokenType.ERC721 && asset.token == address(ticketContract) && asset.tokenId == 0
            && asset.amount == 1;
    }

    /// @dev Amounts are capped at 2^128 so `ticketCount * amount` can never overflow and lock a pot. An ERC20 must
    /// also be on the platform's list (checked by `factory.authorizeRound`): a fee-on-transfer, rebasing or
    /// short-delivering token, or an ERC721 posing as an ERC20 (same `transferFrom` selector), would leave the raffle
    /// owing more than it holds.
    function _requireValidPrice(Asset calldata price) private pure {
        if (price.tokenId != 0 || price.amount == 0 || price.amount > type(uint128).max) revert InvalidPriceAsset();
        if (price.tokenType == TokenType.NATIVE) {
            if (price.token != address(0)) revert InvalidPriceAsset();
        } else if (price.tokenType != TokenType.ERC20) {
            revert InvalidPriceAsset();
        } else if (price.token == address(0)) {
            revert PriceTokenNotAllowed(address(0));
        }
    }
}
