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

    function hashPurchase(address account, Params calldata params, Asset calldata item, Asset calldata price)
        internal
        pure
        returns (bytes32)
    {
        return keccak256(abi.encode(PURCHASE_TYPEHASH, account, hashParams(params), hashAsset(item), hashAsset(price)));
    }

    function hashParams(Params calldata params) internal pure returns (bytes32) {
        return keccak256(
            abi.encode(
                PARAMS_TYPEHASH,
                params.externalId,
                params.expiresAt,
                params.nonce,
                params.extra,
                params.receiver,
                params.referrer
            )
        );
    }

    function hashAsset(Asset calldata asset) internal pure returns (bytes32) {
        return keccak256(abi.encode(ASSET_TYPEHASH, uint256(asset.tokenType), asset.token, asset.tokenId, asset.amount));
    }
}
