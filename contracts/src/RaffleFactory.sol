// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {IVRFCoordinatorV2Plus} from "@chainlink/contracts/src/v0.8/vrf/dev/interfaces/IVRFCoordinatorV2Plus.sol";

import {IRaffleFactory, RaffleConfig} from "./interfaces/IRaffleFactory.sol";
import {RaffleSettings, VrfConfig} from "./interfaces/IRaffle.sol";
import {Raffle} from "./Raffle.sol";
import {VrfConfigs} from "./libraries/VrfConfigs.sol";

/// @notice Deploys merchants' raffles and holds what belongs to the platform rather than to any merchant: the VRF
/// coordinator, key hash and subscription every draw uses, the ERC20 tokens a round may be priced in, and each
/// merchant's daily budget of VRF draws.
/// @dev The constructor takes no chain-specific value, so the factory has the same CREATE2 address on every chain;
/// the VRF settings are set right after deployment.
contract RaffleFactory is IRaffleFactory, AccessControl {
    /// @notice Wallets allowed to deploy raffles: the platform pays their randomness, so onboarding is explicit.
    bytes32 public constant MERCHANT_ROLE = keccak256("MERCHANT_ROLE");
    /// @notice Notice the platform gives before new VRF settings apply to the raffles already deployed: long enough
    /// for merchants and players to see a coordinator change coming and stop buying.
    uint256 public constant VRF_CONFIG_DELAY = 2 days;
    /// @notice Draws per merchant per UTC day until the platform sets another budget.
    uint256 public constant DEFAULT_DRAWS_PER_DAY = 288;

    address public immutable exchange;
    address public immutable ticketDeployer;

    VrfConfig private _vrf;
    VrfConfig private _pendingVrf;
    /// @notice When the announced VRF settings may be applied; 0 when none are announced.
    uint256 public pendingVrfEffectiveAt;

    uint256 public raffleCount;
    uint256 public drawsPerDay;
    /// @inheritdoc IRaffleFactory
    mapping(address raffle => address merchant) public merchantOf;
    /// @inheritdoc IRaffleFactory
    mapping(address token => bool) public isPriceToken;

    /// @dev Draws counted in the merchant's current day, in one slot.
    struct DrawUsage {
        uint128 day;
        uint128 used;
    }

    mapping(address merchant => DrawUsage) private _drawUsage;

    constructor(address admin, address exchange_, address ticketDeployer_) {
        if (admin == address(0) || exchange_ == address(0) || ticketDeployer_ == address(0)) revert ZeroAddress();
        exchange = exchange_;
        ticketDeployer = ticketDeployer_;
        drawsPerDay = DEFAULT_DRAWS_PER_DAY;
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
    }

    // ---------------------------------------------------------------- raffles

    /// @inheritdoc IRaffleFactory
    function deployRaffle(RaffleConfig calldata config)
        external
        onlyRole(MERCHANT_ROLE)
        returns (address raffle, address ticket)
    {
        VrfConfig memory vrf = _vrf;
        if (vrf.coordinator == address(0)) revert VrfNotConfigured();
        Raffle deployed = new Raffle(
            RaffleSettings({
                admin: msg.sender,
                exchange: exchange,
                ticketDeployer: ticketDeployer,
                commission: config.commission,
                timeLagBeforeRelease: config.timeLagBeforeRelease,
                ticketName: config.ticketName,
                ticketSymbol: config.ticketSymbol
            })
        );
        raffle = address(deployed);
        ticket = address(deployed.ticketContract());
        merchantOf[raffle] = msg.sender;
        raffleCount += 1;
        IVRFCoordinatorV2Plus(vrf.coordinator).addConsumer(vrf.subscriptionId, raffle);
        emit RaffleDeployed(msg.sender, raffle, ticket, config.commission, config.timeLagBeforeRelease);
    }

    /// @inheritdoc IRaffleFactory
    function authorizeDraw() external returns (VrfConfig memory) {
        address merchant = merchantOf[msg.sender];
        if (merchant == address(0)) revert NotARaffle(msg.sender);
        uint256 today = block.timestamp / 1 days;
        DrawUsage memory usage = _drawUsage[merchant];
        if (usage.day != today) usage = DrawUsage({day: uint128(today), used: 0});
        uint256 budget = drawsPerDay;
        if (usage.used >= budget) revert DrawBudgetExhausted(merchant, budget, (today + 1) * 1 days);
        usage.used += 1;
        _drawUsage[merchant] = usage;
        return _vrf;
    }

    /// @notice VRF draws `merchant` has had today.
    function drawsUsedToday(address merchant) external view returns (uint256) {
        DrawUsage memory usage = _drawUsage[merchant];
        return usage.day == block.timestamp / 1 days ? usage.used : 0;
    }

    // ---------------------------------------------------------------- platform settings

    /// @notice Allows (or stops allowing) ERC20 `token` as the price of new rounds. Only tokens that move exactly the
    /// amount asked, with no fee, rebase or callback, belong here: a round books its pot at the listed price.
    /// Rounds already started keep their token.
    function setPriceToken(address token, bool allowed) external onlyRole(DEFAULT_ADMIN_ROLE) {
        if (allowed && token.code.length == 0) revert NotAContract(token);
        isPriceToken[token] = allowed;
        emit PriceTokenSet(token, allowed);
    }

    /// @notice Sets how many VRF draws each merchant may have per UTC day.
    function setDrawsPerDay(uint256 newDrawsPerDay) external onlyRole(DEFAULT_ADMIN_ROLE) {
        drawsPerDay = newDrawsPerDay;
        emit DrawBudgetSet(newDrawsPerDay);
    }

    // ---------------------------------------------------------------- randomness

    /// @notice Announces new VRF settings. Before the first raffle exists they apply at once (setup); afterwards
    /// they apply only through `applyVrfConfig`, `VRF_CONFIG_DELAY` later. A draw already requested always keeps the
    /// coordinator and timeout it was requested with.
    function proposeVrfConfig(VrfConfig calldata vrf) external onlyRole(DEFAULT_ADMIN_ROLE) {
        _proposeVrfConfig(vrf);
    }

    /// @notice Applies the announced VRF settings once their notice has passed. Anyone may call it.
    function applyVrfConfig() external {
        uint256 effectiveAt = pendingVrfEffectiveAt;
        if (effectiveAt == 0) revert NoVrfConfigProposal();
        if (block.timestamp < effectiveAt) revert VrfConfigNotYetEffective(effectiveAt);
        _setVrfConfig(_pendingVrf);
        _clearProposal();
    }

    function cancelVrfConfigProposal() external onlyRole(DEFAULT_ADMIN_ROLE) {
        if (pendingVrfEffectiveAt == 0) revert NoVrfConfigProposal();
        _clearProposal();
        emit VrfConfigProposalCanceled();
    }

    /// @notice Creates a VRF subscription owned by this factory on the current coordinator and proposes it.
    function createVrfSubscription() external onlyRole(DEFAULT_ADMIN_ROLE) returns (uint256 subscriptionId) {
        VrfConfig memory vrf = _requireVrf();
        subscriptionId = IVRFCoordinatorV2Plus(vrf.coordinator).createSubscription();
        vrf.subscriptionId = subscriptionId;
        _proposeVrfConfig(vrf);
    }

    /// @notice Takes over a subscription whose owner requested a transfer to this factory, and proposes it.
    function acceptVrfSubscription(uint256 subscriptionId) external onlyRole(DEFAULT_ADMIN_ROLE) {
        VrfConfig memory vrf = _requireVrf();
        IVRFCoordinatorV2Plus(vrf.coordinator).acceptSubscriptionOwnerTransfer(subscriptionId);
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

    /// @notice Adds raffles of this factory as consumers of a subscription it owns (after a move to a new
    /// subscription or coordinator).
    function addVrfConsumers(address coordinator, uint256 subscriptionId, address[] calldata raffles)
        external
        onlyRole(DEFAULT_ADMIN_ROLE)
    {
        for (uint256 i = 0; i < raffles.length; i++) {
            if (merchantOf[raffles[i]] == address(0)) revert NotARaffle(raffles[i]);
            IVRFCoordinatorV2Plus(coordinator).addConsumer(subscriptionId, raffles[i]);
        }
    }

    /// @inheritdoc IRaffleFactory
    function vrfConfig() external view returns (VrfConfig memory) {
        return _vrf;
    }

    /// @notice The announced VRF settings and when they may be applied (0 when none are announced).
    function pendingVrfConfig() external view returns (VrfConfig memory vrf, uint256 effectiveAt) {
        return (_pendingVrf, pendingVrfEffectiveAt);
    }

    function _proposeVrfConfig(VrfConfig memory vrf) private {
        if (!VrfConfigs.isValid(vrf)) revert InvalidVrfConfig();
        if (raffleCount == 0) {
            _setVrfConfig(vrf);
            if (pendingVrfEffectiveAt != 0) _clearProposal();
            return;
        }
        uint256 effectiveAt = block.timestamp + VRF_CONFIG_DELAY;
        _pendingVrf = vrf;
        pendingVrfEffectiveAt = effectiveAt;
        emit VrfConfigProposed(vrf.coordinator, vrf.keyHash, vrf.subscriptionId, vrf.randomnessTimeout, effectiveAt);
    }

    function _setVrfConfig(VrfConfig memory vrf) private {
        _vrf = vrf;
        emit VrfConfigSet(vrf.coordinator, vrf.keyHash, vrf.subscriptionId);
    }

    function _clearProposal() private {
        delete _pendingVrf;
        pendingVrfEffectiveAt = 0;
    }

    function _requireVrf() private view returns (VrfConfig memory vrf) {
        vrf = _vrf;
        if (vrf.coordinator == address(0)) revert VrfNotConfigured();
    }
}
