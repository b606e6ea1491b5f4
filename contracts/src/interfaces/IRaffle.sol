// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {Asset} from "../libraries/Assets.sol";
import {IRaffleFactory} from "./IRaffleFactory.sol";
import {IRaffleTicket} from "./IRaffleTicket.sol";

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

/// @notice Life of a round. Active -> Closed (no ticket) | Drawn (one ticket) | Drawing (VRF asked) | Refundable (the
/// draw was refused or failed); Drawing -> Drawn (VRF answered) | Refundable (VRF timed out); Drawn -> Claimed |
/// Released. Every state but Active and Drawing pays every ticket (or had none), and neither of those can last: see
/// "Liveness" in contracts/TRUST.md.
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
    /// @dev The factory's VRF settings version in force when the round started: the only settings it is drawn with.
    uint256 vrfVersion;
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
    /// @dev The platform's factory: the raffle's only source of randomness, price tokens and round authorization.
    address factory;
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

/// @notice A merchant's raffle: rounds of tickets sold through the platform's Exchange, each drawn with the platform's
/// Chainlink VRF settings, with a real pot paid to the winner. `contracts/TRUST.md` says who may do what.
interface IRaffle {
    // ---------------------------------------------------------------- events

    /// @notice Round `roundId` opened: it sells `ticket` at `price`, at most `maxTicket` (0 = no cap), ids from
    /// `firstTicketId`.
    event RoundStarted(uint256 indexed roundId, Asset ticket, Asset price, uint256 maxTicket, uint256 firstTicketId);
    /// @notice Ticket `ticketId`, the `serial`-th of its round, was bought for `account` through the Exchange.
    event TicketPurchased(
        uint256 indexed roundId, uint256 indexed ticketId, address indexed account, uint256 serial, uint256 externalId
    );
    /// @notice The round stopped selling with `ticketCount` tickets; `vrfRequestId` is 0 unless randomness was asked.
    event RoundEnded(uint256 indexed roundId, uint256 ticketCount, uint256 vrfRequestId);
    /// @notice The factory refused or failed to request randomness for round `roundId` (`reason` is its revert data):
    /// the round is refundable at once instead of waiting for a draw that cannot come.
    event DrawRefused(uint256 indexed roundId, bytes reason);
    /// @notice `ticketId` won round `roundId`; `randomWord` is the VRF word (0 when a single ticket won outright).
    event WinnerDrawn(uint256 indexed roundId, uint256 indexed ticketId, uint256 randomWord);
    /// @notice The winner took `prize`; `commission` was credited to the beneficiary.
    event PrizeClaimed(
        uint256 indexed roundId, uint256 indexed ticketId, address indexed winner, uint256 prize, uint256 commission
    );
    /// @notice An unclaimed pot of `amount` went to the beneficiary after the time lag.
    event PrizeReleased(uint256 indexed roundId, address indexed beneficiary, uint256 amount);
    /// @notice Randomness did not come by the round's `refundableAt`: every ticket may now be refunded.
    event RoundRefundable(uint256 indexed roundId);
    /// @notice Ticket `ticketId` was burnt and its price `amount` paid back to `owner`.
    event TicketRefunded(uint256 indexed roundId, uint256 indexed ticketId, address indexed owner, uint256 amount);
    /// @notice Commission and released pots now go to `beneficiary`.
    event BeneficiarySet(address indexed beneficiary);
    /// @notice Accrued commission `amount` in `token` (address(0) for native) was paid to `beneficiary`.
    event CommissionWithdrawn(address indexed token, address indexed beneficiary, uint256 amount);
    /// @notice Purchases stopped (prizes and refunds go on).
    event Paused(address account);
    /// @notice Purchases resumed.
    event Unpaused(address account);

    // ---------------------------------------------------------------- errors

    /// @notice Only the Exchange prints tickets.
    error CallerNotExchange(address caller);
    /// @notice The raffle is paused (or, for `pause`, already paused).
    error RafflePaused();
    /// @notice `unpause` of a raffle that is not paused.
    error RaffleNotPaused();
    /// @notice No round is selling.
    error NoActiveRound();
    /// @notice `startRound` while round `roundId` still sells.
    error RoundStillActive(uint256 roundId);
    /// @notice The round sold its `maxTicket` tickets.
    error RoundFull(uint256 maxTicket);
    /// @notice The ticket asset is not one token of this raffle's ticket contract.
    error InvalidTicketAsset();
    /// @notice The price is not a payable NATIVE or ERC20 amount in (0, 2^128].
    error InvalidPriceAsset();
    /// @notice The voucher's price is not the active round's price.
    error PriceMismatch();
    /// @notice `msg.value` is not what the price asks.
    error WrongNativeValue(uint256 expected, uint256 actual);
    /// @notice `maxTicket` above 2^32 - 1.
    error MaxTicketTooLarge(uint256 maxTicket);
    /// @notice Commission above `MAX_COMMISSION` basis points.
    error CommissionTooHigh(uint256 commission, uint256 max);
    /// @notice Only the factory delivers randomness (it is the VRF consumer and routes each answer to its round).
    error CallerNotFactory(address caller);
    /// @notice `endRound` of a round that needs a draw was sent with less gas than a draw request may take, so a
    /// caller cannot starve the request to force refunds.
    error NotEnoughGasForDraw(uint256 required, uint256 available);
    /// @notice The round manager ends rounds; anyone else only once the round has been open `MAX_ROUND_DURATION`.
    error RoundNotOverdue(uint256 roundId, uint256 overdueAt);
    /// @notice The ERC20 is not on the platform's list of price tokens (see `RaffleFactory.setPriceToken`).
    error PriceTokenNotAllowed(address token);
    /// @notice Round `roundId` is in `status`, which does not allow this call.
    error UnexpectedRoundStatus(uint256 roundId, RoundStatus status);
    /// @notice The caller neither owns ticket `ticketId` nor is approved for it.
    error NotTicketOwnerOrApproved(uint256 ticketId, address caller);
    /// @notice The unclaimed pot of `roundId` may be released from `releasableAt`.
    error PrizeNotReleasableYet(uint256 roundId, uint256 releasableAt);
    /// @notice Refunds of `roundId` may open from `refundableAt`.
    error RandomnessNotTimedOut(uint256 roundId, uint256 refundableAt);
    /// @notice A required address is zero.
    error ZeroAddress();
    /// @notice No commission accrued in `token`.
    error NothingToWithdraw(address token);
    /// @notice `timeLagBeforeRelease` under `MIN_TIME_LAG_BEFORE_RELEASE`.
    error TimeLagTooShort(uint256 timeLag, uint256 min);

    // ---------------------------------------------------------------- rounds

    /// @notice The current (latest) round; all zero before the first round.
    function getCurrentRoundInfo() external view returns (RaffleRoundInfo memory);

    /// @notice Full state of any round; `ticketCount` is live for the active round.
    function getRound(uint256 roundId) external view returns (RoundView memory);

    /// @notice Opens a new round; reverts while a round is active. Round manager only.
    function startRound(Asset calldata ticket, Asset calldata price, uint256 maxTicket) external;

    /// @notice Closes the active round to purchases and draws its winner, or makes it refundable at once if the draw
    /// is refused. The round manager, or anyone once the round has been open `MAX_ROUND_DURATION`. Never reverts for
    /// a reason outside the raffle (the factory's budget, the coordinator), so every round can always end.
    function endRound() external;

    /// @notice The answer to round `roundId`'s draw, delivered by the factory from the coordinator the round asked.
    /// Ignored unless the round still waits for request `requestId` and its `refundableAt` has not come.
    function fulfillDraw(uint256 roundId, uint256 requestId, uint256 randomWord) external;

    // ---------------------------------------------------------------- purchases

    /// @notice Mints one ticket of the active round to `account`; the Exchange calls it after taking payment.
    function printTicket(address account, Asset calldata item, Asset calldata price, uint256 externalId)
        external
        payable
        returns (uint256 ticketId);

    // ---------------------------------------------------------------- prizes and refunds

    /// @notice Pays the pot of a drawn round, less commission, to the winning ticket's owner. Owner or approved only.
    function claimPrize(uint256 roundId) external;

    /// @notice Sends an unclaimed pot to the beneficiary once `timeLagBeforeRelease` has passed since the draw. Admin.
    function releasePrize(uint256 roundId) external;

    /// @notice Opens refunds for a round whose randomness did not arrive by its `refundableAt`. Anyone.
    function enableRefunds(uint256 roundId) external;

    /// @notice Burns a ticket of a refundable round and pays its price back to its owner. Owner or approved only.
    function refundTicket(uint256 ticketId) external;

    /// @notice Sends the commission accrued in `token` (address(0) for native) to the beneficiary. Admin.
    function withdrawCommission(address token) external;

    /// @notice Commission accrued in `token` and not yet withdrawn.
    function accruedCommission(address token) external view returns (uint256);

    // ---------------------------------------------------------------- administration

    /// @notice Stops purchases (never prizes or refunds). Admin.
    function pause() external;

    /// @notice Resumes purchases. Admin.
    function unpause() external;

    /// @notice Sets who receives commission and released pots. Admin.
    function setBeneficiary(address newBeneficiary) external;

    /// @notice Whether purchases are stopped.
    function paused() external view returns (bool);

    /// @notice Who receives commission and released pots.
    function beneficiary() external view returns (address);

    /// @notice The platform's Exchange, the only caller of `printTicket`.
    function exchange() external view returns (address);

    /// @notice The factory that deployed this raffle: the source of its randomness and price tokens.
    function factory() external view returns (IRaffleFactory);

    /// @notice This raffle's ticket contract.
    function ticketContract() external view returns (IRaffleTicket);

    /// @notice The only ticket asset this raffle sells: one token of its own ticket contract.
    function ticketAsset() external view returns (Asset memory);

    /// @notice Basis points of each pot credited to the beneficiary when the winner claims.
    function commission() external view returns (uint256);

    /// @notice Seconds after a draw before an unclaimed pot may be released.
    function timeLagBeforeRelease() external view returns (uint256);
}
