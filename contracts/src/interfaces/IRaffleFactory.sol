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

/// @notice The platform's side of every raffle: it deploys them, owns their randomness (coordinator, key hash,
/// subscription) and the list of price tokens they may sell for, and bounds each merchant's use of the shared VRF
/// subscription.
interface IRaffleFactory {
    /// @notice One raffle and its ticket contract were deployed for `merchant`, which administers them.
    event RaffleDeployed(
        address indexed merchant,
        address indexed raffle,
        address indexed ticket,
        uint256 commission,
        uint256 timeLagBeforeRelease
    );
    /// @notice The VRF settings that draws requested from now on use.
    event VrfConfigSet(address indexed coordinator, bytes32 keyHash, uint256 subscriptionId);
    /// @notice A change of the VRF settings was announced; it can be applied from `effectiveAt`.
    event VrfConfigProposed(
        address indexed coordinator, bytes32 keyHash, uint256 subscriptionId, uint32 randomnessTimeout, uint256 effectiveAt
    );
    /// @notice The announced change of the VRF settings was withdrawn.
    event VrfConfigProposalCanceled();
    /// @notice `token` may (or may no longer) be the price of a new round.
    event PriceTokenSet(address indexed token, bool allowed);
    /// @notice Each merchant may now have at most `drawsPerDay` VRF draws requested per UTC day.
    event DrawBudgetSet(uint256 drawsPerDay);

    error ZeroAddress();
    error InvalidVrfConfig();
    /// @notice The VRF settings were never set: no raffle can be deployed or drawn yet.
    error VrfNotConfigured();
    /// @notice No VRF change was announced.
    error NoVrfConfigProposal();
    /// @notice The announced VRF change cannot be applied before `effectiveAt`.
    error VrfConfigNotYetEffective(uint256 effectiveAt);
    /// @notice Only raffles deployed by this factory may ask for a draw.
    error NotARaffle(address caller);
    /// @notice `merchant` used up today's `drawsPerDay` VRF draws; it can end the round again from `nextDayAt`.
    error DrawBudgetExhausted(address merchant, uint256 drawsPerDay, uint256 nextDayAt);
    /// @notice The price token is not a contract.
    error NotAContract(address token);

    /// @notice Deploys a raffle administered by the caller, wired to the platform's Exchange and VRF subscription.
    function deployRaffle(RaffleConfig calldata config) external returns (address raffle, address ticket);

    /// @notice Called by a raffle's `endRound` when it needs randomness: counts the draw against its merchant's
    /// daily budget and returns the VRF settings to request it with.
    function authorizeDraw() external returns (VrfConfig memory);

    /// @notice The VRF settings that draws requested now use.
    function vrfConfig() external view returns (VrfConfig memory);

    /// @notice Whether a raffle may start a round priced in ERC20 `token`.
    function isPriceToken(address token) external view returns (bool);

    /// @notice The merchant that deployed `raffle`, or zero if this factory did not deploy it.
    function merchantOf(address raffle) external view returns (address);
}
