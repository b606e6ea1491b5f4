// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {VrfConfig} from "./IRaffle.sol";

/// @notice What a merchant chooses when it deploys a raffle.
struct RaffleConfig {
    uint256 commission;
    uint256 timeLagBeforeRelease;
    string ticketName;
    string ticketSymbol;
}

/// @notice The platform's side of every raffle: it deploys them, owns their randomness (it is the one VRF consumer of
/// the platform's subscription and routes each answer to its round), keeps the list of price tokens they may sell
/// for, and bounds each merchant's use of the subscription.
interface IRaffleFactory {
    /// @notice One raffle and its ticket contract were deployed for `merchant`, which administers them.
    event RaffleDeployed(
        address indexed merchant,
        address indexed raffle,
        address indexed ticket,
        uint256 commission,
        uint256 timeLagBeforeRelease
    );
    /// @notice VRF settings `version` are now in force: rounds started from now on are drawn with them.
    event VrfConfigSet(uint32 indexed version, address indexed coordinator, bytes32 keyHash, uint256 subscriptionId);
    /// @notice A change of the VRF settings was announced; it can be applied from `effectiveAt` until `expiresAt`.
    event VrfConfigProposed(
        address indexed coordinator,
        bytes32 keyHash,
        uint256 subscriptionId,
        uint32 randomnessTimeout,
        uint256 effectiveAt,
        uint256 expiresAt
    );
    /// @notice The announced change of the VRF settings was withdrawn.
    event VrfConfigProposalCanceled();
    /// @notice `token` may (or may no longer) be the price of a new round.
    event PriceTokenSet(address indexed token, bool allowed);
    /// @notice From `effectiveAt`, `merchant` (zero: every merchant without a budget of its own) may have at most
    /// `drawsPerDay` VRF draws requested per UTC day.
    event DrawBudgetSet(address indexed merchant, uint256 drawsPerDay, uint256 effectiveAt);
    /// @notice The factory asked `coordinator` for the word of `raffle`'s round `roundId`.
    event DrawRequested(address indexed raffle, uint256 indexed roundId, address coordinator, uint256 requestId);

    error ZeroAddress();
    /// @notice A zero coordinator, key hash or callback gas limit, or a timeout outside [1 hour, 7 days].
    error InvalidVrfConfig();
    /// @notice `requestConfirmations` outside what the coordinator accepts.
    error VrfConfirmationsOutOfRange(uint16 requestConfirmations, uint16 min, uint16 max);
    /// @notice `callbackGasLimit` above the coordinator's maximum.
    error VrfCallbackGasTooHigh(uint32 callbackGasLimit, uint32 max);
    /// @notice `callbackGasLimit` below what the callback needs to record a word (`MIN_CALLBACK_GAS_LIMIT`).
    error VrfCallbackGasTooLow(uint32 callbackGasLimit, uint32 min);
    /// @notice The subscription does not exist on the coordinator, or this factory is not its consumer.
    error VrfSubscriptionUnusable(uint256 subscriptionId);
    /// @notice The VRF settings were never set: no raffle can be deployed yet.
    error VrfNotConfigured();
    /// @notice No VRF change was announced.
    error NoVrfConfigProposal();
    /// @notice The announced VRF change cannot be applied before `effectiveAt`.
    error VrfConfigNotYetEffective(uint256 effectiveAt);
    /// @notice The announced VRF change was not applied by `expiredAt`; it has to be announced again.
    error VrfConfigProposalExpired(uint256 expiredAt);
    /// @notice Only raffles deployed by this factory may ask for a draw.
    error NotARaffle(address caller);
    /// @notice `merchant` used up today's `drawsPerDay` VRF draws; its next round can be drawn from `nextDayAt`.
    error DrawBudgetExhausted(address merchant, uint256 drawsPerDay, uint256 nextDayAt);
    /// @notice A draw budget under `MIN_DRAWS_PER_DAY`.
    error DrawBudgetBelowFloor(uint256 drawsPerDay, uint256 floor);
    /// @notice The merchant of the raffle lost `MERCHANT_ROLE`: it may end and pay its rounds, not start new ones.
    error MerchantNotActive(address merchant);
    /// @notice The ERC20 is not on the platform's list of price tokens.
    error PriceTokenNotAllowed(address token);
    /// @notice The price token is not a contract.
    error NotAContract(address token);
    /// @notice The coordinator refused (or failed) the request for randomness.
    error CoordinatorRequestFailed(address coordinator);
    /// @notice A VRF answer came for a request this factory never sent to the caller.
    error UnknownVrfRequest(address coordinator, uint256 requestId);
    /// @notice The subscription is the one draws use now; it cannot be cancelled.
    error VrfSubscriptionInUse(uint256 subscriptionId);

    /// @notice Deploys a raffle administered by the caller, wired to the platform's Exchange and randomness, and lists
    /// it on the Exchange (the factory holds the Exchange's FACTORY_ROLE), which sells tickets of listed raffles only.
    function deployRaffle(RaffleConfig calldata config) external returns (address raffle, address ticket);

    /// @notice Called by a raffle's `startRound`: refuses a raffle of a merchant that lost `MERCHANT_ROLE` and an
    /// ERC20 price token (`priceToken`, zero for native) that is not listed, and returns the VRF settings version the
    /// new round will be drawn with.
    function authorizeRound(address priceToken) external view returns (uint32 vrfVersion);

    /// @notice Called by a raffle's `endRound` when a round needs randomness: counts the draw against its merchant's
    /// daily budget and asks the coordinator of settings `vrfVersion` for one word, which it will deliver to the
    /// raffle's `fulfillDraw`. Reverts when it cannot; the raffle then makes the round refundable.
    function requestDraw(uint256 roundId, uint32 vrfVersion)
        external
        returns (uint256 requestId, address coordinator, uint32 randomnessTimeout);

    /// @notice Chainlink VRF v2.5 callback: forwards the word to the round that asked for it.
    function rawFulfillRandomWords(uint256 requestId, uint256[] calldata randomWords) external;

    /// @notice The VRF settings new rounds are drawn with.
    function vrfConfig() external view returns (VrfConfig memory);

    /// @notice The VRF settings of `version` (all zero for a version that never existed).
    function vrfConfigAt(uint32 version) external view returns (VrfConfig memory);

    /// @notice Whether a raffle may start a round priced in ERC20 `token`.
    function isPriceToken(address token) external view returns (bool);

    /// @notice The merchant that deployed `raffle`, or zero if this factory did not deploy it.
    function merchantOf(address raffle) external view returns (address);
}
