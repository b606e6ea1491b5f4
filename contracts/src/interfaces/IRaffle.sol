// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {Asset} from "../libraries/Assets.sol";

/// @notice What `getCurrentRoundInfo` returns (spec 2.10). `prizeNumber` is the winning ticket id, 0 until drawn.
struct RaffleRoundInfo {
    uint256 roundId;
    uint256 startTimestamp;
    uint256 endTimestamp;
    uint256 maxTicket;
    uint256 prizeNumber;
    Asset acceptedAsset;
    Asset ticketAsset;
}

/// @notice Life of a round. Active -> Closed (no ticket) | Drawn (one ticket) | Drawing (VRF asked);
/// Drawing -> Drawn (VRF answered) | Refundable (VRF timed out); Drawn -> Claimed | Released.
enum RoundStatus {
    None,
    Active,
    Drawing,
    Drawn,
    Closed,
    Refundable,
    Claimed,
    Released
}

/// @notice Full state of one round, for indexers and tests.
struct RoundView {
    RoundStatus status;
    uint256 startTimestamp;
    uint256 endTimestamp;
    uint256 drawnAt;
    uint256 maxTicket;
    uint256 ticketCount;
    uint256 firstTicketId;
    uint256 winningTicketId;
    uint256 vrfRequestId;
    Asset price;
    /// @dev The coordinator this round's draw was asked from; only it can answer. Zero until `endRound` asks VRF.
    address coordinator;
    /// @dev When refunds may open if no answer came; an answer arriving from then on is ignored. Zero without VRF.
    uint256 refundableAt;
}

/// @notice Chainlink VRF v2.5 settings of the platform (held by the factory); nothing here is hard-coded per chain.
struct VrfConfig {
    address coordinator;
    bytes32 keyHash;
    uint256 subscriptionId;
    uint32 callbackGasLimit;
    uint16 requestConfirmations;
    /// @dev Seconds after `endRound` without randomness before ticket holders may take their price back.
    uint32 randomnessTimeout;
}

/// @notice Everything a raffle is built with; the factory fills it from the merchant's call and its own settings.
/// The deploying factory itself becomes the raffle's source of randomness and price tokens.
struct RaffleSettings {
    address admin;
    address exchange;
    /// @dev Creates the ticket contract, with this raffle as its only minter.
    address ticketDeployer;
    /// @dev Basis points of the pot paid to the beneficiary when the winner claims; capped by MAX_COMMISSION.
    uint256 commission;
    /// @dev Seconds after the draw before an unclaimed prize may be released to the beneficiary.
    uint256 timeLagBeforeRelease;
    string ticketName;
    string ticketSymbol;
}

interface IRaffle {
    event RoundStarted(uint256 indexed roundId, Asset ticket, Asset price, uint256 maxTicket, uint256 firstTicketId);
    event TicketPurchased(
        uint256 indexed roundId, uint256 indexed ticketId, address indexed account, uint256 serial, uint256 externalId
    );
    event RoundEnded(uint256 indexed roundId, uint256 ticketCount, uint256 vrfRequestId);
    event WinnerDrawn(uint256 indexed roundId, uint256 indexed ticketId, uint256 randomWord);
    event PrizeClaimed(
        uint256 indexed roundId, uint256 indexed ticketId, address indexed winner, uint256 prize, uint256 commission
    );
    event PrizeReleased(uint256 indexed roundId, address indexed beneficiary, uint256 amount);
    event RoundRefundable(uint256 indexed roundId);
    event TicketRefunded(uint256 indexed roundId, uint256 indexed ticketId, address indexed owner, uint256 amount);
    event BeneficiarySet(address indexed beneficiary);
    event CommissionWithdrawn(address indexed token, address indexed beneficiary, uint256 amount);
    event Paused(address account);
    event Unpaused(address account);

    error CallerNotExchange(address caller);
    error RafflePaused();
    error RaffleNotPaused();
    error NoActiveRound();
    error RoundStillActive(uint256 roundId);
    error RoundFull(uint256 maxTicket);
    error InvalidTicketAsset();
    error InvalidPriceAsset();
    error PriceMismatch();
    error WrongNativeValue(uint256 expected, uint256 actual);
    error MaxTicketTooLarge(uint256 maxTicket);
    error CommissionTooHigh(uint256 commission, uint256 max);
    /// @notice A VRF answer came for a request this raffle never sent to the caller (any other caller than the
    /// coordinator a round asked lands here).
    error UnknownVrfRequest(address coordinator, uint256 requestId);
    /// @notice The round manager ends rounds; anyone else only once the round has been open `MAX_ROUND_DURATION`.
    error RoundNotOverdue(uint256 roundId, uint256 overdueAt);
    /// @notice The ERC20 is not on the platform's list of price tokens (see `RaffleFactory.setPriceToken`).
    error PriceTokenNotAllowed(address token);
    error UnexpectedRoundStatus(uint256 roundId, RoundStatus status);
    error NotTicketOwnerOrApproved(uint256 ticketId, address caller);
    error PrizeNotReleasableYet(uint256 roundId, uint256 releasableAt);
    error RandomnessNotTimedOut(uint256 roundId, uint256 refundableAt);
    error ZeroAddress();
    error NothingToWithdraw(address token);
    error TimeLagTooShort(uint256 timeLag, uint256 min);

    /// @notice The current (latest) round; all zero before the first round.
    function getCurrentRoundInfo() external view returns (RaffleRoundInfo memory);

    /// @notice Opens a new round; reverts while a round is active.
    function startRound(Asset calldata ticket, Asset calldata price, uint256 maxTicket) external;

    /// @notice Closes the active round to purchases and draws its winner.
    function endRound() external;

    /// @notice Mints one ticket of the active round to `account`; the Exchange calls it after taking payment.
    function printTicket(address account, Asset calldata item, Asset calldata price, uint256 externalId)
        external
        payable
        returns (uint256 ticketId);
}
