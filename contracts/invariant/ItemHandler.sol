// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";
import {IERC1155} from "@openzeppelin/contracts/token/ERC1155/IERC1155.sol";

import {vm} from "./utils/Vm.sol";
import {IVRFMock} from "./utils/Interfaces.sol";
import {Asset, TokenType} from "../src/libraries/Assets.sol";
import {IRaffle, RoundStatus, RoundView, TicketRef, Winner} from "../src/interfaces/IRaffle.sol";
import {IItemPrizes, ItemPrize, ItemStatus, RoundItem} from "../src/interfaces/IItemPrizes.sol";
import {IRaffleTicket} from "../src/interfaces/IRaffleTicket.sol";

interface IItemRaffle is IRaffle, IItemPrizes {}

interface IMintable721 {
    function mint(address to) external returns (uint256 tokenId);
}

interface IMintable1155 {
    function mint(address to, uint256 id, uint256 amount) external;
}

interface IPausable {
    function setPaused(bool paused) external;
}

interface IReentrantItem {
    function setReentry(address target, bytes calldata data) external;
    function reentriesSucceeded() external view returns (uint256);
}

interface IWinnerWallet {
    function execute(address to, bytes calldata data) external returns (bytes memory);
    function setOnItem(uint8 mode, address to, bytes calldata data) external;
}

/// @notice Everything ItemInvariants' setUp deployed.
struct ItemPlatform {
    IItemRaffle raffle;
    IRaffleTicket ticket;
    address exchange;
    address factory;
    IVRFMock vrf;
    address merchant;
    address priceToken;
    /// @dev Players 0 and 1 are plain accounts; player 2 is a contract wallet (ItemWinnerWallet) that may refuse
    /// items or re-enter the raffle when one arrives.
    address[3] players;
    address stranger;
    /// @dev [sword ERC721, potions ERC1155, gems ERC20, pausable ERC721, fee-charging ERC1155, pausable ERC20,
    /// re-entrant ERC721].
    address[7] items;
}

/// @notice The item prizes model: a merchant escrows items of all three kinds, hostile ones too, round after round;
/// players buy, win, claim (through a wallet that may refuse or re-enter), and anyone returns items. After every step
/// the raffle holds exactly the items its rounds still hold in escrow, and every item that left escrow went to the
/// ticket's holder (a claim) or to the merchant (a return).
contract ItemHandler {
    uint256 internal constant SWORD = 0;
    uint256 internal constant POTIONS = 1;
    uint256 internal constant GEMS = 2;
    uint256 internal constant PAUSABLE_721 = 3;
    uint256 internal constant FEE_1155 = 4;
    uint256 internal constant PAUSABLE_20 = 5;
    uint256 internal constant REENTRANT_721 = 6;
    uint256 internal constant KINDS = 7;
    uint256 internal constant PRICE = 1e18;

    ItemPlatform internal p;
    uint256 internal lastRound;
    string public violation;

    string[] internal counterNames;
    mapping(bytes32 name => uint256) internal counters;
    bytes32 internal fingerprint;

    constructor(ItemPlatform memory platform) {
        p = platform;
    }

    modifier step() {
        fingerprint = keccak256(abi.encodePacked(fingerprint, msg.data));
        _;
        _checkTransitions();
    }

    // ------------------------------------------------------------------ actions

    /// @notice The merchant sets one to three item prizes on positions 1 to 3 (any of the seven tokens).
    function setItems(uint256 seed) external step {
        seed = _h(seed);
        uint256 count = 1 + seed % 3;
        ItemPrize[] memory items = new ItemPrize[](count);
        uint256 position;
        for (uint256 i; i < count; ++i) {
            position += 1 + (seed >> (8 * i + 2)) % 2;
            items[i] = ItemPrize({position: position, asset: _newItem(uint256(keccak256(abi.encode(seed, i))))});
        }
        vm.prank(p.merchant);
        p.raffle.setItemPrizes(items);
        _count("items.set");
    }

    /// @notice The merchant (round manager) starts a round with the spec's arguments; its items are escrowed or the
    /// round is refused.
    function startRound(uint256) external step {
        Asset memory price = Asset({tokenType: TokenType.ERC20, token: p.priceToken, tokenId: 0, amount: PRICE});
        Asset memory ticket = p.raffle.ticketAsset();
        vm.prank(p.merchant);
        try p.raffle.startRound(ticket, price, 0) {
            lastRound += 1;
            (, RoundItem[] memory items) = p.raffle.getRoundItems(lastRound);
            _countBy("items.escrowed", items.length);
            _count("round.started");
        } catch (bytes memory reason) {
            if (bytes4(reason) == IItemPrizes.ItemNotEscrowed.selector) _count("round.refusedItems");
            else if (bytes4(reason) != IRaffle.RoundStillActive.selector) _fail(string.concat("startRound: ", vm.toString(reason)));
        }
    }

    /// @notice A player buys one ticket (the Exchange's part done by hand: the price paid in, then `printTicket`).
    function buy(uint256 seed) external step {
        if (lastRound == 0 || p.raffle.getRound(lastRound).status != RoundStatus.Active) return;
        address player = p.players[_h(seed) % 3];
        vm.prank(p.exchange);
        IERC20(p.priceToken).transfer(address(p.raffle), PRICE);
        Asset memory price = Asset({tokenType: TokenType.ERC20, token: p.priceToken, tokenId: 0, amount: PRICE});
        Asset memory ticket = p.raffle.ticketAsset();
        vm.prank(p.exchange);
        p.raffle.printTicket(player, ticket, price, 0);
        _count("buy.ok");
    }

    function endRound(uint256) external step {
        if (lastRound == 0 || p.raffle.getRound(lastRound).status != RoundStatus.Active) return;
        vm.prank(p.merchant);
        p.raffle.endRound();
        _count("round.ended");
    }

    function fulfill(uint256 seed) external step {
        if (lastRound == 0) return;
        uint256 roundId = 1 + _h(seed) % lastRound;
        RoundView memory round = p.raffle.getRound(roundId);
        if (round.status != RoundStatus.Drawing) return;
        uint256[] memory words = new uint256[](1);
        words[0] = _h(seed);
        // A request answered before (ignored by the raffle once its randomness timed out) is gone from the mock.
        try p.vrf.fulfillRandomWordsWithOverride(round.vrfRequestId, p.factory, words) {
            _count(p.raffle.getRound(roundId).status == RoundStatus.Drawn ? "round.drawn" : "round.answerIgnored");
        } catch {
            _count("round.answerGone");
        }
    }

    /// @notice The holder of a winning ticket of any drawn round claims it.
    function claim(uint256 seed) external step {
        seed = _h(seed);
        if (lastRound == 0) return;
        uint256 roundId = 1 + seed % lastRound;
        Winner[] memory winners = p.raffle.getWinners(roundId);
        if (winners.length == 0) return;
        uint256 ticketId = winners[(seed >> 64) % winners.length].ticketId;
        address holder = p.ticket.ownerOf(ticketId);
        TicketRef[] memory refs = new TicketRef[](1);
        refs[0] = TicketRef({roundId: roundId, ticketId: ticketId});
        bytes memory call = abi.encodeCall(IRaffle.claimPrizes, (refs));
        _expectedRecipient = holder;
        bool ok;
        if (holder == p.players[2]) {
            vm.prank(p.players[0]);
            (ok,) = holder.call(abi.encodeCall(IWinnerWallet.execute, (address(p.raffle), call)));
        } else {
            vm.prank(holder);
            (ok,) = address(p.raffle).call(call);
        }
        _count(ok ? "claim.ok" : "claim.rejected");
    }

    /// @notice Anyone asks for a round's items to go back to the merchant.
    function returnItems(uint256 seed) external step {
        if (lastRound == 0) return;
        uint256 roundId = 1 + _h(seed) % lastRound;
        _expectedRecipient = p.merchant;
        vm.prank(p.stranger);
        try p.raffle.returnItems(roundId) {
            _count("return.ok");
        } catch {
            _count("return.rejected");
        }
    }

    function enableRefunds(uint256 seed) external step {
        if (lastRound == 0) return;
        uint256 roundId = 1 + _h(seed) % lastRound;
        RoundView memory round = p.raffle.getRound(roundId);
        if (round.status != RoundStatus.Drawing) return;
        if (round.refundableAt > block.timestamp) vm.warp(round.refundableAt);
        p.raffle.enableRefunds(roundId);
        _count("round.timedOut");
    }

    function releasePrize(uint256 seed) external step {
        if (lastRound == 0) return;
        uint256 roundId = 1 + _h(seed) % lastRound;
        vm.prank(p.merchant);
        try p.raffle.releasePrize(roundId) {
            _count("release.ok");
        } catch {}
    }

    /// @notice The issuers pause or resume their hostile tokens; the wallet changes what it does when an item comes.
    function hostile(uint256 seed) external step {
        seed = _h(seed);
        bool paused = seed % 2 == 0;
        IPausable(p.items[PAUSABLE_721]).setPaused(paused);
        IPausable(p.items[PAUSABLE_20]).setPaused((seed >> 1) % 2 == 0);
        uint8 mode = uint8((seed >> 2) % 4);
        bytes memory reentry = mode >= 2
            ? abi.encodeCall(IItemPrizes.returnItems, (lastRound == 0 ? 1 : lastRound))
            : bytes("");
        IWinnerWallet(p.players[2]).setOnItem(mode, address(p.raffle), reentry);
        _count("hostile.changed");
    }

    function transferTicket(uint256 seed) external step {
        seed = _h(seed);
        uint256 next = p.ticket.nextTicketId();
        if (next <= 1) return;
        uint256 ticketId = 1 + seed % (next - 1);
        try p.ticket.ownerOf(ticketId) returns (address owner) {
            address to = p.players[(seed >> 8) % 3];
            vm.prank(owner);
            IERC721(address(p.ticket)).transferFrom(owner, to, ticketId);
            _count("ticket.transferred");
        } catch {}
    }

    function warp(uint256 seed) external step {
        vm.warp(block.timestamp + 1 hours + _h(seed) % 3 days);
    }

    // ------------------------------------------------------------------ the model

    /// @dev Who an item leaving escrow in the current step must go to: the claimed ticket's holder, or the merchant.
    address internal _expectedRecipient;
    /// @dev Each round's items as last seen, and the recipient balances before the step.
    mapping(uint256 roundId => mapping(uint256 position => ItemStatus)) internal _seen;

    /// @dev Every status change since the last step must be Escrowed -> Claimed or Escrowed -> Returned (never back),
    /// in the step's claim or return; the item must then be with the recipient; and the raffle must hold exactly the
    /// items still escrowed.
    function _checkTransitions() internal {
        for (uint256 roundId = 1; roundId <= lastRound; ++roundId) {
            (address merchant, RoundItem[] memory items) = p.raffle.getRoundItems(roundId);
            if (merchant != p.merchant && items.length != 0) _fail("round items pulled from someone else");
            for (uint256 i; i < items.length; ++i) {
                ItemStatus before = _seen[roundId][items[i].position];
                ItemStatus now_ = items[i].status;
                if (before == now_) continue;
                if (before == ItemStatus.None && now_ == ItemStatus.Escrowed) {
                    // Just escrowed by startRound.
                } else if (before == ItemStatus.Escrowed && now_ == ItemStatus.Claimed) {
                    _count("items.claimed");
                    if (_expectedRecipient == p.merchant) _fail("an item was claimed by a return");
                    _requireWith(items[i].asset, _expectedRecipient, "claimed item not with the ticket's holder");
                } else if (before == ItemStatus.Escrowed && now_ == ItemStatus.Returned) {
                    _count("items.returned");
                    _requireWith(items[i].asset, p.merchant, "returned item not with the merchant");
                } else {
                    _fail("item status moved backwards or skipped escrow");
                }
                _seen[roundId][items[i].position] = now_;
            }
        }
        _expectedRecipient = address(0);
        string memory failure = checkEscrow();
        if (bytes(failure).length != 0) _fail(failure);
    }

    /// @notice The raffle holds exactly the items its rounds hold in escrow, token by token (ERC721: each escrowed
    /// token is the raffle's and no other; ERC1155 and ERC20: the balance is the sum of the escrowed amounts).
    function checkEscrow() public view returns (string memory) {
        uint256[KINDS] memory owed;
        uint256 escrowed721;
        for (uint256 roundId = 1; roundId <= lastRound; ++roundId) {
            (, RoundItem[] memory items) = p.raffle.getRoundItems(roundId);
            for (uint256 i; i < items.length; ++i) {
                if (items[i].status != ItemStatus.Escrowed) continue;
                Asset memory asset = items[i].asset;
                uint256 kind = _kindOf(asset.token);
                if (asset.tokenType == TokenType.ERC721) {
                    if (IERC721(asset.token).ownerOf(asset.tokenId) != address(p.raffle)) return "escrowed ERC721 not held";
                    escrowed721 += 1;
                } else {
                    owed[kind] += asset.amount;
                }
            }
        }
        uint256 held721 = IERC721(p.items[SWORD]).balanceOf(address(p.raffle))
            + IERC721(p.items[PAUSABLE_721]).balanceOf(address(p.raffle))
            + IERC721(p.items[REENTRANT_721]).balanceOf(address(p.raffle));
        if (held721 != escrowed721) return "raffle holds ERC721 items no round holds in escrow";
        // Potions use ids 0 to 3; the fee-charging ERC1155 id 1 (see _newItem), and is never escrowed.
        uint256 held1155;
        for (uint256 id; id < 4; ++id) held1155 += IERC1155(p.items[POTIONS]).balanceOf(address(p.raffle), id);
        if (held1155 != owed[POTIONS]) return "ERC1155 escrow differs from what rounds hold";
        if (IERC1155(p.items[FEE_1155]).balanceOf(address(p.raffle), 1) != 0) return "a fee-charging ERC1155 was escrowed";
        if (IERC20(p.items[GEMS]).balanceOf(address(p.raffle)) != owed[GEMS]) return "gems escrow differs";
        if (IERC20(p.items[PAUSABLE_20]).balanceOf(address(p.raffle)) != owed[PAUSABLE_20]) return "paused-token escrow differs";
        if (IReentrantItem(p.items[REENTRANT_721]).reentriesSucceeded() != 0) return "a re-entering item got through";
        return violation;
    }

    /// @notice After a sequence: every round ends and every item goes to a winner or back to the merchant.
    function settle() external returns (string memory) {
        IPausable(p.items[PAUSABLE_721]).setPaused(false);
        IPausable(p.items[PAUSABLE_20]).setPaused(false);
        IWinnerWallet(p.players[2]).setOnItem(0, address(0), "");
        if (lastRound != 0) {
            RoundView memory current = p.raffle.getRound(lastRound);
            if (current.status == RoundStatus.Active) {
                vm.prank(p.merchant);
                p.raffle.endRound();
            }
        }
        // A round may still wait for its word while later ones run: every such round is settled first.
        vm.warp(block.timestamp + 8 days);
        for (uint256 roundId = 1; roundId <= lastRound; ++roundId) {
            RoundStatus status = p.raffle.getRound(roundId).status;
            if (status == RoundStatus.Drawing) p.raffle.enableRefunds(roundId);
            else if (status == RoundStatus.WinnersPending) p.raffle.finishDraw(roundId);
        }
        vm.warp(block.timestamp + 4 days);
        for (uint256 roundId = 1; roundId <= lastRound; ++roundId) {
            (, RoundItem[] memory items) = p.raffle.getRoundItems(roundId);
            bool pending;
            for (uint256 i; i < items.length; ++i) pending = pending || items[i].status == ItemStatus.Escrowed;
            if (!pending) continue;
            _expectedRecipient = p.merchant;
            vm.prank(p.stranger);
            p.raffle.returnItems(roundId);
            _checkTransitions();
        }
        for (uint256 roundId = 1; roundId <= lastRound; ++roundId) {
            (, RoundItem[] memory items) = p.raffle.getRoundItems(roundId);
            for (uint256 i; i < items.length; ++i) {
                if (items[i].status == ItemStatus.Escrowed) return "an item is still in escrow after settlement";
            }
        }
        if (counters[keccak256("items.escrowed")] != counters[keccak256("items.claimed")] + counters[keccak256("items.returned")]) {
            return "items escrowed differ from items claimed plus returned";
        }
        return checkEscrow();
    }

    function callSummary() external view returns (string memory line) {
        line = string.concat("fp=", vm.toString(fingerprint));
        for (uint256 i; i < counterNames.length; ++i) {
            line = string.concat(line, ";", counterNames[i], "=", vm.toString(counters[keccak256(bytes(counterNames[i]))]));
        }
    }

    // ------------------------------------------------------------------ helpers

    /// @dev A new item of kind `seed % KINDS`, minted to the merchant (who approved the raffle once, in setUp) by the
    /// merchant (the sword's and the gems' minter; the other tokens mint to anyone); an ERC721 is now and then one
    /// the merchant may no longer hold, so the round may be refused.
    function _newItem(uint256 seed) internal returns (Asset memory asset) {
        uint256 kind = seed % KINDS;
        address token = p.items[kind];
        if (kind == SWORD || kind == PAUSABLE_721 || kind == REENTRANT_721) {
            vm.prank(p.merchant);
            uint256 tokenId = IMintable721(token).mint(p.merchant);
            if ((seed >> 8) % 8 == 0 && tokenId > 1) tokenId -= 1;
            return Asset({tokenType: TokenType.ERC721, token: token, tokenId: tokenId, amount: 1});
        }
        uint256 amount = 1 + (seed >> 16) % 100;
        if (kind == POTIONS || kind == FEE_1155) {
            uint256 id = (seed >> 32) % 4;
            if (kind == FEE_1155) id = 1;
            IMintable1155(token).mint(p.merchant, id, amount);
            return Asset({tokenType: TokenType.ERC1155, token: token, tokenId: id, amount: amount});
        }
        vm.prank(p.merchant);
        (bool ok,) = token.call(abi.encodeWithSignature("mint(address,uint256)", p.merchant, amount * 1e18));
        if (!ok) _fail("mint");
        return Asset({tokenType: TokenType.ERC20, token: token, tokenId: 0, amount: amount * 1e18});
    }

    function _kindOf(address token) internal view returns (uint256 kind) {
        for (; kind < KINDS; ++kind) {
            if (p.items[kind] == token) return kind;
        }
    }

    function _requireWith(Asset memory asset, address account, string memory why) internal {
        if (asset.tokenType == TokenType.ERC721 && IERC721(asset.token).ownerOf(asset.tokenId) != account) _fail(why);
    }

    function _fail(string memory why) internal {
        if (bytes(violation).length == 0) violation = why;
    }

    function _h(uint256 seed) internal pure returns (uint256) {
        return uint256(keccak256(abi.encode(seed)));
    }

    function _count(string memory name) internal {
        _countBy(name, 1);
    }

    function _countBy(string memory name, uint256 amount) internal {
        if (amount == 0) return;
        bytes32 key = keccak256(bytes(name));
        if (counters[key] == 0) counterNames.push(name);
        counters[key] += amount;
    }
}
