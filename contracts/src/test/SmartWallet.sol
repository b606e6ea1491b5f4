// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";
import {IERC721Receiver} from "@openzeppelin/contracts/token/ERC721/IERC721Receiver.sol";

/// @notice Test-only contract account of a player (a Safe, a Coinbase Smart Wallet, an ERC-4337 or EIP-7702 account
/// as the raffle sees them): it signs nothing itself, calls what its owner asks (`execute`), and does what it was told
/// when a ticket arrives: accept it, move it (to itself or elsewhere), call any contract (the Exchange, the raffle,
/// the invariant handler) with or without swallowing a failure, or refuse it. A told action runs on the first ticket
/// of a purchase only, as an attacker needs no more.
contract SmartWallet is IERC721Receiver {
    enum OnReceive {
        Accept,
        MoveToSelf,
        MoveTo,
        Call,
        Refuse
    }

    error WalletRefusesTicket(uint256 ticketId);

    OnReceive public onReceive;
    address public callee;
    bytes public callData;
    bool public swallowFailure;

    /// @notice Tickets received, callbacks whose call succeeded, and the revert data of the last one that failed.
    uint256 public ticketsReceived;
    uint256 public callsSucceeded;
    bytes public lastFailure;

    receive() external payable virtual {}

    function execute(address to, uint256 value, bytes calldata data) external payable returns (bytes memory result) {
        bool ok;
        (ok, result) = to.call{value: value}(data);
        if (!ok) _bubble(result);
    }

    /// @notice What to do with the next ticket that arrives. `to` is the receiver of `MoveTo` or the callee of `Call`.
    function setOnReceive(OnReceive mode, address to, bytes calldata data, bool swallow) external {
        onReceive = mode;
        callee = to;
        callData = data;
        swallowFailure = swallow;
    }

    function onERC721Received(address, address, uint256 ticketId, bytes calldata) external returns (bytes4) {
        ticketsReceived += 1;
        OnReceive mode = onReceive;
        if (mode == OnReceive.Refuse) revert WalletRefusesTicket(ticketId);
        onReceive = OnReceive.Accept;
        if (mode == OnReceive.MoveToSelf) {
            IERC721(msg.sender).transferFrom(address(this), address(this), ticketId);
        } else if (mode == OnReceive.MoveTo) {
            IERC721(msg.sender).transferFrom(address(this), callee, ticketId);
        } else if (mode == OnReceive.Call) {
            (bool ok, bytes memory result) = callee.call(callData);
            if (ok) {
                callsSucceeded += 1;
            } else {
                lastFailure = result;
                if (!swallowFailure) _bubble(result);
            }
        }
        return IERC721Receiver.onERC721Received.selector;
    }

    function _bubble(bytes memory reason) private pure {
        assembly ("memory-safe") {
            revert(add(reason, 0x20), mload(reason))
        }
    }
}
