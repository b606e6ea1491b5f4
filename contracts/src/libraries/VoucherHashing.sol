// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {Asset, Params} from "./Assets.sol";

/// @notice EIP-712 struct hashes of the purchase and claim vouchers. The purchase type string is an interface fact:
/// merchant tooling signs exactly it (note `tokenType` is uint256 in typed data although the ABI uses uint8).
library VoucherHashing {
    bytes32 internal constant ASSET_TYPEHASH =
        keccak256("Asset(uint256 tokenType,address token,uint256 tokenId,uint256 amount)");
    bytes32 internal constant PARAMS_TYPEHASH = keccak256(
        "Params(uint256 externalId,uint256 expiresAt,bytes32 nonce,bytes32 extra,address receiver,address referrer)"
    );
    bytes32 internal constant PURCHASE_TYPEHASH = keccak256(
        "EIP712(address account,Params params,Asset item,Asset price)"
        "Asset(uint256 tokenType,address token,uint256 tokenId,uint256 amount)"
        "Params(uint256 externalId,uint256 expiresAt,bytes32 nonce,bytes32 extra,address receiver,address referrer)"
    );

    bytes32 internal constant CLAIM_TYPEHASH = keccak256(
        "Claim(address account,Params params,Asset[] items)"
        "Asset(uint256 tokenType,address token,uint256 tokenId,uint256 amount)"
        "Params(uint256 externalId,uint256 expiresAt,bytes32 nonce,bytes32 extra,address receiver,address referrer)"
    );

    function hashClaim(address account, Params calldata params, Asset[] calldata items) internal pure returns (bytes32) {
        bytes32[] memory itemHashes = new bytes32[](items.length);
        for (uint256 i = 0; i < items.length; i++) {
            itemHashes[i] = hashAsset(items[i]);
        }
        return keccak256(abi.encode(CLAIM_TYPEHASH, account, hashParams(params), keccak256(abi.encodePacked(itemHashes))));
    }

    /// @dev The purchase path hashes in scratch memory past the free pointer (never moved): the same bytes as
    /// `abi.encode`, without four allocations. Fields are copied as the caller sent them, so a non-canonical word (an
    /// address with dirty high bits, an out-of-range enum) changes the hash and the signature fails: it fails closed.
    function hashPurchase(address account, Params calldata params, Asset calldata item, Asset calldata price)
        internal
        pure
        returns (bytes32 digest)
    {
        bytes32 paramsHash = hashParams(params);
        bytes32 itemHash = hashAsset(item);
        bytes32 priceHash = hashAsset(price);
        bytes32 typeHash = PURCHASE_TYPEHASH;
        // solhint-disable-next-line no-inline-assembly
        assembly ("memory-safe") {
            let m := mload(0x40)
            mstore(m, typeHash)
            mstore(add(m, 0x20), account)
            mstore(add(m, 0x40), paramsHash)
            mstore(add(m, 0x60), itemHash)
            mstore(add(m, 0x80), priceHash)
            digest := keccak256(m, 0xa0)
        }
    }

    /// @dev Params is six static words in calldata, hashed behind its type hash.
    function hashParams(Params calldata params) internal pure returns (bytes32 digest) {
        bytes32 typeHash = PARAMS_TYPEHASH;
        // solhint-disable-next-line no-inline-assembly
        assembly ("memory-safe") {
            let m := mload(0x40)
            mstore(m, typeHash)
            calldatacopy(add(m, 0x20), params, 0xc0)
            digest := keccak256(m, 0xe0)
        }
    }

    /// @dev Asset is four static words in calldata (the enum ABI-encoded as a full word, as uint256 in the type).
    function hashAsset(Asset calldata asset) internal pure returns (bytes32 digest) {
        bytes32 typeHash = ASSET_TYPEHASH;
        // solhint-disable-next-line no-inline-assembly
        assembly ("memory-safe") {
            let m := mload(0x40)
            mstore(m, typeHash)
            calldatacopy(add(m, 0x20), asset, 0x80)
            digest := keccak256(m, 0xa0)
        }
    }
}
