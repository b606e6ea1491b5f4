// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {Asset, Params} from "./Assets.sol";

/// @notice EIP-712 struct hashes of the purchase voucher. The type strings are an interface fact: merchant tooling
/// signs exactly these (note `tokenType` is uint256 in typed data although the ABI uses uint8).
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
