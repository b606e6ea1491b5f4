// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {FuzzSelector, vm} from "./utils/Vm.sol";
import {IExchangeX, IHasRole, IRaffleFactoryX, IRaffleX, ITokenX, IVRFMock} from "./utils/Interfaces.sol";
import {Handler} from "./Handler.sol";
import {CoordinatorActions} from "./CoordinatorActions.sol";
import {MerchantActions} from "./MerchantActions.sol";
import {PlatformActions} from "./PlatformActions.sol";
import {PlayerActions} from "./PlayerActions.sol";
import {Platform} from "./HandlerBase.sol";
import {VrfConfig} from "../src/interfaces/IRaffle.sol";
import {RaffleConfig} from "../src/interfaces/IRaffleFactory.sol";

/// @notice Stateful invariant fuzzing of the whole platform: forge calls the handler's actions in random sequences
/// and, after every call, the invariant below it is testing (one campaign per invariant). After each sequence,
/// afterInvariant settles everything and checks that every payout was made.
/// @dev The contracts are deployed from Hardhat's artifacts (run `npm run compile` first): the suite fuzzes exactly
/// the bytecode that Hardhat tests and the deploy scripts ship.
contract RaffleInvariants {
    Handler internal handler;

    string internal constant ARTIFACTS = "artifacts/src/";
    string internal constant VRF_MOCK =
        "artifacts/@chainlink/contracts/src/v0.8/vrf/mocks/VRFCoordinatorV2_5Mock.sol/VRFCoordinatorV2_5Mock.json";

    function _deploy(string memory path, bytes memory args) internal returns (address) {
        return vm.deployCode(string.concat(ARTIFACTS, path), args);
    }

    function setUp() public {
        vm.warp(1_750_000_000);
        Platform memory p;
        p.admin = vm.addr(0xAD);
        p.signerKeys = [uint256(0x5161), 0x5162, 0x5163];
        p.merchants = [vm.addr(0x3E1), vm.addr(0x3E2)];
        p.hotKeys = [vm.addr(0x407), vm.addr(0x408)];
        // Two plain accounts and two contract wallets (a Safe, a smart account): the wallets get the ERC721 mint
        // callback, in which the handler has them move tickets, re-enter or refuse (see HandlerBase).
        for (uint256 i = 0; i < 2; i++) p.players[i] = vm.addr(0x9100 + i);
        for (uint256 i = 2; i < 4; i++) p.players[i] = _deploy("test/SmartWallet.sol/SmartWallet.json", "");
        p.stranger = vm.addr(0xBAD);
        p.beneficiaries = [vm.addr(0xBE1), vm.addr(0xBE2)];

        // Chainlink's VRF v2.5 mock, twice: the platform can move its draws to another coordinator.
        for (uint256 c = 0; c < 2; c++) {
            p.coordinators[c] = IVRFMock(vm.deployCode(VRF_MOCK, abi.encode(uint96(0.1 ether), uint96(1 gwei), int256(0.004 ether))));
        }
        p.exchange = IExchangeX(_deploy("Exchange.sol/Exchange.json", abi.encode(p.admin)));
        address ticketDeployer = _deploy("RaffleTicketDeployer.sol/RaffleTicketDeployer.json", "");
        p.factory = IRaffleFactoryX(
            _deploy(
                "RaffleFactory.sol/RaffleFactory.json",
                abi.encode(
                    p.admin,
                    address(p.exchange),
                    ticketDeployer,
                    _deploy("RaffleDeployer.sol/RaffleDeployer.json", "")
                )
            )
        );
        p.vrfTimeout = 1 days;
        p.vrfGas = 500_000;

        vm.startPrank(p.admin);
        p.exchange.grantRole(p.exchange.SIGNER_ROLE(), vm.addr(p.signerKeys[0]));
        p.exchange.grantRole(keccak256("FACTORY_ROLE"), address(p.factory));
        p.factory.proposeVrfConfig(
            VrfConfig({
                coordinator: address(p.coordinators[0]),
                keyHash: keccak256(abi.encode("key", uint256(0))),
                subscriptionId: 0,
                callbackGasLimit: p.vrfGas,
                requestConfirmations: 3,
                randomnessTimeout: p.vrfTimeout
            })
        );
        p.subscriptions[0] = p.factory.createVrfSubscription();
        p.factory.grantRole(p.factory.MERCHANT_ROLE(), p.merchants[0]);
        p.factory.grantRole(p.factory.MERCHANT_ROLE(), p.merchants[1]);
        vm.stopPrank();
        p.coordinators[0].fundSubscription(p.subscriptions[0], 1e27);

        p.tokens[1] = _deploy("tokens/TestToken.sol/TestToken.json", abi.encode("Test Gold", "GOLD", p.admin));
        p.tokens[2] = _deploy("test/HostileTokens.sol/NoReturnToken.json", "");
        p.tokens[3] = _deploy("test/HostileTokens.sol/BlocklistToken.json", "");
        p.tokens[4] = _deploy("test/HostileTokens.sol/FeeOnTransferToken.json", "");
        p.tokens[5] = _deploy("test/HostileTokens.sol/ShortDeliveryToken.json", "");
        p.tokens[6] = _deploy("tokens/TestCollectible.sol/TestCollectible.json", abi.encode("Relic", "RELIC", p.admin));
        vm.startPrank(p.admin);
        for (uint256 t = 1; t <= 3; t++) p.factory.setPriceToken(p.tokens[t], true);
        vm.stopPrank();

        // Raffle 0 takes the highest commission allowed; raffle 1 a small one and a longer release lag.
        RaffleConfig[2] memory configs = [
            RaffleConfig({commission: 3_000, timeLagBeforeRelease: 1 days, ticketName: "Zero", ticketSymbol: "R0"}),
            RaffleConfig({commission: 250, timeLagBeforeRelease: 3 days, ticketName: "One", ticketSymbol: "R1"})
        ];
        for (uint256 r = 0; r < 2; r++) {
            vm.prank(p.merchants[r]);
            (address raffle,) = p.factory.deployRaffle(configs[r]);
            p.raffles[r] = IRaffleX(raffle);
        }

        // More raffles than a VRF subscription has consumer slots (100): with raffles as consumers, the 101st deploy
        // reverted (TooManyConsumers) and no merchant could deploy again.
        for (uint256 i = 0; i < 110; i++) {
            vm.prank(p.merchants[i % 2]);
            p.factory.deployRaffle(RaffleConfig({commission: 0, timeLagBeforeRelease: 1 days, ticketName: "X", ticketSymbol: "X"}));
        }
        // A coordinator of the platform's own that burns every request's gas (a hostile platform may point new
        // rounds at it after the notice): those rounds must be refunded, never frozen.
        p.burner = _deploy("test/HostileTokens.sol/GasBurningCoordinator.json", "");

        // The second coordinator: a subscription of the platform admin, funded, with the factory as its consumer.
        vm.startPrank(p.admin);
        p.subscriptions[1] = p.coordinators[1].createSubscription();
        p.coordinators[1].addConsumer(p.subscriptions[1], address(p.factory));
        vm.stopPrank();
        p.coordinators[1].fundSubscription(p.subscriptions[1], 1e27);

        // Players: money in every token (hostile ones too, so a voucher in the wrong token gets as far as the
        // raffle), and the Exchange approved for all of it.
        for (uint256 i = 0; i < 4; i++) {
            address player = p.players[i];
            vm.deal(player, 1e30);
            vm.prank(p.admin);
            ITokenX(p.tokens[1]).mint(player, 1e30);
            for (uint256 t = 2; t <= 5; t++) ITokenX(p.tokens[t]).mint(player, 1e30);
            for (uint256 t = 1; t <= 5; t++) {
                vm.prank(player);
                (bool ok,) = p.tokens[t].call(abi.encodeCall(ITokenX.approve, (address(p.exchange), type(uint256).max)));
                require(ok, "approve");
            }
        }

        handler = new Handler(p);
        handler.bootstrap();
        vm.label(address(handler), "Handler");
        vm.label(address(p.exchange), "Exchange");
        vm.label(address(p.factory), "RaffleFactory");
        vm.label(address(p.raffles[0]), "Raffle0");
        vm.label(address(p.raffles[1]), "Raffle1");
        vm.label(address(p.coordinators[0]), "Coordinator0");
        vm.label(address(p.coordinators[1]), "Coordinator1");
        vm.label(p.players[2], "Wallet2");
        vm.label(p.players[3], "Wallet3");
    }

    // ------------------------------------------------------------------ what forge fuzzes

    function targetContracts() public view returns (address[] memory targets) {
        targets = new address[](1);
        targets[0] = address(handler);
    }

    /// @dev Each action is listed as many times as its weight: forge picks uniformly from this list.
    function targetSelectors() public view returns (FuzzSelector[] memory selectors) {
        bytes4[71] memory weighted = [
            // players: purchases (valid vouchers, misused ones, stored ones), tickets, prizes, refunds
            PlayerActions.buyValid.selector,
            PlayerActions.buyValid.selector,
            PlayerActions.buyValid.selector,
            PlayerActions.buyValid.selector,
            PlayerActions.buyValidAgain.selector,
            PlayerActions.buyValidAgain.selector,
            PlayerActions.buyValidAgain.selector,
            PlayerActions.buyValidAgain.selector,
            PlayerActions.buy.selector,
            PlayerActions.buy.selector,
            PlayerActions.buy.selector,
            PlayerActions.buy.selector,
            PlayerActions.useStashed.selector,
            PlayerActions.transferTicket.selector,
            PlayerActions.transferTicket.selector,
            PlayerActions.approveTicket.selector,
            PlayerActions.claimPrize.selector,
            PlayerActions.claimPrize.selector,
            PlayerActions.claimPrize.selector,
            PlayerActions.refundTicket.selector,
            PlayerActions.refundTicket.selector,
            PlayerActions.refundTicket.selector,
            PlayerActions.blockAddress.selector,
            PlayerActions.rescueBlockedWinner.selector,
            MerchantActions.finishDraw.selector,
            PlayerActions.donate.selector,
            // merchants, honest and hostile
            MerchantActions.startRound.selector,
            MerchantActions.startRound.selector,
            MerchantActions.startRound.selector,
            MerchantActions.endRound.selector,
            MerchantActions.endRound.selector,
            MerchantActions.endRound.selector,
            MerchantActions.pauseRaffle.selector,
            MerchantActions.pauseRaffle.selector,
            MerchantActions.setBeneficiary.selector,
            MerchantActions.setRules.selector,
            MerchantActions.setRules.selector,
            MerchantActions.setRules.selector,
            MerchantActions.grantHotKey.selector,
            MerchantActions.releasePrize.selector,
            MerchantActions.releasePrize.selector,
            MerchantActions.withdrawCommission.selector,
            MerchantActions.hostileMerchant.selector,
            MerchantActions.hostileMerchant.selector,
            // VRF coordinators
            CoordinatorActions.fulfill.selector,
            CoordinatorActions.fulfill.selector,
            CoordinatorActions.fulfill.selector,
            CoordinatorActions.fulfillLate.selector,
            CoordinatorActions.fulfillTight.selector,
            CoordinatorActions.answerAgain.selector,
            CoordinatorActions.answerFromWrongCoordinator.selector,
            CoordinatorActions.letDrawTimeOut.selector,
            // anyone
            CoordinatorActions.enableRefunds.selector,
            CoordinatorActions.enableRefunds.selector,
            MerchantActions.finishDraw.selector,
            // platform admin
            PlatformActions.proposeVrf.selector,
            PlatformActions.applyVrf.selector,
            PlatformActions.cancelVrf.selector,
            PlatformActions.pauseExchange.selector,
            PlatformActions.pauseExchange.selector,
            PlatformActions.rotateSigner.selector,
            PlatformActions.setPriceToken.selector,
            PlatformActions.setDrawsPerDay.selector,
            PlatformActions.deployRaffle.selector,
            PlatformActions.hostilePlatformCoordinator.selector,
            // time
            Handler.warp.selector,
            Handler.warp.selector,
            Handler.warp.selector,
            Handler.warpToDeadline.selector,
            Handler.warpToDeadline.selector,
            Handler.warpToDeadline.selector
        ];
        bytes4[] memory list = new bytes4[](weighted.length);
        for (uint256 i = 0; i < weighted.length; i++) list[i] = weighted[i];
        selectors = new FuzzSelector[](1);
        selectors[0] = FuzzSelector({addr: address(handler), selectors: list});
    }

    // ------------------------------------------------------------------ the invariants

    function _holds(string memory failure) internal pure {
        require(bytes(failure).length == 0, failure);
    }

    /// @notice The raffle's balance of each token is exactly what it owes (unclaimed pots, open refunds,
    /// commission) plus donations, and never less than what it owes.
    function invariant_solvency() public view {
        _holds(handler.checkSolvency());
    }

    /// @notice Each drawn round has its rules' number of winners: distinct tickets of its own round, following from the
    /// word of the coordinator it asked by the draw rule.
    function invariant_drawIntegrity() public view {
        _holds(handler.checkDraws());
    }

    /// @notice No ticket beyond maxTicket or a wallet's cap, no purchase outside an active round, while paused or at a
    /// price other than its rules give.
    function invariant_ticketSales() public view {
        _holds(handler.checkTickets());
    }

    /// @notice No voucher is used twice, and none from a wrong signer, account or time.
    function invariant_vouchers() public view {
        _holds(handler.checkVouchers());
    }

    /// @notice Every ticket is paid out at most once: claimed, released or refunded, never two; prizes add up to the
    /// pot; refunds only from rounds below their minimum or whose randomness timed out or was refused.
    function invariant_payoutsOnce() public view {
        _holds(handler.checkPayouts());
    }

    /// @notice Commission never exceeds its cap.
    function invariant_commissionCap() public view {
        _holds(handler.checkCommission());
    }

    /// @notice Roles and platform settings move only as the platform admin moved them.
    function invariant_accessControl() public view {
        _holds(handler.checkAccess());
    }

    /// @notice After each sequence: the calls it made, for the runner's summary; then every round is settled and
    /// every payout must have been made.
    function afterInvariant() public {
        string memory stats = vm.envOr("INVARIANT_STATS", string(""));
        if (bytes(stats).length != 0) vm.writeLine(stats, handler.callSummary());
        _holds(handler.settle());
    }
}
