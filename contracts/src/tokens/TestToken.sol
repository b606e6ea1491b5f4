// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Permit.sol";
import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {SignatureChecker} from "@openzeppelin/contracts/utils/cryptography/SignatureChecker.sol";

import {ERC3009} from "./ERC3009.sol";

/// @notice An 18-decimal ERC20 for prices on test and local chains, with both gasless forms a price token may offer:
/// EIP-2612 `permit` and ERC-3009 authorizations, on one EIP-712 domain (the token's name, version "1"). Holders of
/// MINTER_ROLE mint.
contract TestToken is ERC20Permit, ERC3009, AccessControl {
    bytes32 public constant MINTER_ROLE = keccak256("MINTER_ROLE");
    /// @dev EIP-2612's type hash (OpenZeppelin keeps its own copy private).
    bytes32 private constant PERMIT_TYPEHASH =
        keccak256("Permit(address owner,address spender,uint256 value,uint256 nonce,uint256 deadline)");

    constructor(string memory name_, string memory symbol_, address admin) ERC20(name_, symbol_) ERC20Permit(name_) {
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        _grantRole(MINTER_ROLE, admin);
    }

    function mint(address to, uint256 amount) external onlyRole(MINTER_ROLE) {
        _mint(to, amount);
    }

    /// @notice EIP-2612, with the signature checked as USDC checks it: ECDSA for an account without code, ERC-1271
    /// (given `r ‖ s ‖ v`) for a contract holder, so a smart wallet can permit too.
    function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)
        public
        override
    {
        if (block.timestamp > deadline) revert ERC2612ExpiredSignature(deadline);
        bytes32 digest =
            _hashTypedDataV4(keccak256(abi.encode(PERMIT_TYPEHASH, owner, spender, value, _useNonce(owner), deadline)));
        if (!SignatureChecker.isValidSignatureNow(owner, digest, abi.encodePacked(r, s, v))) {
            // The signer a wallet would see: the key that signed, or zero when none can be recovered (a contract).
            (address signer,,) = ECDSA.tryRecover(digest, v, r, s);
            revert ERC2612InvalidSigner(signer, owner);
        }
        _approve(owner, spender, value);
    }
}
