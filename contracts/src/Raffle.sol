// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Address} from "@openzeppelin/contracts/utils/Address.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {IERC1155Receiver} from "@openzeppelin/contracts/token/ERC1155/IERC1155Receiver.sol";

import {Asset, TokenType} from "./libraries/Assets.sol";
import {BundlePrice} from "./libraries/BundlePrice.sol";
import {DrawRule} from "./libraries/DrawRule.sol";
import {ItemTransfer} from "./libraries/ItemTransfer.sol";
import {PrizeSplit} from "./libraries/PrizeSplit.sol";
import {VrfConfigs} from "./libraries/VrfConfigs.sol";
import {
    Bundle,
    IRaffle,
    RaffleRoundInfo,
    RaffleSettings,
    RoundRules,
    RoundStatus,
    RoundView,
    TicketRef,
    Winner
} from "./interfaces/IRaffle.sol";
import {IItemPrizes, ItemPrize, ItemStatus, RoundItem} from "./interfaces/IItemPrizes.sol";
import {IRaffleFactory} from "./interfaces/IRaffleFactory.sol";
import {IRaffleTicket, PrizeStatus} from "./interfaces/IRaffleTicket.sol";
import {IRaffleTicketDeployer} from "./interfaces/IDeployers.sol";

/// @notice A merchant's raffle: rounds of tickets sold through the Exchange, in bundles if the merchant wishes, with
/// one to MAX_WINNERS winners drawn from one Chainlink VRF v2.5 word, and a real pot that the winners share (less the
/// merchant's commission). A round below its minimum refunds every ticket.
/// @dev The merchant administers the raffle but owns nothing of its draw: the factory asks the platform's coordinator
/// with the VRF settings in force when the round started, and routes the answer here. A draw the factory cannot get
/// makes the round refundable at once, so no failure outside the raffle can keep a round from ending. Price tokens
/// come from the factory's allow-list, and the Exchange measures every payment, so every pot is fully paid.
/// Winning positions may also carry items (ERC721, ERC1155, ERC20) escrowed from the merchant when the round starts
/// (see `IItemPrizes`); each item moves alone, so one that misbehaves holds up nothing but itself.
contract Raffle is IRaffle, IItemPrizes, AccessControl, ReentrancyGuardTransient {
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
    /// @notice Most winner positions a round may have.
    uint256 public constant MAX_WINNERS = 20;
    /// @notice Most bundles a round may sell.
    uint256 public constant MAX_BUNDLES = 5;
    /// @notice Most tickets one purchase may buy (the ERC721A mint loop costs about 2k gas a ticket).
    uint256 public constant MAX_TICKETS_PER_PURCHASE = 100;
    /// @notice Most tickets one `claimPrizes` or `refundTickets` call may settle, so a batch always fits in a block.
    uint256 public constant MAX_BATCH = 100;
    /// @dev What `endRound` needs after a failed request: the refundable state and four events (one by the tickets).
    uint256 private constant DRAW_SETTLE_GAS = 60_000;
    /// @dev Gas the callback must have left to try drawing the winners itself: a fixed part (with room for the ticket
    /// contract's metadata event) and a part per winner (hashing, the duplicate scan and a quarter of a fresh storage
    /// slot), with a margin; with less, `finishDraw` draws them.
    uint256 private constant DRAW_BASE_GAS = 70_000;
    uint256 private constant DRAW_GAS_PER_WINNER = 12_000;
    /// @dev Gas `fulfillDraw` keeps back from its inline draw, so that it returns even when the draw runs out: the
    /// failed call's return and the factory's, with a wide margin.
    uint256 private constant DRAW_EXIT_GAS = 10_000;
    uint256 private constant BASIS_POINTS = PrizeSplit.BASIS_POINTS;

    address public immutable exchange;
    /// @notice The platform's factory that deployed this raffle: the source of its randomness and price tokens.
    IRaffleFactory public immutable factory;
    IRaffleTicket public immutable ticketContract;
    uint256 public immutable commission;
    uint256 public immutable timeLagBeforeRelease;

    /// @dev Everything a one-ticket purchase reads and writes, in one slot.
    struct CurrentRound {
        uint32 roundId;
        uint32 ticketCount;
        uint32 maxTicket;
        bool active;
        bool paused;
        bool hasBundles;
        bool hasWalletCap;
        uint128 pot;
    }

    /// @dev The active round's price token and price of one ticket, in one slot (prices are capped at 2^96 - 1).
    struct CurrentPrice {
        address token;
        uint96 amount;
    }

    /// @dev Slot 0 holds the round's clock and counters, slot 1 what its draw was asked with, slot 2 its pot and
    /// prize bookkeeping; the price is stored whole for payouts and views.
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
        uint8 winnersCount;
        uint128 pot;
        uint32 rulesVersion;
        /// @dev Bit i: the prize of position i was claimed.
        uint32 claimedPositions;
        /// @dev Bit i: position i carries an escrowed item.
        uint32 itemPositions;
        /// @dev Bit i: position i's item left escrow (to its winner or back to the merchant).
        uint32 itemsOut;
        uint256 vrfRequestId;
        uint256 randomWord;
        Asset price;
    }

    struct EscrowedItem {
        Asset asset;
        ItemStatus status;
    }

    CurrentRound private _current;
    CurrentPrice private _currentPrice;
    mapping(uint256 roundId => Round) private _rounds;
    /// @dev Winning ticket ids per round, first position first; uint64 packs four to a slot.
    mapping(uint256 roundId => uint64[MAX_WINNERS]) private _winners;
    /// @dev Tickets each buyer bought per round, kept only for rounds with a wallet cap.
    mapping(uint256 roundId => mapping(address account => uint256 tickets)) private _ticketsBought;
    /// @dev Every rules version ever set; a version is never changed, so a round's rules are fixed by its version.
    RoundRules[] private _rules;
    uint32 private _rulesVersion;
    /// @dev The items rounds started from now on escrow, and the merchant (the admin who set them) they come from.
    ItemPrize[] private _nextItems;
    address private _itemMerchant;
    /// @dev Each round's items by position (0 = first prize), where each is, and the merchant they go back to.
    mapping(uint256 roundId => mapping(uint256 position => EscrowedItem)) private _roundItems;
    mapping(uint256 roundId => address merchant) private _roundItemMerchant;

    address public beneficiary;
    /// @dev Commission earned on claimed prizes, per price token (address(0) for native), until the merchant withdraws
    /// it. Pulled, not pushed, so a beneficiary that refuses payment can never block a winner's claim.
    mapping(address token => uint256 amount) public accruedCommission;

    /// @notice `drawInCallback` was called by someone other than the raffle itself.
    error CallerNotSelf(address caller);

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
            IRaffleTicketDeployer(settings.ticketDeployer).deployTicket(settings.ticketName, settings.ticketSymbol)
        );
        // Version 0: one winner takes the pot, no minimum, no cap, no bundles.
        _rules.push().prizeShares.push(uint16(BASIS_POINTS));
        _setBeneficiary(settings.admin);
        _grantRole(DEFAULT_ADMIN_ROLE, settings.admin);
        _grantRole(ROUND_MANAGER_ROLE, settings.admin);
    }

    // ---------------------------------------------------------------- rules

    /// @inheritdoc IRaffle
    function setRoundRules(RoundRules calldata rules) external onlyRole(DEFAULT_ADMIN_ROLE) {
        uint256 winners = rules.prizeShares.length;
        uint256 sum;
        bool zeroShare;
        for (uint256 i; i < winners; ++i) {
            sum += rules.prizeShares[i];
            if (rules.prizeShares[i] == 0) zeroShare = true;
        }
        if (winners == 0 || winners > MAX_WINNERS || sum != BASIS_POINTS || zeroShare) {
            revert InvalidPrizeShares(winners, sum);
        }
        uint256 bundles = rules.bundles.length;
        if (bundles > MAX_BUNDLES) revert InvalidBundle(MAX_BUNDLES);
        for (uint256 i; i < bundles; ++i) {
            Bundle calldata bundle = rules.bundles[i];
            uint256 quantity = bundle.quantity;
            bool valid = quantity >= 2 && quantity <= MAX_TICKETS_PER_PURCHASE && bundle.price != 0
                && bundle.price % quantity == 0 && bundle.price / quantity <= type(uint96).max;
            if (valid && i != 0) {
                Bundle calldata previous = rules.bundles[i - 1];
                valid = quantity > previous.quantity && bundle.price / quantity <= previous.price / previous.quantity;
            }
            if (!valid) revert InvalidBundle(i);
        }

        RoundRules storage stored = _rules.push();
        for (uint256 i; i < winners; ++i) {
            stored.prizeShares.push(rules.prizeShares[i]);
        }
        stored.minTickets = rules.minTickets;
        stored.maxTicketsPerWallet = rules.maxTicketsPerWallet;
        for (uint256 i; i < bundles; ++i) {
            stored.bundles.push(rules.bundles[i]);
        }
        uint256 version = _rules.length - 1;
        _rulesVersion = uint32(version);
        emit RoundRulesSet(version, rules);
    }

    /// @inheritdoc IRaffle
    function roundRules() external view returns (RoundRules memory) {
        return _rules[_rulesVersion];
    }

    /// @inheritdoc IRaffle
    function getRoundRules(uint256 roundId) external view returns (RoundRules memory) {
        return _rules[_rounds[roundId].rulesVersion];
    }

    // ---------------------------------------------------------------- rounds

    /// @inheritdoc IRaffle
    /// @dev Fixes the rules in force into the round: later `setRoundRules` calls never reach it.
    /// The merchant's items for the round are pulled into escrow last; any that cannot be refuses the round.
    function startRound(Asset calldata ticket, Asset calldata price, uint256 maxTicket)
        external
        onlyRole(ROUND_MANAGER_ROLE)
        nonReentrant
    {
        CurrentRound memory current = _current;
        if (current.active) revert RoundStillActive(current.roundId);
        if (!_isTicketAsset(ticket) || ticket.amount != 1) revert InvalidTicketAsset();
        _requireValidPrice(price);
        if (maxTicket > type(uint32).max) revert MaxTicketTooLarge(maxTicket);
        uint32 rulesVersion = _rulesVersion;
        RoundRules storage rules = _rules[rulesVersion];
        uint256 itemCount = _nextItems.length;
        uint256 winners = _winnersOf(rules, itemCount);
        uint256 required = _ticketsRequired(rules, winners);
        if (maxTicket != 0 && maxTicket < required) revert MaxTicketBelowMinimum(maxTicket, required);
        if (rules.bundles.length != 0) {
            // Bundles are priced in the round's token and never cost more per ticket than one ticket does.
            if (BundlePrice.ofBundle(rules.bundles[0]) > price.amount) revert BundleAboveRoundPrice(0);
        }
        uint32 vrfVersion = factory.authorizeRound(price.tokenType == TokenType.ERC20 ? price.token : address(0));

        uint256 roundId = current.roundId + 1;
        uint256 firstTicketId = ticketContract.nextTicketId();
        Round storage round = _rounds[roundId];
        round.status = RoundStatus.Active;
        round.startTimestamp = uint40(block.timestamp);
        round.maxTicket = uint32(maxTicket);
        round.firstTicketId = uint64(firstTicketId);
        round.vrfVersion = vrfVersion;
        round.winnersCount = uint8(winners);
        round.rulesVersion = rulesVersion;
        round.price = price;

        _current = CurrentRound({
            roundId: uint32(roundId),
            ticketCount: 0,
            maxTicket: uint32(maxTicket),
            active: true,
            paused: current.paused,
            hasBundles: rules.bundles.length != 0,
            hasWalletCap: rules.maxTicketsPerWallet != 0,
            pot: 0
        });
        _currentPrice = CurrentPrice({token: price.token, amount: uint96(price.amount)});
        emit RoundStarted(roundId, ticket, price, maxTicket, firstTicketId);
        emit RoundRulesApplied(roundId, rulesVersion, rules);
        if (itemCount != 0) _escrowItems(roundId, round, itemCount);
    }

    /// @dev Pulls the round's items from the merchant, measuring what arrived: a token that delivers less (a fee) or
    /// cannot be pulled (not approved, paused) refuses the whole round with a named error.
    function _escrowItems(uint256 roundId, Round storage round, uint256 itemCount) private {
        address merchant = _itemMerchant;
        _roundItemMerchant[roundId] = merchant;
        ItemPrize[] memory items = _nextItems;
        uint32 positions;
        for (uint256 i; i < itemCount; ++i) {
            uint256 position = items[i].position - 1;
            positions |= uint32(1 << position);
            EscrowedItem storage stored = _roundItems[roundId][position];
            stored.asset = items[i].asset;
            stored.status = ItemStatus.Escrowed;
        }
        round.itemPositions = positions;
        emit ItemsEscrowed(roundId, merchant, items);
        for (uint256 i; i < itemCount; ++i) {
            // solhint-disable-next-line no-empty-blocks
            try this.moveItem(items[i].asset, merchant, address(this)) {}
            catch (bytes memory reason) {
                revert ItemNotEscrowed(items[i].position, reason);
            }
        }
    }

    /// @inheritdoc IRaffle
    /// @dev Purchases stop first; then 0 tickets close the round, too few for its rules make it refundable, a single
    /// ticket with a single prize wins outright, and more ask the factory for a draw with the settings the round
    /// started with. Whatever the factory or the coordinator do (a spent budget, a refused request, a revert, all
    /// the gas), the round ends: refundable at once if the draw was not requested.
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

        uint256 ticketCount = current.ticketCount;
        round.endTimestamp = uint40(block.timestamp);
        round.ticketCount = uint32(ticketCount);
        round.pot = current.pot;

        uint256 required = _ticketsRequired(_rules[round.rulesVersion], round.winnersCount);
        if (ticketCount == 0) {
            round.status = RoundStatus.Closed;
            emit RoundEnded(roundId, 0, 0);
        } else if (ticketCount < required) {
            round.status = RoundStatus.Refundable;
            round.refundableAt = uint40(block.timestamp);
            emit RoundEnded(roundId, ticketCount, 0);
            emit MinimumNotReached(roundId, ticketCount, required);
            emit RoundRefundable(roundId);
            _announceRound(round);
        } else if (ticketCount == 1) {
            // One ticket and one prize: nothing to draw. The rule gives the same ticket for any word.
            emit RoundEnded(roundId, 1, 0);
            _drawWinners(roundId, round);
        } else {
            _requestDraw(roundId, round, ticketCount);
        }
    }

    /// @inheritdoc IRaffle
    /// @dev Only the factory calls it, for the coordinator the round asked, and only before the round's
    /// `refundableAt`: from then on the round's fate is refunds, whoever calls `enableRefunds` first, so a loser who
    /// sees a late answer in the mempool gains nothing by racing it. A duplicate or late answer is ignored without
    /// reverting. Once the word is recorded the winners are fixed, whoever draws them and when.
    function fulfillDraw(uint256 roundId, uint256 requestId, uint256 randomWord) external {
        if (msg.sender != address(factory)) revert CallerNotFactory(msg.sender);
        Round storage round = _rounds[roundId];
        if (
            round.status != RoundStatus.Drawing || round.vrfRequestId != requestId
                || block.timestamp >= round.refundableAt
        ) return;
        round.status = RoundStatus.WinnersPending;
        round.randomWord = randomWord;
        emit RandomnessReceived(roundId, randomWord);
        // The word is kept whatever follows. The inline draw runs in a call of this raffle to itself, capped so that
        // DRAW_EXIT_GAS stays here: a draw that needs more re-hashes than the gas left pays for is undone alone, the
        // round stays WinnersPending for `finishDraw`, and the callback still returns. A draw the estimate says the
        // gas cannot afford is not tried, so the subscription pays for no failing attempt.
        uint256 available = gasleft();
        if (available >= DRAW_BASE_GAS + DRAW_GAS_PER_WINNER * round.winnersCount + DRAW_EXIT_GAS) {
            // solhint-disable-next-line no-empty-blocks
            try this.drawInCallback{gas: available - DRAW_EXIT_GAS}(roundId) {} catch {}
        }
    }

    /// @notice The inline draw of `fulfillDraw`, as a call of the raffle to itself (see there). The raffle only.
    function drawInCallback(uint256 roundId) external {
        if (msg.sender != address(this)) revert CallerNotSelf(msg.sender);
        _drawWinners(roundId, _rounds[roundId]);
    }

    /// @inheritdoc IRaffle
    function finishDraw(uint256 roundId) external {
        Round storage round = _rounds[roundId];
        _requireStatus(roundId, round, RoundStatus.WinnersPending);
        _drawWinners(roundId, round);
    }

    // ---------------------------------------------------------------- purchases

    /// @inheritdoc IRaffle
    /// @dev Re-checks everything a buyer controls, so a stale voucher can never buy at a stale price or quantity. The
    /// mint, which ends with the buyer's ERC721 receiver check, is the purchase's last step.
    function printTicket(address account, Asset calldata item, Asset calldata price, uint256 externalId)
        external
        payable
        returns (uint256 firstTicketId)
    {
        if (msg.sender != exchange) revert CallerNotExchange(msg.sender);
        CurrentRound memory current = _current;
        if (current.paused) revert RafflePaused();
        if (!current.active) revert NoActiveRound();
        if (!_isTicketAsset(item)) revert InvalidTicketAsset();
        uint256 quantity = item.amount;
        if (quantity == 0 || quantity > MAX_TICKETS_PER_PURCHASE) {
            revert InvalidQuantity(quantity, MAX_TICKETS_PER_PURCHASE);
        }

        CurrentPrice memory unit = _currentPrice;
        (uint256 perTicket, uint24 tier) =
            current.hasBundles ? _bundlePrice(current.roundId, unit.amount, quantity) : (uint256(unit.amount), 0);
        uint256 amount = perTicket * quantity;
        if (
            price.token != unit.token || price.tokenId != 0 || price.amount != amount
                || price.tokenType != (unit.token == address(0) ? TokenType.NATIVE : TokenType.ERC20)
        ) revert PriceMismatch();
        uint256 expectedValue = unit.token == address(0) ? amount : 0;
        if (msg.value != expectedValue) revert WrongNativeValue(expectedValue, msg.value);

        uint256 left = (current.maxTicket == 0 ? type(uint32).max : current.maxTicket) - current.ticketCount;
        if (quantity > left) revert RoundFull(current.maxTicket, left);
        if (current.hasWalletCap) _countTowardsWalletCap(current.roundId, account, quantity);

        // Rounds hold consecutive ticket ids and only this raffle mints, so the new tickets follow the round's last.
        firstTicketId = _rounds[current.roundId].firstTicketId + current.ticketCount;
        current.ticketCount += uint32(quantity);
        current.pot += uint128(amount);
        _current = current;
        emit TicketsPurchased(current.roundId, account, firstTicketId, quantity, amount, externalId);

        // Last, once the purchase is complete (checks-effects-interactions): the mint ends with a contract buyer's
        // `onERC721Received`, which may move tickets, re-enter or revert, and finds every tier and book final.
        ticketContract.mintTickets(account, quantity, tier);
    }

    /// @inheritdoc IRaffle
    function priceOf(uint256 quantity) external view returns (Asset memory price) {
        CurrentRound memory current = _current;
        if (!current.active) revert NoActiveRound();
        if (quantity == 0 || quantity > MAX_TICKETS_PER_PURCHASE) {
            revert InvalidQuantity(quantity, MAX_TICKETS_PER_PURCHASE);
        }
        CurrentPrice memory unit = _currentPrice;
        (uint256 perTicket,) =
            current.hasBundles ? _bundlePrice(current.roundId, unit.amount, quantity) : (uint256(unit.amount), 0);
        price = Asset({
            tokenType: unit.token == address(0) ? TokenType.NATIVE : TokenType.ERC20,
            token: unit.token,
            tokenId: 0,
            amount: perTicket * quantity
        });
    }

    // ---------------------------------------------------------------- prizes and refunds

    /// @inheritdoc IRaffle
    /// @dev Each prize is the position's amount (see `Winner.amount`); the commission on it is credited to the
    /// beneficiary (see `withdrawCommission`). A position's item goes to the ticket's holder; if that transfer fails
    /// (a receiver or token that refuses), the share is still paid and the item stays claimable. A round whose prizes
    /// and items are all claimed becomes `Claimed`.
    function claimPrizes(TicketRef[] calldata tickets) external nonReentrant {
        _requireBatchSize(tickets.length);
        address settler = _settler();
        for (uint256 i; i < tickets.length; ++i) {
            (uint256 roundId, uint256 ticketId) = (tickets[i].roundId, tickets[i].ticketId);
            Round storage round = _rounds[roundId];
            _requireStatus(roundId, round, RoundStatus.Drawn);
            uint256 position = _unclaimedPosition(roundId, round, ticketId);
            address winner = _requireOwnerOrApproved(ticketId, settler);

            uint256 bit = uint256(1) << position;
            uint32 claimed = round.claimedPositions;
            bool shareOwed = claimed & bit == 0;
            if (shareOwed) {
                claimed |= uint32(bit);
                round.claimedPositions = claimed;
            }
            if (round.itemPositions & ~round.itemsOut & bit != 0) _claimItem(roundId, round, position, ticketId, winner);
            if (claimed == (uint256(1) << round.winnersCount) - 1 && round.itemsOut == round.itemPositions) {
                round.status = RoundStatus.Claimed;
            }
            if (!shareOwed) continue;

            uint256 amount = _prizeAmount(round, position);
            uint256 commissionAmount = PrizeSplit.commissionOf(amount, commission);
            uint256 prize = amount - commissionAmount;
            address token = round.price.token;
            accruedCommission[token] += commissionAmount;
            emit PrizeClaimed(roundId, ticketId, winner, prize, commissionAmount);
            _announce(ticketId, ticketId);
            _pay(token, winner, prize);
        }
    }

    /// @inheritdoc IRaffle
    function withdrawCommission(address token) external onlyRole(DEFAULT_ADMIN_ROLE) nonReentrant {
        uint256 amount = accruedCommission[token];
        if (amount == 0) revert NothingToWithdraw(token);
        accruedCommission[token] = 0;
        address to = beneficiary;
        emit CommissionWithdrawn(token, to, amount);
        _pay(token, to, amount);
    }

    /// @inheritdoc IRaffle
    function releasePrize(uint256 roundId) external onlyRole(DEFAULT_ADMIN_ROLE) nonReentrant {
        Round storage round = _rounds[roundId];
        _requireStatus(roundId, round, RoundStatus.Drawn);
        uint256 releasableAt = uint256(round.drawnAt) + timeLagBeforeRelease;
        if (block.timestamp < releasableAt) revert PrizeNotReleasableYet(roundId, releasableAt);
        round.status = RoundStatus.Released;

        uint256 amount;
        uint256 claimed = round.claimedPositions;
        for (uint256 position; position < round.winnersCount; ++position) {
            if (claimed & (uint256(1) << position) == 0) amount += _prizeAmount(round, position);
        }
        address to = beneficiary;
        emit PrizeReleased(roundId, to, amount);
        _announceRound(round);
        _pay(round.price.token, to, amount);
    }

    /// @inheritdoc IRaffle
    /// @dev The outcome depends only on the time, never on who calls first.
    function enableRefunds(uint256 roundId) external {
        Round storage round = _rounds[roundId];
        _requireStatus(roundId, round, RoundStatus.Drawing);
        uint256 refundableAt = round.refundableAt;
        if (block.timestamp < refundableAt) revert RandomnessNotTimedOut(roundId, refundableAt);
        round.status = RoundStatus.Refundable;
        emit RoundRefundable(roundId);
        _announceRound(round);
    }

    /// @inheritdoc IRaffle
    /// @dev A ticket pays back what it was bought at: the round's price, or its bundle's price per ticket.
    function refundTickets(TicketRef[] calldata tickets) external nonReentrant {
        _requireBatchSize(tickets.length);
        address settler = _settler();
        for (uint256 i; i < tickets.length; ++i) {
            (uint256 roundId, uint256 ticketId) = (tickets[i].roundId, tickets[i].ticketId);
            Round storage round = _rounds[roundId];
            _requireStatus(roundId, round, RoundStatus.Refundable);
            if (ticketId < round.firstTicketId || ticketId >= uint256(round.firstTicketId) + round.ticketCount) {
                revert TicketNotInRound(roundId, ticketId);
            }
            address owner = _requireOwnerOrApproved(ticketId, settler);
            uint256 amount = _ticketPrice(round, ticketContract.tierOf(ticketId));
            emit TicketRefunded(roundId, ticketId, owner, amount);
            ticketContract.burn(ticketId);
            _pay(round.price.token, owner, amount);
        }
    }

    // ---------------------------------------------------------------- item prizes

    /// @inheritdoc IItemPrizes
    /// @dev The caller, an admin, is the merchant the items are pulled from and go back to: an admin can only ever
    /// escrow its own items, never those of someone else who approved the raffle.
    function setItemPrizes(ItemPrize[] calldata items) external onlyRole(DEFAULT_ADMIN_ROLE) {
        uint256 count = items.length;
        uint256 previous;
        address tickets = address(ticketContract);
        for (uint256 i; i < count; ++i) {
            uint256 position = items[i].position;
            if (position <= previous || position > MAX_WINNERS || !ItemTransfer.isValid(items[i].asset, tickets)) {
                revert InvalidItemPrize(i);
            }
            previous = position;
        }
        delete _nextItems;
        for (uint256 i; i < count; ++i) {
            _nextItems.push(items[i]);
        }
        _itemMerchant = msg.sender;
        emit ItemPrizesSet(msg.sender, items);
    }

    /// @inheritdoc IItemPrizes
    function itemPrizes() external view returns (address merchant, ItemPrize[] memory items) {
        return (_itemMerchant, _nextItems);
    }

    /// @inheritdoc IItemPrizes
    function getRoundItems(uint256 roundId) external view returns (address merchant, RoundItem[] memory items) {
        uint256 positions = _rounds[roundId].itemPositions;
        uint256 count;
        for (uint256 rest = positions; rest != 0; rest &= rest - 1) {
            ++count;
        }
        items = new RoundItem[](count);
        uint256 next;
        for (uint256 position; position < MAX_WINNERS && next < count; ++position) {
            if (positions & (uint256(1) << position) == 0) continue;
            EscrowedItem storage item = _roundItems[roundId][position];
            items[next++] = RoundItem({position: position + 1, asset: item.asset, status: item.status});
        }
        return (_roundItemMerchant[roundId], items);
    }

    /// @inheritdoc IItemPrizes
    /// @dev A round that can pay no winner (closed, refundable) returns its items at once; a drawn round once its
    /// release time has come, so a winner has exactly as long to claim an item as a share. Each item moves alone: one
    /// that cannot (a paused token) stays in escrow for a later call and holds up none of the others.
    function returnItems(uint256 roundId) external nonReentrant {
        Round storage round = _rounds[roundId];
        RoundStatus status = round.status;
        if (status == RoundStatus.Drawn || status == RoundStatus.Claimed) {
            uint256 releasableAt = uint256(round.drawnAt) + timeLagBeforeRelease;
            if (block.timestamp < releasableAt) revert PrizeNotReleasableYet(roundId, releasableAt);
        } else if (status != RoundStatus.Closed && status != RoundStatus.Refundable && status != RoundStatus.Released) {
            revert UnexpectedRoundStatus(roundId, status);
        }
        uint256 pending = round.itemPositions & ~uint256(round.itemsOut);
        if (pending == 0) revert NoItemsToReturn(roundId);
        address merchant = _roundItemMerchant[roundId];
        for (uint256 position; pending != 0; ++position) {
            uint256 bit = uint256(1) << position;
            if (pending & bit == 0) continue;
            pending &= ~bit;
            if (_sendItem(roundId, round, position, merchant, ItemStatus.Returned)) {
                emit ItemReturned(roundId, merchant, position + 1, _roundItems[roundId][position].asset);
            }
        }
    }

    /// @notice Moves an item in or out of escrow and measures that exactly its amount moved (see `ItemTransfer`), so
    /// a failing or short transfer is undone alone, in this call. The raffle only.
    function moveItem(Asset calldata asset, address from, address to) external {
        if (msg.sender != address(this)) revert CallerNotSelf(msg.sender);
        uint256 before = ItemTransfer.held(asset);
        ItemTransfer.move(asset, from, to);
        uint256 afterwards = ItemTransfer.held(asset);
        uint256 moved;
        if (from == address(this)) moved = before > afterwards ? before - afterwards : 0;
        else moved = afterwards > before ? afterwards - before : 0;
        if (moved != asset.amount) revert ItemAmountMismatch(asset.amount, moved);
    }

    /// @notice Accepts ERC1155 tokens only while the raffle itself pulls them into escrow.
    function onERC1155Received(address operator, address, uint256, uint256, bytes calldata)
        external
        view
        returns (bytes4)
    {
        if (operator != address(this)) revert UnsolicitedItem(operator);
        return IERC1155Receiver.onERC1155Received.selector;
    }

    /// @notice Refuses batches: the raffle never pulls one.
    function onERC1155BatchReceived(address operator, address, uint256[] calldata, uint256[] calldata, bytes calldata)
        external
        pure
        returns (bytes4)
    {
        revert UnsolicitedItem(operator);
    }

    /// @inheritdoc AccessControl
    function supportsInterface(bytes4 interfaceId) public view override returns (bool) {
        return interfaceId == type(IERC1155Receiver).interfaceId || super.supportsInterface(interfaceId);
    }

    // ---------------------------------------------------------------- admin

    /// @inheritdoc IRaffle
    function pause() external onlyRole(DEFAULT_ADMIN_ROLE) {
        if (_current.paused) revert RafflePaused();
        _current.paused = true;
        emit Paused(msg.sender);
    }

    /// @inheritdoc IRaffle
    function unpause() external onlyRole(DEFAULT_ADMIN_ROLE) {
        if (!_current.paused) revert RaffleNotPaused();
        _current.paused = false;
        emit Unpaused(msg.sender);
    }

    /// @inheritdoc IRaffle
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
            prizeNumber: _winners[roundId][0],
            acceptedAsset: round.price,
            ticketAsset: ticketAsset()
        });
    }

    /// @inheritdoc IRaffle
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
            winningTicketId: _winners[roundId][0],
            vrfRequestId: round.vrfRequestId,
            price: round.price,
            coordinator: round.coordinator,
            refundableAt: round.refundableAt,
            vrfVersion: round.vrfVersion,
            pot: live ? current.pot : round.pot,
            randomWord: round.randomWord,
            winnersCount: round.winnersCount,
            rulesVersion: round.rulesVersion
        });
    }

    /// @inheritdoc IRaffle
    function getWinners(uint256 roundId) external view returns (Winner[] memory winners) {
        Round storage round = _rounds[roundId];
        RoundStatus status = round.status;
        if (status != RoundStatus.Drawn && status != RoundStatus.Claimed && status != RoundStatus.Released) {
            return winners;
        }
        uint16[] storage shares = _rules[round.rulesVersion].prizeShares;
        winners = new Winner[](round.winnersCount);
        for (uint256 position; position < winners.length; ++position) {
            PrizeStatus prizeStatus = round.claimedPositions & (uint256(1) << position) != 0
                ? PrizeStatus.Claimed
                : (status == RoundStatus.Released ? PrizeStatus.Released : PrizeStatus.Unclaimed);
            winners[position] = Winner({
                ticketId: _winners[roundId][position],
                share: position < shares.length ? shares[position] : 0,
                amount: _prizeAmount(round, position),
                status: prizeStatus
            });
        }
    }

    /// @inheritdoc IRaffle
    /// @dev Rounds hold consecutive ticket ids, so the round of a ticket is the last one that started at or before
    /// it: a binary search over the rounds.
    function roundOfTicket(uint256 ticketId) external view returns (uint256) {
        if (ticketId == 0 || ticketId >= ticketContract.nextTicketId()) return 0;
        uint256 low = 1;
        uint256 high = _current.roundId;
        while (low < high) {
            uint256 middle = (low + high + 1) / 2;
            if (_rounds[middle].firstTicketId <= ticketId) low = middle;
            else high = middle - 1;
        }
        return low;
    }

    /// @inheritdoc IRaffle
    function ticketPrice(uint256 roundId, uint256 tier) external view returns (uint256) {
        return _ticketPrice(_rounds[roundId], tier);
    }

    /// @inheritdoc IRaffle
    function ticketAsset() public view returns (Asset memory) {
        return Asset({tokenType: TokenType.ERC721, token: address(ticketContract), tokenId: 0, amount: 1});
    }

    /// @inheritdoc IRaffle
    function paused() external view returns (bool) {
        return _current.paused;
    }

    // ---------------------------------------------------------------- internals

    /// @dev Draws with `DrawRule` and records the winners; there are always enough tickets, since a round with fewer
    /// than its winners is refunded instead.
    function _drawWinners(uint256 roundId, Round storage round) private {
        uint256 firstTicketId = round.firstTicketId;
        uint256 ticketCount = round.ticketCount;
        uint256[] memory ticketIds = DrawRule.winners(round.randomWord, firstTicketId, ticketCount, round.winnersCount);
        uint64[MAX_WINNERS] storage stored = _winners[roundId];
        for (uint256 position; position < ticketIds.length; ++position) {
            stored[position] = uint64(ticketIds[position]);
        }
        round.status = RoundStatus.Drawn;
        round.drawnAt = uint40(block.timestamp);
        emit WinnersDrawn(roundId, round.randomWord, ticketIds);
        _announce(firstTicketId, firstTicketId + ticketCount - 1);
    }

    /// @dev Sends the winner's item of `position`; a transfer that fails leaves it claimable (see `claimPrizes`).
    function _claimItem(uint256 roundId, Round storage round, uint256 position, uint256 ticketId, address winner)
        private
    {
        if (_sendItem(roundId, round, position, winner, ItemStatus.Claimed)) {
            emit ItemClaimed(roundId, ticketId, winner, position + 1, _roundItems[roundId][position].asset);
        }
    }

    /// @dev Sends position `position`'s item to `to` and records it as `outcome`. The record is written first and
    /// undone if the transfer fails, so a receiver that re-enters sees the item gone; the failure is reported, never
    /// raised, so it holds up nothing else.
    function _sendItem(uint256 roundId, Round storage round, uint256 position, address to, ItemStatus outcome)
        private
        returns (bool sent)
    {
        EscrowedItem storage item = _roundItems[roundId][position];
        uint32 out = round.itemsOut;
        round.itemsOut = out | uint32(1 << position);
        item.status = outcome;
        try this.moveItem(item.asset, address(this), to) {
            return true;
        } catch (bytes memory reason) {
            round.itemsOut = out;
            item.status = ItemStatus.Escrowed;
            emit ItemTransferFailed(roundId, position + 1, to, reason);
        }
    }

    /// @dev ERC-4906 for every ticket of the round: its outcome changed (refundable, or unclaimed prizes released).
    function _announceRound(Round storage round) private {
        uint256 first = round.firstTicketId;
        _announce(first, first + round.ticketCount - 1);
    }

    /// @dev ERC-4906 for tickets `first` to `last`, emitted by the ticket contract.
    function _announce(uint256 first, uint256 last) private {
        ticketContract.metadataChanged(first, last);
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
            _announceRound(round);
        }
    }

    /// @dev The per-ticket price a purchase of `quantity` pays in round `roundId`, and its tier (see `BundlePrice`).
    function _bundlePrice(uint256 roundId, uint256 unitPrice, uint256 quantity)
        private
        view
        returns (uint256 perTicket, uint24 tier)
    {
        return BundlePrice.perTicket(_rules[_rounds[roundId].rulesVersion].bundles, unitPrice, quantity);
    }

    /// @dev What one ticket of `round` bought at `tier` paid: the round's price at tier 0, else its bundle's.
    function _ticketPrice(Round storage round, uint256 tier) private view returns (uint256) {
        if (tier == 0) return round.price.amount;
        return BundlePrice.ofBundle(_rules[round.rulesVersion].bundles[tier - 1]);
    }

    function _countTowardsWalletCap(uint256 roundId, address account, uint256 quantity) private {
        Round storage round = _rounds[roundId];
        uint256 max = _rules[round.rulesVersion].maxTicketsPerWallet;
        uint256 held = _ticketsBought[roundId][account];
        if (held + quantity > max) revert WalletLimitReached(account, held, quantity, max);
        _ticketsBought[roundId][account] = held + quantity;
    }

    /// @dev How many winners a round started now draws: its rules' shares, or more when an item sits on a later
    /// position (positions past the shares carry an item only).
    function _winnersOf(RoundRules storage rules, uint256 itemCount) private view returns (uint256 winners) {
        winners = rules.prizeShares.length;
        if (itemCount == 0) return winners;
        uint256 lastItemPosition = _nextItems[itemCount - 1].position;
        if (lastItemPosition > winners) winners = lastItemPosition;
    }

    /// @dev Tickets a round needs to be drawn: its minimum, and at least one per winner position.
    function _ticketsRequired(RoundRules storage rules, uint256 winners) private view returns (uint256) {
        uint256 minimum = rules.minTickets;
        return minimum > winners ? minimum : winners;
    }

    /// @dev Position `position`'s prize before commission (see `PrizeSplit`).
    /// A position past the rules' shares carries an item only.
    function _prizeAmount(Round storage round, uint256 position) private view returns (uint256) {
        uint16[] storage shares = _rules[round.rulesVersion].prizeShares;
        if (position >= shares.length) return 0;
        return PrizeSplit.prizeOf(shares, round.pot, position);
    }

    /// @dev The position of `ticketId` among the round's winners, if its share or its item is still unclaimed.
    function _unclaimedPosition(uint256 roundId, Round storage round, uint256 ticketId)
        private
        view
        returns (uint256 position)
    {
        uint64[MAX_WINNERS] storage winners = _winners[roundId];
        uint256 count = round.winnersCount;
        for (; position < count; ++position) {
            if (winners[position] == ticketId) break;
        }
        if (position == count) revert NoPrizeToClaim(roundId, ticketId);
        uint256 bit = uint256(1) << position;
        if (round.claimedPositions & bit != 0 && round.itemPositions & ~round.itemsOut & bit == 0) {
            revert NoPrizeToClaim(roundId, ticketId);
        }
    }

    function _requireBatchSize(uint256 size) private pure {
        if (size == 0 || size > MAX_BATCH) revert InvalidBatchSize(size, MAX_BATCH);
    }

    function _setBeneficiary(address newBeneficiary) private {
        if (newBeneficiary == address(0)) revert ZeroAddress();
        beneficiary = newBeneficiary;
        emit BeneficiarySet(newBeneficiary);
    }

    function _requireStatus(uint256 roundId, Round storage round, RoundStatus expected) private view {
        if (round.status != expected) revert UnexpectedRoundStatus(roundId, round.status);
    }

    /// @dev Who settles tickets: the caller, or on a claim or refund that the Exchange relays (ERC-2771 style) the
    /// holder whose signature the Exchange checked, appended as the calldata's last 20 bytes. Only this raffle's
    /// Exchange is trusted so, and it lists the raffle before it forwards; bytes appended by anyone else are ignored.
    /// A payout still goes to the ticket's owner, never to the settler or the Exchange.
    function _settler() private view returns (address) {
        if (msg.sender != exchange) return msg.sender;
        return address(bytes20(msg.data[msg.data.length - 20:]));
    }

    /// @dev `settler` (see `_settler`) must own the ticket or be approved for it; returns its owner, who is paid.
    function _requireOwnerOrApproved(uint256 ticketId, address settler) private view returns (address owner) {
        owner = ticketContract.ownerOf(ticketId);
        if (
            settler != owner && !ticketContract.isApprovedForAll(owner, settler)
                && ticketContract.getApproved(ticketId) != settler
        ) revert NotTicketOwnerOrApproved(ticketId, settler);
    }

    /// @dev Prices are NATIVE (token 0) or ERC20, so the token address alone says how to pay.
    function _pay(address token, address to, uint256 amount) private {
        if (amount == 0) return;
        if (token == address(0)) Address.sendValue(payable(to), amount);
        else IERC20(token).safeTransfer(to, amount);
    }

    /// @dev The ticket contract's token, any amount: `amount` is the quantity, checked by the caller.
    function _isTicketAsset(Asset calldata asset) private view returns (bool) {
        return asset.tokenType == TokenType.ERC721 && asset.token == address(ticketContract) && asset.tokenId == 0;
    }

    /// @dev Prices are capped at 2^96 - 1 so a pot of 2^32 tickets fits the 128 bits it is kept in and can never
    /// overflow and lock a round. An ERC20 must also be on the platform's list (checked by `factory.authorizeRound`):
    /// a fee-on-transfer, rebasing or short-delivering token, or an ERC721 posing as an ERC20 (same `transferFrom`
    /// selector), would leave the raffle owing more than it holds.
    function _requireValidPrice(Asset calldata price) private pure {
        if (price.tokenId != 0 || price.amount == 0 || price.amount > type(uint96).max) revert InvalidPriceAsset();
        if (price.tokenType == TokenType.NATIVE) {
            if (price.token != address(0)) revert InvalidPriceAsset();
        } else if (price.tokenType != TokenType.ERC20) {
            revert InvalidPriceAsset();
        } else if (price.token == address(0)) {
            revert PriceTokenNotAllowed(address(0));
        }
    }
}
