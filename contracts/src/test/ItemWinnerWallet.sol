// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IERC721Receiver} from "@openzeppelin/contracts/token/ERC721/IERC721Receiver.sol";
import {IERC1155Receiver} from "@openzeppelin/contracts/token/ERC1155/IERC1155Receiver.sol";

/// @notice Test-only contract wallet holding winning tickets, which does what it was told when an item arrives
/// (tickets always are accepted): accept it, refuse it, or call `callee` with `callData` (re-enter the raffle)
/// and, on failure, refuse the item with the call's revert data or swallow it and accept.
contract ItemWinnerWallet is IERC721Receiver, IERC1155Receiver {
    enum OnItem {
        Accept,
        Refuse,
        Reenter,
        ReenterAndSwallow
    }

    error WalletRefusesItem(address token, uint256 tokenId);

    OnItem public onItem;
    address public ticketContract;
    address public callee;
    bytes public callData;
    uint256 public itemsReceived;
    bool public reentrySucceeded;
    bytes public lastFailure;

    constructor(address ticketContract_) {
        ticketContract = ticketContract_;
    }

    function execute(address to, bytes calldata data) external returns (bytes memory result) {
        bool ok;
        (ok, result) = to.call(data);
        if (!ok) {
            assembly ("memory-safe") {
                revert(add(result, 0x20), mload(result))
            }
        }
    }

    function setOnItem(OnItem mode, address to, bytes calldata data) external {
        onItem = mode;
        callee = to;
        callData = data;
    }

    function onERC721Received(address, address, uint256 tokenId, bytes calldata) external returns (bytes4) {
        if (msg.sender != ticketContract) _onItem(tokenId);
        return IERC721Receiver.onERC721Received.selector;
    }

    function onERC1155Received(address, address, uint256 id, uint256, bytes calldata) external returns (bytes4) {
        _onItem(id);
        return IERC1155Receiver.onERC1155Received.selector;
    }

    function onERC1155BatchReceived(address, address, uint256[] calldata, uint256[] calldata, bytes calldata)
        external
        pure
        returns (bytes4)
    {
        return IERC1155Receiver.onERC1155BatchReceived.selector;
    }

    function supportsInterface(bytes4 interfaceId) external pure returns (bool) {
        return interfaceId == type(IERC1155Receiver).interfaceId || interfaceId == 0x01ffc9a7;
    }

    function _onItem(uint256 tokenId) private {
        OnItem mode = onItem;
        if (mode == OnItem.Refuse) revert WalletRefusesItem(msg.sender, tokenId);
        if (mode == OnItem.Accept) return;
        (bool ok, bytes memory result) = callee.call(callData);
        reentrySucceeded = ok;
        if (ok) return;
        lastFailure = result;
        if (mode == OnItem.Reenter) {
            assembly ("memory-safe") {
                revert(add(result, 0x20), mload(result))
            }
        }
    }
}
