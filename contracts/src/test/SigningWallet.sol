// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IERC1271} from "@openzeppelin/contracts/interfaces/IERC1271.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";

import {SmartWallet} from "./SmartWallet.sol";

/// @notice Test-only contract account that signs (ERC-1271) with its owner's key, as a Safe with one owner or a
/// Coinbase Smart Wallet does: a hash is the wallet's signature when the owner's key signed it. Wallets often wrap the
/// key's 65 bytes in a longer format; this one takes them followed by anything, so a signature may be longer than 65
/// bytes. It holds tokens and receives tickets as SmartWallet does.
contract SigningWallet is SmartWallet, IERC1271 {
    address public immutable owner;

    constructor(address owner_) {
        owner = owner_;
    }

    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        if (signature.length < 65) return bytes4(0xffffffff);
        (address signer, ECDSA.RecoverError error,) = ECDSA.tryRecoverCalldata(hash, signature[:65]);
        return error == ECDSA.RecoverError.NoError && signer == owner
            ? IERC1271.isValidSignature.selector
            : bytes4(0xffffffff);
    }
}
