// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {IVRFCoordinatorV2Plus} from "@chainlink/contracts/src/v0.8/vrf/dev/interfaces/IVRFCoordinatorV2Plus.sol";
import {VRFV2PlusClient} from "@chainlink/contracts/src/v0.8/vrf/dev/libraries/VRFV2PlusClient.sol";

import {IExchange} from "./interfaces/IExchange.sol";
import {IRaffleFactory, RaffleConfig} from "./interfaces/IRaffleFactory.sol";
import {IRaffle, RaffleSettings, VrfConfig} from "./interfaces/IRaffle.sol";
import {IRaffleDeployer} from "./interfaces/IDeployers.sol";
import {VrfConfigs} from "./libraries/VrfConfigs.sol";

/// @notice The request bounds a Chainlink VRF v2.5 coordinator publishes (the first two fields of its `s_config`).
interface IVrfCoordinatorBounds {
    // solhint-disable-next-line func-name-mixedcase
    function s_config()
        external
        view
        returns (uint16 minimumRequestConfirmations, uint32 maxGasLimit, bool, uint32, uint32, uint32, uint32, uint8, uint8);
}

/// @notice Deploys merchants' raffles and holds what belongs to the platform rather than to any merchant: the VRF
/// settings every draw uses, the ERC20 tokens a round may be priced in, and each merchant's daily budget of draws.
/// @dev The factory is the only VRF consumer of its subscription: raffles ask it for a draw and it routes each answer
/// to its round. So the subscription's 100-consumer cap never limits how many raffles exist, a raffle needs no
/// subscription change to draw, and moving to a new subscription means adding one consumer, this factory.
/// The constructor takes no chain-specific value, so the factory has the same CREATE2 address on every chain.
contract RaffleFactory is IRaffleFactory, AccessControl {
    /// @notice Wallets allowed to deploy raffles and start rounds: the platform pays their randomness.
    bytes32 public constant MERCHANT_ROLE = keccak256("MERCHANT_ROLE");
    /// @notice Notice the platform gives before new VRF settings or a lower draw budget apply once raffles exist.
    uint256 public constant VRF_CONFIG_DELAY = 2 days;
    /// @notice How long an announced change may be applied once its notice has passed; then it must be announced again.
    uint256 public constant VRF_PROPOSAL_WINDOW = 7 days;
    /// @notice Draws per merchant per UTC day until the platform sets another budget.
    uint256 public constant DEFAULT_DRAWS_PER_DAY = 288;
    /// @notice No budget goes below this: a merchant rotating hourly is never refused a draw by the platform.
    uint256 public constant MIN_DRAWS_PER_DAY = 24;
    /// @notice Gas the coordinator gets for one request (Chainlink's v2.5 coordinator uses about 120k).
    uint256 public constant COORDINATOR_REQUEST_GAS = 300_000;
    /// @notice Chainlink VRF v2.5's own upper bound on request confirmations.
    uint16 public constant MAX_REQUEST_CONFIRMATIONS = 200;
    /// @notice Lowest `callbackGasLimit` the settings may have (`VrfCallbackGasTooLow`).
    uint32 public constant MIN_CALLBACK_GAS_LIMIT = VrfConfigs.MIN_CALLBACK_GAS_LIMIT;

    address public immutable exchange;
    address public immutable ticketDeployer;
    address public immutable raffleDeployer;

    /// @notice The version of the VRF settings new rounds are drawn with; 0 until the first settings are set.
    uint32 public vrfVersion;
    mapping(uint32 version => VrfConfig) private _vrfConfigs;
    VrfConfig private _pendingVrf;
    /// @notice When the announced VRF settings may be applied; 0 when none are announced.
    uint256 public pendingVrfEffectiveAt;

    uint256 public raffleCount;
    /// @inheritdoc IRaffleFactory
    mapping(address raffle => address merchant) public merchantOf;
    /// @inheritdoc IRaffleFactory
    mapping(address token => bool) public isPriceToken;

    /// @dev A budget and the lower one announced for it, in one slot. `perDay` 0 on a merchant means "the default".
    struct DrawBudget {
        uint64 perDay;
        uint64 pendingPerDay;
        uint64 pendingAt;
    }

    /// @dev Draws counted in the merchant's current day, in one slot.
    struct DrawUsage {
        uint128 day;
        uint128 used;
    }

    /// @dev Where the answer to one request goes.
    struct PendingDraw {
        address raffle;
        uint96 roundId;
    }

    DrawBudget private _defaultBudget;
    mapping(address merchant => DrawBudget) private _merchantBudgets;
    mapping(address merchant => DrawUsage) private _drawUsage;
    /// @dev Keyed by coordinator too: request ids are only unique per coordinator.
    mapping(address coordinator => mapping(uint256 requestId => PendingDraw)) private _pendingDraws;

    constructor(address admin, address exchange_, address ticketDeployer_, address raffleDeployer_) {
        if (
            admin == address(0) || exchange_ == address(0) || ticketDeployer_ == address(0)
                || raffleDeployer_ == address(0)
        ) revert ZeroAddress();
        exchange = exchange_;
        ticketDeployer = ticketDeployer_;
        raffleDeployer = raffleDeployer_;
        _defaultBudget.perDay = uint64(DEFAULT_DRAWS_PER_DAY);
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
    }

    // ---------------------------------------------------------------- raffles

    /// @inheritdoc IRaffleFactory
    function deployRaffle(RaffleConfig calldata config)
        external
        onlyRole(MERCHANT_ROLE)
        returns (address raffle, address ticket)
    {
        if (vrfVersion == 0 || _vrfConfigs[vrfVersion].subscriptionId == 0) revert VrfNotConfigured();
        raffle = IRaffleDeployer(raffleDeployer).deployRaffle(
            RaffleSettings({
                admin: msg.sender,
                factory: address(this),
                exchange: exchange,
                ticketDeployer: ticketDeployer,
                commission: config.commission,
                timeLagBeforeRelease: config.timeLagBeforeRelease,
                ticketName: config.ticketName,
                ticketSymbol: config.ticketSymbol
            })
        );
        ticket = address(IRaffle(raffle).ticketContract());
        merchantOf[raffle] = msg.sender;
        raffleCount += 1;
        // The Exchange sells only listed raffles, so a look-alike deployed by any other route never sells.
        IExchange(exchange).listRaffle(raffle);
        emit RaffleDeployed(msg.sender, raffle, ticket, config.commission, config.timeLagBeforeRelease);
    }

    /// @inheritdoc IRaffleFactory
    function authorizeRound(address priceToken) external view returns (uint32) {
        address merchant = merchantOf[msg.sender];
        if (merchant == address(0)) revert NotARaffle(msg.sender);
        if (!hasRole(MERCHANT_ROLE, merchant)) revert MerchantNotActive(merchant);
        if (priceToken != address(0) && !isPriceToken[priceToken]) revert PriceTokenNotAllowed(priceToken);
        return vrfVersion;
    }

    /// @inheritdoc IRaffleFactory
    /// @dev The merchant's role is not checked: a merchant that lost it still gets its sold rounds drawn.
    function requestDraw(uint256 roundId, uint32 version)
        external
        returns (uint256 requestId, address coordinator, uint32 randomnessTimeout)
    {
        address merchant = merchantOf[msg.sender];
        if (merchant == address(0)) revert NotARaffle(msg.sender);
        _spendDraw(merchant);
        VrfConfig memory vrf = _vrfConfigs[version];
        coordinator = vrf.coordinator;
        // The coordinator's revert data is not passed on: a hostile one could make it large enough to cost the raffle
        // the gas it keeps to make the round refundable.
        try IVRFCoordinatorV2Plus(coordinator).requestRandomWords{gas: COORDINATOR_REQUEST_GAS}(
            VRFV2PlusClient.RandomWordsRequest({
                keyHash: vrf.keyHash,
                subId: vrf.subscriptionId,
                requestConfirmations: vrf.requestConfirmations,
                callbackGasLimit: vrf.callbackGasLimit,
                numWords: 1,
                extraArgs: VRFV2PlusClient._argsToBytes(VRFV2PlusClient.ExtraArgsV1({nativePayment: false}))
            })
        ) returns (uint256 id) {
            requestId = id;
        } catch {
            revert CoordinatorRequestFailed(coordinator);
        }
        _pendingDraws[coordinator][requestId] = PendingDraw({raffle: msg.sender, roundId: uint96(roundId)});
        emit DrawRequested(msg.sender, roundId, coordinator, requestId);
        return (requestId, coordinator, vrf.randomnessTimeout);
    }

    /// @inheritdoc IRaffleFactory
    /// @dev The raffle ignores a duplicate or late answer, so this only reverts for a request it never sent.
    function rawFulfillRandomWords(uint256 requestId, uint256[] calldata randomWords) external {
        PendingDraw memory draw = _pendingDraws[msg.sender][requestId];
        if (draw.raffle == address(0)) revert UnknownVrfRequest(msg.sender, requestId);
        if (randomWords.length == 0) return;
        IRaffle(draw.raffle).fulfillDraw(draw.roundId, requestId, randomWords[0]);
    }

    /// @notice VRF draws `merchant` has had today.
    function drawsUsedToday(address merchant) external view returns (uint256) {
        DrawUsage memory usage = _drawUsage[merchant];
        return usage.day == block.timestamp / 1 days ? usage.used : 0;
    }

    // ---------------------------------------------------------------- platform settings

    /// @notice Allows (or stops allowing) ERC20 `token` as the price of new rounds. Rounds already started keep their
    /// token; the Exchange measures every payment, so a listed token that starts taking a fee only stops purchases.
    function setPriceToken(address token, bool allowed) external onlyRole(DEFAULT_ADMIN_ROLE) {
        if (allowed && token.code.length == 0) revert NotAContract(token);
        isPriceToken[token] = allowed;
        emit PriceTokenSet(token, allowed);
    }

    /// @notice Sets how many VRF draws each merchant without a budget of its own may have per UTC day. A higher budget
    /// applies at once; a lower one after `VRF_CONFIG_DELAY`, and never below `MIN_DRAWS_PER_DAY`.
    function setDrawsPerDay(uint256 newDrawsPerDay) external onlyRole(DEFAULT_ADMIN_ROLE) {
        uint256 effectiveAt = _setBudget(_defaultBudget, drawsPerDay(), newDrawsPerDay);
        emit DrawBudgetSet(address(0), newDrawsPerDay, effectiveAt);
    }

    /// @notice Gives `merchant` a daily draw budget of its own, under the same rules as `setDrawsPerDay`.
    function setMerchantDrawsPerDay(address merchant, uint256 newDrawsPerDay) external onlyRole(DEFAULT_ADMIN_ROLE) {
        if (merchant == address(0)) revert ZeroAddress();
        uint256 effectiveAt = _setBudget(_merchantBudgets[merchant], drawsPerDayOf(merchant), newDrawsPerDay);
        emit DrawBudgetSet(merchant, newDrawsPerDay, effectiveAt);
    }

    /// @notice Draws per UTC day of a merchant without a budget of its own, as of now.
    function drawsPerDay() public view returns (uint256) {
        return _budgetNow(_defaultBudget);
    }

    /// @notice Draws per UTC day `merchant` may have, as of now.
    function drawsPerDayOf(address merchant) public view returns (uint256) {
        DrawBudget memory own = _merchantBudgets[merchant];
        return own.perDay == 0 ? drawsPerDay() : _budgetNow(own);
    }

    // ---------------------------------------------------------------- randomness

    /// @notice Announces new VRF settings, checked against the coordinator's own bounds. Before the first raffle
    /// exists they apply at once (setup); afterwards only through `applyVrfConfig`, from `VRF_CONFIG_DELAY` later
    /// until `VRF_PROPOSAL_WINDOW` after that. Rounds already started are always drawn with the settings they started
    /// with.
    function proposeVrfConfig(VrfConfig calldata vrf) external onlyRole(DEFAULT_ADMIN_ROLE) {
        _proposeVrfConfig(vrf);
    }

    /// @notice Applies the announced VRF settings once their notice has passed and before they expire. Anyone may
    /// call it.
    function applyVrfConfig() external {
        uint256 effectiveAt = pendingVrfEffectiveAt;
        if (effectiveAt == 0) revert NoVrfConfigProposal();
        if (block.timestamp < effectiveAt) revert VrfConfigNotYetEffective(effectiveAt);
        uint256 expiredAt = effectiveAt + VRF_PROPOSAL_WINDOW;
        if (block.timestamp > expiredAt) revert VrfConfigProposalExpired(expiredAt);
        VrfConfig memory vrf = _pendingVrf;
        _requireUsable(vrf);
        _setVrfConfig(vrf);
        _clearProposal();
    }

    function cancelVrfConfigProposal() external onlyRole(DEFAULT_ADMIN_ROLE) {
        if (pendingVrfEffectiveAt == 0) revert NoVrfConfigProposal();
        _clearProposal();
        emit VrfConfigProposalCanceled();
    }

    /// @notice Creates a VRF subscription owned by this factory on the current coordinator, makes the factory its
    /// consumer, and proposes it.
    function createVrfSubscription() external onlyRole(DEFAULT_ADMIN_ROLE) returns (uint256 subscriptionId) {
        VrfConfig memory vrf = _requireVrf();
        subscriptionId = IVRFCoordinatorV2Plus(vrf.coordinator).createSubscription();
        IVRFCoordinatorV2Plus(vrf.coordinator).addConsumer(subscriptionId, address(this));
        vrf.subscriptionId = subscriptionId;
        _proposeVrfConfig(vrf);
    }

    /// @notice Takes over a subscription whose owner requested a transfer to this factory, becomes its consumer, and
    /// proposes it.
    function acceptVrfSubscription(uint256 subscriptionId) external onlyRole(DEFAULT_ADMIN_ROLE) {
        VrfConfig memory vrf = _requireVrf();
        IVRFCoordinatorV2Plus(vrf.coordinator).acceptSubscriptionOwnerTransfer(subscriptionId);
        IVRFCoordinatorV2Plus(vrf.coordinator).addConsumer(subscriptionId, address(this));
        vrf.subscriptionId = subscriptionId;
        _proposeVrfConfig(vrf);
    }

    /// @notice Starts handing the current subscription to `newOwner` (who accepts it on the coordinator), for a
    /// migration to a new factory or to the platform's treasury.
    function transferVrfSubscription(address newOwner) external onlyRole(DEFAULT_ADMIN_ROLE) {
        if (newOwner == address(0)) revert ZeroAddress();
        VrfConfig memory vrf = _requireVrf();
        IVRFCoordinatorV2Plus(vrf.coordinator).requestSubscriptionOwnerTransfer(vrf.subscriptionId, newOwner);
    }

    /// @notice Retires a subscription this factory owns and no longer draws new rounds from, sending its balance to
    /// `to`. The coordinator refuses while a request is pending; a round of older settings that asks it later is
    /// refunded.
    function cancelVrfSubscription(address coordinator, uint256 subscriptionId, address to)
        external
        onlyRole(DEFAULT_ADMIN_ROLE)
    {
        VrfConfig memory current = _vrfConfigs[vrfVersion];
        if (coordinator == current.coordinator && subscriptionId == current.subscriptionId) {
            revert VrfSubscriptionInUse(subscriptionId);
        }
        IVRFCoordinatorV2Plus(coordinator).cancelSubscription(subscriptionId, to);
    }

    /// @inheritdoc IRaffleFactory
    function vrfConfig() external view returns (VrfConfig memory) {
        return _vrfConfigs[vrfVersion];
    }

    /// @inheritdoc IRaffleFactory
    function vrfConfigAt(uint32 version) external view returns (VrfConfig memory) {
        return _vrfConfigs[version];
    }

    /// @notice The announced VRF settings and when they may be applied (0 when none are announced); they expire
    /// `VRF_PROPOSAL_WINDOW` after that.
    function pendingVrfConfig() external view returns (VrfConfig memory vrf, uint256 effectiveAt) {
        return (_pendingVrf, pendingVrfEffectiveAt);
    }

    // ---------------------------------------------------------------- internals

    function _spendDraw(address merchant) private {
        uint256 today = block.timestamp / 1 days;
        DrawUsage memory usage = _drawUsage[merchant];
        if (usage.day != today) usage = DrawUsage({day: uint128(today), used: 0});
        uint256 budget = drawsPerDayOf(merchant);
        if (usage.used >= budget) revert DrawBudgetExhausted(merchant, budget, (today + 1) * 1 days);
        usage.used += 1;
        _drawUsage[merchant] = usage;
    }

    /// @dev A raise applies at once; a cut is announced like VRF settings (at once only before any raffle exists).
    function _setBudget(DrawBudget storage budget, uint256 current, uint256 newDrawsPerDay)
        private
        returns (uint256 effectiveAt)
    {
        if (newDrawsPerDay < MIN_DRAWS_PER_DAY) revert DrawBudgetBelowFloor(newDrawsPerDay, MIN_DRAWS_PER_DAY);
        uint64 capped = uint64(newDrawsPerDay > type(uint64).max ? type(uint64).max : newDrawsPerDay);
        if (newDrawsPerDay >= current || raffleCount == 0) {
            budget.perDay = capped;
            budget.pendingPerDay = 0;
            budget.pendingAt = 0;
            return block.timestamp;
        }
        effectiveAt = block.timestamp + VRF_CONFIG_DELAY;
        budget.perDay = uint64(current);
        budget.pendingPerDay = capped;
        budget.pendingAt = uint64(effectiveAt);
    }

    function _budgetNow(DrawBudget memory budget) private view returns (uint256) {
        return budget.pendingAt != 0 && block.timestamp >= budget.pendingAt ? budget.pendingPerDay : budget.perDay;
    }

    function _proposeVrfConfig(VrfConfig memory vrf) private {
        _requireUsable(vrf);
        if (raffleCount == 0) {
            _setVrfConfig(vrf);
            if (pendingVrfEffectiveAt != 0) _clearProposal();
            return;
        }
        uint256 effectiveAt = block.timestamp + VRF_CONFIG_DELAY;
        _pendingVrf = vrf;
        pendingVrfEffectiveAt = effectiveAt;
        emit VrfConfigProposed(
            vrf.coordinator,
            vrf.keyHash,
            vrf.subscriptionId,
            vrf.randomnessTimeout,
            effectiveAt,
            effectiveAt + VRF_PROPOSAL_WINDOW
        );
    }

    /// @dev Settings a coordinator would refuse are refused here, so no round is ever started with them. A
    /// subscription id of 0 (not created yet) is only accepted before the first raffle.
    function _requireUsable(VrfConfig memory vrf) private view {
        if (!VrfConfigs.isValid(vrf)) revert InvalidVrfConfig();
        // Below it the callback could revert before the word is recorded, and VRF v2.5 never retries.
        if (vrf.callbackGasLimit < VrfConfigs.MIN_CALLBACK_GAS_LIMIT) {
            revert VrfCallbackGasTooLow(vrf.callbackGasLimit, VrfConfigs.MIN_CALLBACK_GAS_LIMIT);
        }
        if (vrf.coordinator.code.length == 0) revert NotAContract(vrf.coordinator);
        (uint16 minConfirmations, uint32 maxGasLimit,,,,,,,) = IVrfCoordinatorBounds(vrf.coordinator).s_config();
        if (vrf.requestConfirmations < minConfirmations || vrf.requestConfirmations > MAX_REQUEST_CONFIRMATIONS) {
            revert VrfConfirmationsOutOfRange(vrf.requestConfirmations, minConfirmations, MAX_REQUEST_CONFIRMATIONS);
        }
        // Chainlink's mock states no gas limit (0) and enforces none; a real coordinator always states one.
        if (maxGasLimit != 0 && vrf.callbackGasLimit > maxGasLimit) {
            revert VrfCallbackGasTooHigh(vrf.callbackGasLimit, maxGasLimit);
        }
        if (vrf.subscriptionId == 0) {
            if (raffleCount != 0) revert VrfSubscriptionUnusable(0);
            return;
        }
        if (!_isConsumer(vrf.coordinator, vrf.subscriptionId)) revert VrfSubscriptionUnusable(vrf.subscriptionId);
    }

    function _isConsumer(address coordinator, uint256 subscriptionId) private view returns (bool) {
        try IVRFCoordinatorV2Plus(coordinator).getSubscription(subscriptionId) returns (
            uint96, uint96, uint64, address, address[] memory consumers
        ) {
            for (uint256 i = 0; i < consumers.length; i++) {
                if (consumers[i] == address(this)) return true;
            }
            return false;
        } catch {
            return false; // no such subscription on this coordinator
        }
    }

    function _setVrfConfig(VrfConfig memory vrf) private {
        uint32 version = vrfVersion + 1;
        vrfVersion = version;
        _vrfConfigs[version] = vrf;
        emit VrfConfigSet(version, vrf.coordinator, vrf.keyHash, vrf.subscriptionId);
    }

    function _clearProposal() private {
        delete _pendingVrf;
        pendingVrfEffectiveAt = 0;
    }

    function _requireVrf() private view returns (VrfConfig memory vrf) {
        vrf = _vrfConfigs[vrfVersion];
        if (vrf.coordinator == address(0)) revert VrfNotConfigured();
    }
}
