// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {IERC721Receiver} from "@openzeppelin/contracts/token/ERC721/IERC721Receiver.sol";

/// @notice Test-only ERC20 price token that calls back into a target from `transferFrom` or `transfer`, once, to
/// prove the Exchange's and the Raffle's reentrancy guards. It can hold tickets and pay for its own purchases, so a
/// reentrant purchase it makes would succeed if nothing stopped it.
contract ReentrantToken is ERC20, IERC721Receiver {
    enum Hook {
        None,
        TransferFrom,
        Transfer
    }

    address public reentryTarget;
    bytes public payload;
    Hook public hook;
    /// @dev When set, a failed reentrant call is recorded instead of bubbling up, so the outer call can finish.
    bool public swallowFailure;
    bool public attacked;
    bool public reentrySucceeded;
    bytes public reentryRevertData;

    constructor() ERC20("Reentrant Token", "REENT") {}

    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }

    /// @notice Lets `spender` move this contract's own tokens (for a reentrant purchase paid by this contract).
    function approveFromSelf(address spender, uint256 amount) external {
        _approve(address(this), spender, amount);
    }

    function arm(address target_, bytes calldata payload_, Hook hook_, bool swallowFailure_) external {
        reentryTarget = target_;
        payload = payload_;
        hook = hook_;
        swallowFailure = swallowFailure_;
        attacked = false;
        reentrySucceeded = false;
        delete reentryRevertData;
    }

    function transfer(address to, uint256 value) public override returns (bool) {
        if (hook == Hook.Transfer) _attack();
        return super.transfer(to, value);
    }

    function transferFrom(address from, address to, uint256 value) public override returns (bool) {
        if (hook == Hook.TransferFrom) _attack();
        return super.transferFrom(from, to, value);
    }

    function onERC721Received(address, address, uint256, bytes calldata) external pure returns (bytes4) {
        return IERC721Receiver.onERC721Received.selector;
    }

    function _attack() private {
        if (attacked || reentryTarget == address(0)) return;
        attacked = true;
        (bool ok, bytes memory data) = reentryTarget.call(payload);
        reentrySucceeded = ok;
        if (!ok) {
            if (!swallowFailure) {
                assembly ("memory-safe") {
                    revert(add(data, 0x20), mload(data))
                }
            }
            reentryRevertData = data;
        }
    }
}
