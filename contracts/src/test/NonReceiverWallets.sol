// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// @notice Test-only contract account that cannot take an ERC721 by a safe transfer: it has no `onERC721Received` at
/// all (as a plain multisig or an old contract wallet), so calling it reverts without data.
contract WalletWithoutReceiver {
    function execute(address to, bytes calldata data) external returns (bytes memory result) {
        bool ok;
        (ok, result) = to.call(data);
        if (!ok) {
            assembly ("memory-safe") {
                revert(add(result, 0x20), mload(result))
            }
        }
    }
}

/// @notice Test-only contract account whose `onERC721Received` answers, but not with its selector.
contract WalletWithWrongAnswer is WalletWithoutReceiver {
    function onERC721Received(address, address, uint256, bytes calldata) external pure returns (bytes4) {
        return 0xdeadbeef;
    }
}
