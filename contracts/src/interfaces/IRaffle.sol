// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {Asset} from "../libraries/Assets.sol";
import {IRaffleFactory} from "./IRaffleFactory.sol";
import {IRaffleTicket, PrizeStatus} from "./IRaffleTicket.sol";

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

/// @notice Life of a round. Active -> Closed (no ticket) | Drawn (one ticket, one winner) | Drawing (VRF asked) |
/// Refundable (fewer tickets than the round's minimum, or the draw was refused); Drawing -> Drawn (VRF answered and
/// winners drawn) | WinnersPending (VRF answered, winners left to `finishDraw`) | Refundable (VRF timed out);
/// WinnersPending -> Drawn; Drawn -> Claimed (every prize claimed) | Released (the unclaimed ones released). Every
/// state but Active, Drawing and WinnersPending pays every ticket (or had none), and none of those can last: see
/// "Liveness" in contracts/TRUST.md. New states are appended so stored numbers keep their meaning.
enum RoundStatus {
    None,
    Active,
    Drawing,
    Drawn,
    Closed,
    Refundable,
    Claimed,
    Released,
    WinnersPending
}

/// @notice A quantity sold at its own total price in the round's price token (e.g. 5 tickets for 45).
struct Bundle {
    uint32 quantity;
    uint128 price;
}

/// @notice What a round is played by. The merchant sets them with `setRoundRules`; each `startRound` fixes the rules
/// in force into the new round, and no later change touches a round already started.
struct RoundRules {
    /// @dev Basis points of the pot per winner position, first prize first; 1 to MAX_WINNERS entries summing to
    /// 10,000. `[10000]`, one winner taking the pot, is the default.
    uint16[] prizeShares;
    /// @dev A round ending with fewer tickets (or fewer than its winners) asks no randomness and refunds every ticket.
    uint32 minTickets;
    /// @dev Most tickets one buyer may buy in a round; 0 = no cap.
    uint32 maxTicketsPerWallet;
    /// @dev Up to MAX_BUNDLES quantities (2 and up, increasing) with their total price; the price per ticket never
    /// rises with the quantity. A purchase of q tickets pays, per ticket, the price per ticket of the largest bundle
    /// whose quantity is at most q, or the round's price when none is.
    Bundle[] bundles;
}

/// @notice One winner position of a drawn round.
struct Winner {
    uint256 ticketId;
    /// @dev Basis points of the pot.
    uint256 share;
    /// @dev What the position pays before commission: pot x share / 10,000, the first position also taking the
    /// rounding remainder, so the positions add up to the pot exactly.
    uint256 amount;
    PrizeStatus status;
}

/// @notice A ticket of a given round: how claims and refunds name what they settle.
struct TicketRef {
    uint256 roundId;
    uint256 ticketId;
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
    /// @dev What the round's tickets paid, in the price token: the sum of its prizes, or of its refunds.
    uint256 pot;
    /// @dev The VRF word the winners were drawn from (0 until it arrives, and for a single ticket winning outright).
    uint256 randomWord;
    /// @dev How many winners the round draws (its rules' prize positions).
    uint256 winnersCount;
    /// @dev Which rules version the round plays by (see `getRoundRules`).
    uint256 rulesVersion;
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
    /// @notice `account` bought `quantity` tickets of round `roundId` through the Exchange for `amount` in the round's
    /// price token: ids `firstTicketId` to `firstTicketId + quantity - 1`. `externalId` is the voucher's.
    event TicketsPurchased(
        uint256 indexed roundId,
        address indexed account,
        uint256 indexed firstTicketId,
        uint256 quantity,
        uint256 amount,
        uint256 externalId
    );

    /// @notice The merchant set the rules that rounds started from now on play by, as version `version`.
    event RoundRulesSet(uint256 indexed version, RoundRules rules);

    /// @notice Round `roundId` plays by rules version `version`, which are `rules`.
    event RoundRulesApplied(uint256 indexed roundId, uint256 indexed version, RoundRules rules);

    /// @notice Round `roundId` ended with `ticketCount` tickets, under the `required` it needed to be drawn: it asks no
    /// randomness and every ticket is refundable at once.
    event MinimumNotReached(uint256 indexed roundId, uint256 ticketCount, uint256 required);
    /// @notice The round stopped selling with `ticketCount` tickets; `vrfRequestId` is 0 unless randomness was asked.
    event RoundEnded(uint256 indexed roundId, uint256 ticketCount, uint256 vrfRequestId);
    /// @notice The factory refused or failed to request randomness for round `roundId` (`reason` is its revert data):
    /// the round is refundable at once instead of waiting for a draw that cannot come.
    event DrawRefused(uint256 indexed roundId, bytes reason);
    /// @notice The VRF word of round `roundId` arrived; its winners follow from it (`WinnersDrawn`), in the same call
    /// or, if the callback could not afford them, in `finishDraw`.
    event RandomnessReceived(uint256 indexed roundId, uint256 randomWord);

    /// @notice Round `roundId`'s winners, first position first, drawn from `randomWord` by the rule in the README
    /// ("How winners are drawn"); `randomWord` is 0 when a single ticket won outright.
    event WinnersDrawn(uint256 indexed roundId, uint256 randomWord, uint256[] ticketIds);
    /// @notice The owner of winning ticket `ticketId` took its `prize`; `commission` was credited to the beneficiary.
    event PrizeClaimed(
        uint256 indexed roundId, uint256 indexed ticketId, address indexed winner, uint256 prize, uint256 commission
    );
    /// @notice The round's prizes still unclaimed after the time lag, `amount` in all, went to the beneficiary.
    event PrizeReleased(uint256 indexed roundId, address indexed beneficiary, uint256 amount);
    /// @notice Every ticket of the round may now be refunded: its draw was refused, its randomness did not come by
    /// its `refundableAt`, or it ended below its minimum.
    event RoundRefundable(uint256 indexed roundId);
    /// @notice Ticket `ticketId` was burnt and what it paid, `amount`, paid back to `owner`.
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
    /// @notice The round has `left` tickets left to sell (of its `maxTicket`), fewer than asked.
    error RoundFull(uint256 maxTicket, uint256 left);

    /// @notice A purchase is of 1 to `max` (MAX_TICKETS_PER_PURCHASE) tickets.
    error InvalidQuantity(uint256 quantity, uint256 max);

    /// @notice `account` holds `held` tickets of the round; `quantity` more would pass the round's cap of `max`.
    error WalletLimitReached(address account, uint256 held, uint256 quantity, uint256 max);

    /// @notice Prize shares must be 1 to MAX_WINNERS basis-point entries, none zero, summing to 10,000.
    error InvalidPrizeShares(uint256 count, uint256 sum);

    /// @notice Bundle `index` breaks a rule: quantity 2 to MAX_TICKETS_PER_PURCHASE and above the previous one, price
    /// a non-zero multiple of its quantity, price per ticket not above the previous bundle's; at most MAX_BUNDLES.
    error InvalidBundle(uint256 index);

    /// @notice Bundle `index` of the rules costs more per ticket than the round's price.
    error BundleAboveRoundPrice(uint256 index);

    /// @notice A batch of claims or refunds holds 1 to `max` tickets.
    error InvalidBatchSize(uint256 size, uint256 max);

    /// @notice Ticket `ticketId` is not a ticket of round `roundId`.
    error TicketNotInRound(uint256 roundId, uint256 ticketId);

    /// @notice Ticket `ticketId` holds no prize of round `roundId` to claim (it did not win, or its prize is settled).
    error NoPrizeToClaim(uint256 roundId, uint256 ticketId);
    /// @notice The ticket asset is not one token of this raffle's ticket contract.
    error InvalidTicketAsset();
    /// @notice The price is not a payable NATIVE or ERC20 amount in (0, 2^96).
    error InvalidPriceAsset();
    /// @notice The voucher's price is not the active round's price.
    error PriceMismatch();
    /// @notice `msg.value` is not what the price asks.
    error WrongNativeValue(uint256 expected, uint256 actual);
    /// @notice `maxTicket` above 2^32 - 1.
    error MaxTicketTooLarge(uint256 maxTicket);

    /// @notice `maxTicket` below the `required` tickets the rules need to draw the round (its minimum or its winners).
    error MaxTicketBelowMinimum(uint256 maxTicket, uint256 required);
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
    /// @notice The unclaimed prizes of `roundId` may be released from `releasableAt`.
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

    /// @notice Full state of any round; `ticketCount` and `pot` are live for the active round.
    function getRound(uint256 roundId) external view returns (RoundView memory);

    /// @notice Opens a new round; reverts while a round is active. Round manager only.
    function startRound(Asset calldata ticket, Asset calldata price, uint256 maxTicket) external;

    /// @notice Closes the active round to purchases and asks for its draw; a round below its minimum, or whose draw is
    /// refused, is refundable at once. The round manager, or anyone once the round has been open `MAX_ROUND_DURATION`. Never reverts for
    /// a reason outside the raffle (the factory's budget, the coordinator), so every round can always end.
    function endRound() external;

    /// @notice The answer to round `roundId`'s draw, delivered by the factory from the coordinator the round asked.
    /// Ignored unless the round still waits for request `requestId` and its `refundableAt` has not come.
    /// Records the word and draws the winners if the gas left allows, else leaves them to `finishDraw`.
    function fulfillDraw(uint256 roundId, uint256 requestId, uint256 randomWord) external;

    /// @notice Draws the winners of a round whose word arrived but whose callback could not afford them. Anyone: the
    /// winners follow from the recorded word alone.
    function finishDraw(uint256 roundId) external;

    /// @notice The winners of a drawn round, first position first (empty before the draw).
    function getWinners(uint256 roundId) external view returns (Winner[] memory);

    /// @notice Sets the rules that rounds started from now on play by. Admin. Never changes a round already started.
    function setRoundRules(RoundRules calldata rules) external;

    /// @notice The rules the next round will start with.
    function roundRules() external view returns (RoundRules memory);

    /// @notice The rules round `roundId` plays by.
    function getRoundRules(uint256 roundId) external view returns (RoundRules memory);

    /// @notice The round a ticket id was sold in (0 if it was never sold).
    function roundOfTicket(uint256 ticketId) external view returns (uint256);

    /// @notice What one ticket of round `roundId` bought at price tier `tier` paid, and what its refund pays back.
    function ticketPrice(uint256 roundId, uint256 tier) external view returns (uint256);

    // ---------------------------------------------------------------- purchases

    /// @notice Mints `item.amount` tickets of the active round to `account`; the Exchange calls it after taking
    /// `price`, which must be the round's price for that quantity (`priceOf`). Returns the first ticket's id.
    function printTicket(address account, Asset calldata item, Asset calldata price, uint256 externalId)
        external
        payable
        returns (uint256 firstTicketId);

    /// @notice What `quantity` tickets of the active round cost: the round's price token, and the amount its rules
    /// give (see `RoundRules.bundles`).
    function priceOf(uint256 quantity) external view returns (Asset memory);

    // ---------------------------------------------------------------- prizes and refunds

    /// @notice Pays each winning ticket's prize, less commission, to its owner. The caller must own or be approved for
    /// every ticket; tickets may come from several rounds. Each prize is paid once.
    function claimPrizes(TicketRef[] calldata tickets) external;

    /// @notice Sends a drawn round's unclaimed prizes to the beneficiary once `timeLagBeforeRelease` has passed since
    /// the draw. Admin.
    function releasePrize(uint256 roundId) external;

    /// @notice Opens refunds for a round whose randomness did not arrive by its `refundableAt`. Anyone.
    function enableRefunds(uint256 roundId) external;

    /// @notice Burns tickets of refundable rounds and pays each one's price back to its owner. The caller must own or
    /// be approved for every ticket; tickets may come from several rounds.
    function refundTickets(TicketRef[] calldata tickets) external;

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

    /// @notice The ticket asset of a one-ticket purchase: one token of this raffle's ticket contract (a voucher for
    /// several tickets carries the same asset with `amount` = the quantity).
    function ticketAsset() external view returns (Asset memory);

    /// @notice Basis points of each pot credited to the beneficiary when the winner claims.
    function commission() external view returns (uint256);

    /// @notice Seconds after a draw before an unclaimed pot may be released.
    function timeLagBeforeRelease() external view returns (uint256);
}
