// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {FuzzSelector, vm} from "./utils/Vm.sol";
import {IExchangeX, IRaffleFactoryX, ITokenX, IVRFMock} from "./utils/Interfaces.sol";
import {IItemRaffle, IReentrantItem, ItemHandler, ItemPlatform} from "./ItemHandler.sol";
import {IItemPrizes} from "../src/interfaces/IItemPrizes.sol";
import {IRaffleTicket} from "../src/interfaces/IRaffleTicket.sol";
import {VrfConfig} from "../src/interfaces/IRaffle.sol";
import {RaffleConfig} from "../src/interfaces/IRaffleFactory.sol";

interface IApprovable {
    function setApprovalForAll(address operator, bool approved) external;
    function approve(address spender, uint256 amount) external returns (bool);
}

/// @notice Stateful invariant fuzzing of item prizes (see ItemHandler): escrow of all three kinds and of hostile item
/// contracts, claims by plain and contract-wallet winners, returns by anyone.
/// @dev Deployed from Hardhat's artifacts, like RaffleInvariants.
contract ItemInvariants {
    ItemHandler internal handler;

    string internal constant ARTIFACTS = "artifacts/src/";
    string internal constant VRF_MOCK =
        "artifacts/@chainlink/contracts/src/v0.8/vrf/mocks/VRFCoordinatorV2_5Mock.sol/VRFCoordinatorV2_5Mock.json";

    function _deploy(string memory path, bytes memory args) internal returns (address) {
        return vm.deployCode(string.concat(ARTIFACTS, path), args);
    }

    function setUp() public {
        vm.warp(1_750_000_000);
        ItemPlatform memory p;
        address admin = vm.addr(0xAD);
        p.merchant = vm.addr(0x3E1);
        p.stranger = vm.addr(0xBAD);
        p.vrf = IVRFMock(vm.deployCode(VRF_MOCK, abi.encode(uint96(0.1 ether), uint96(1 gwei), int256(0.004 ether))));
        IExchangeX exchange = IExchangeX(_deploy("Exchange.sol/Exchange.json", abi.encode(admin)));
        p.exchange = address(exchange);
        IRaffleFactoryX factory = IRaffleFactoryX(
            _deploy(
                "RaffleFactory.sol/RaffleFactory.json",
                abi.encode(
                    admin,
                    p.exchange,
                    _deploy("RaffleTicketDeployer.sol/RaffleTicketDeployer.json", ""),
                    _deploy("RaffleDeployer.sol/RaffleDeployer.json", "")
                )
            )
        );
        p.factory = address(factory);
        p.priceToken = _deploy("tokens/TestToken.sol/TestToken.json", abi.encode("Test Gold", "GOLD", admin));

        vm.startPrank(admin);
        exchange.grantRole(keccak256("FACTORY_ROLE"), p.factory);
        factory.proposeVrfConfig(
            VrfConfig({
                coordinator: address(p.vrf),
                keyHash: keccak256("key"),
                subscriptionId: 0,
                callbackGasLimit: 500_000,
                requestConfirmations: 3,
                randomnessTimeout: 1 days
            })
        );
        uint256 subscription = factory.createVrfSubscription();
        factory.grantRole(factory.MERCHANT_ROLE(), p.merchant);
        factory.setPriceToken(p.priceToken, true);
        ITokenX(p.priceToken).mint(p.exchange, 1e30);
        vm.stopPrank();
        p.vrf.fundSubscription(subscription, 1e27);

        vm.prank(p.merchant);
        (address raffle, address ticket) = factory.deployRaffle(
            RaffleConfig({commission: 1_000, timeLagBeforeRelease: 1 days, ticketName: "Items", ticketSymbol: "ITM"})
        );
        p.raffle = IItemRaffle(raffle);
        p.ticket = IRaffleTicket(ticket);
        p.players[0] = vm.addr(0x9100);
        p.players[1] = vm.addr(0x9101);
        p.players[2] = _deploy("test/ItemWinnerWallet.sol/ItemWinnerWallet.json", abi.encode(ticket));

        p.items[0] = _deploy("tokens/TestCollectible.sol/TestCollectible.json", abi.encode("Sword", "SWORD", p.merchant));
        p.items[1] = _deploy("test/ItemTokens.sol/TestItems1155.json", "");
        p.items[2] = _deploy("tokens/TestToken.sol/TestToken.json", abi.encode("Gems", "GEM", p.merchant));
        p.items[3] = _deploy("test/ItemTokens.sol/PausableItem721.json", "");
        p.items[4] = _deploy("test/ItemTokens.sol/FeeCharging1155.json", "");
        p.items[5] = _deploy("test/ItemTokens.sol/PausableItem20.json", "");
        p.items[6] = _deploy("test/ItemTokens.sol/ReentrantItem721.json", "");
        // The re-entrant item tries to send a round's items home from inside every transfer of it.
        IReentrantItem(p.items[6]).setReentry(raffle, abi.encodeCall(IItemPrizes.returnItems, (1)));

        // The merchant approves the raffle once, for every item token.
        vm.startPrank(p.merchant);
        for (uint256 i; i < 7; ++i) {
            if (i == 2 || i == 5) IApprovable(p.items[i]).approve(raffle, type(uint256).max);
            else IApprovable(p.items[i]).setApprovalForAll(raffle, true);
        }
        vm.stopPrank();

        handler = new ItemHandler(p);
        vm.label(address(handler), "ItemHandler");
        vm.label(raffle, "Raffle");
    }

    function targetContracts() public view returns (address[] memory targets) {
        targets = new address[](1);
        targets[0] = address(handler);
    }

    function targetSelectors() public view returns (FuzzSelector[] memory selectors) {
        bytes4[18] memory weighted = [
            ItemHandler.setItems.selector,
            ItemHandler.setItems.selector,
            ItemHandler.startRound.selector,
            ItemHandler.startRound.selector,
            ItemHandler.buy.selector,
            ItemHandler.buy.selector,
            ItemHandler.buy.selector,
            ItemHandler.buy.selector,
            ItemHandler.endRound.selector,
            ItemHandler.fulfill.selector,
            ItemHandler.claim.selector,
            ItemHandler.claim.selector,
            ItemHandler.returnItems.selector,
            ItemHandler.enableRefunds.selector,
            ItemHandler.releasePrize.selector,
            ItemHandler.hostile.selector,
            ItemHandler.transferTicket.selector,
            ItemHandler.warp.selector
        ];
        bytes4[] memory list = new bytes4[](weighted.length);
        for (uint256 i; i < weighted.length; ++i) list[i] = weighted[i];
        selectors = new FuzzSelector[](1);
        selectors[0] = FuzzSelector({addr: address(handler), selectors: list});
    }

    /// @notice At every step the raffle holds exactly the items its rounds hold in escrow (owed to unclaimed
    /// positions or not yet returned), and every item that left escrow went to its ticket's holder or the merchant.
    function invariant_itemEscrow() public view {
        string memory failure = handler.checkEscrow();
        require(bytes(failure).length == 0, failure);
    }

    /// @notice After each sequence every round ends and every item must be with a winner or back with the merchant
    /// (items escrowed = claimed + returned); then the calls it made, settlement included, for the runner's summary.
    function afterInvariant() public {
        string memory failure = handler.settle();
        require(bytes(failure).length == 0, failure);
        string memory stats = vm.envOr("INVARIANT_STATS", string(""));
        if (bytes(stats).length != 0) vm.writeLine(stats, handler.callSummary());
    }
}
