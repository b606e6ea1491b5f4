// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {IVRFCoordinatorV2Plus} from "@chainlink/contracts/src/v0.8/vrf/dev/interfaces/IVRFCoordinatorV2Plus.sol";

import {IRaffleFactory, RaffleConfig} from "./interfaces/IRaffleFactory.sol";
import {RaffleSettings, VrfConfig} from "./interfaces/IRaffle.sol";
import {Raffle} from "./Raffle.sol";
import {VrfConfigs} from "./libraries/VrfConfigs.sol";

/// @notice Deploys merchants' raffles in one call. The factory owns the platform's VRF subscription and adds each
/// new raffle to it as a consumer, so randomness works from the first round without a merchant step.
contract RaffleFactory is IRaffleFactory, AccessControl {
    /// @notice Wallets allowed to deploy raffles: the platform pays their randomness, so onboarding is explicit.
    bytes32 public constant MERCHANT_ROLE = keccak256("MERCHANT_ROLE");

    address public immutable exchange;
    address public immutable ticketDeployer;
    VrfConfig private _vrf;

    constructor(address admin, address exchange_, address ticketDeployer_, VrfConfig memory vrf) {
        if (admin == address(0) || exchange_ == address(0) || ticketDeployer_ == address(0)) revert ZeroAddress();
        exchange = exchange_;
        ticketDeployer = ticketDeployer_;
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        _setVrfConfig(vrf);
    }

    /// @inheritdoc IRaffleFactory
    function deployRaffle(RaffleConfig calldata config)
        external
        onlyRole(MERCHANT_ROLE)
        returns (address raffle, address ticket)
    {
        VrfConfig memory vrf = _vrf;
        Raffle deployed = new Raffle(
            RaffleSettings({
                admin: msg.sender,
                exchange: exchange,
                ticketDeployer: ticketDeployer,
                commission: config.commission,
                timeLagBeforeRelease: config.timeLagBeforeRelease,
                ticketName: config.ticketName,
                ticketSymbol: config.ticketSymbol,
                vrf: vrf
            })
        );
        raffle = address(deployed);
        ticket = address(deployed.ticketContract());
        IVRFCoordinatorV2Plus(vrf.coordinator).addConsumer(vrf.subscriptionId, raffle);
        emit RaffleDeployed(msg.sender, raffle, ticket, config.commission, config.timeLagBeforeRelease);
    }

    /// @notice Creates a VRF subscription owned by this factory and makes it the one new raffles use.
    function createVrfSubscription() external onlyRole(DEFAULT_ADMIN_ROLE) returns (uint256 subscriptionId) {
        VrfConfig memory vrf = _vrf;
        vrf.subscriptionId = IVRFCoordinatorV2Plus(vrf.coordinator).createSubscription();
        _setVrfConfig(vrf);
        return vrf.subscriptionId;
    }

    /// @notice Takes over a subscription whose owner requested a transfer to this factory.
    function acceptVrfSubscription(uint256 subscriptionId) external onlyRole(DEFAULT_ADMIN_ROLE) {
        VrfConfig memory vrf = _vrf;
        IVRFCoordinatorV2Plus(vrf.coordinator).acceptSubscriptionOwnerTransfer(subscriptionId);
        vrf.subscriptionId = subscriptionId;
        _setVrfConfig(vrf);
    }

    function setVrfConfig(VrfConfig calldata vrf) external onlyRole(DEFAULT_ADMIN_ROLE) {
        _setVrfConfig(vrf);
    }

    /// @inheritdoc IRaffleFactory
    function vrfConfig() external view returns (VrfConfig memory) {
        return _vrf;
    }

    function _setVrfConfig(VrfConfig memory vrf) private {
        if (!VrfConfigs.isValid(vrf)) revert InvalidVrfConfig();
        _vrf = vrf;
        emit VrfConfigSet(vrf.coordinator, vrf.keyHash, vrf.subscriptionId);
    }
}
