// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";
import {IERC1155} from "@openzeppelin/contracts/token/ERC1155/IERC1155.sol";

import {Asset, TokenType} from "./Assets.sol";

/// @notice How the raffle checks, measures and moves an item prize (ERC721, ERC1155 or ERC20).
/// @dev The raffle never trusts a token's return value for how much moved: it measures what it holds before and after.
library ItemTransfer {
    using SafeERC20 for IERC20;

    /// @notice Whether `asset` can be an item prize: one ERC721 token, an ERC1155 id with a non-zero amount, or a
    /// non-zero ERC20 amount, of a token that is neither zero nor `excluded` (the raffle's own tickets).
    function isValid(Asset calldata asset, address excluded) internal pure returns (bool) {
        if (asset.token == address(0) || asset.token == excluded || asset.amount == 0) return false;
        TokenType kind = asset.tokenType;
        if (kind == TokenType.ERC721) return asset.amount == 1;
        if (kind == TokenType.ERC20) return asset.tokenId == 0;
        return kind == TokenType.ERC1155;
    }

    /// @notice How much of `asset` this contract holds: 1 or 0 of an ERC721 token, else its balance.
    function held(Asset calldata asset) internal view returns (uint256) {
        TokenType kind = asset.tokenType;
        if (kind == TokenType.ERC721) return IERC721(asset.token).ownerOf(asset.tokenId) == address(this) ? 1 : 0;
        if (kind == TokenType.ERC1155) return IERC1155(asset.token).balanceOf(address(this), asset.tokenId);
        return IERC20(asset.token).balanceOf(address(this));
    }

    /// @notice Moves `asset` from `from` to this contract, or from this contract to `to`. An ERC721 is pulled with
    /// `transferFrom` (it was the merchant's) and sent with `safeTransferFrom`, so a winner that is a contract must
    /// accept it.
    function move(Asset calldata asset, address from, address to) internal {
        TokenType kind = asset.tokenType;
        bool outgoing = from == address(this);
        if (kind == TokenType.ERC721) {
            if (outgoing) IERC721(asset.token).safeTransferFrom(from, to, asset.tokenId);
            else IERC721(asset.token).transferFrom(from, to, asset.tokenId);
        } else if (kind == TokenType.ERC1155) {
            IERC1155(asset.token).safeTransferFrom(from, to, asset.tokenId, asset.amount, "");
        } else if (outgoing) {
            IERC20(asset.token).safeTransfer(to, asset.amount);
        } else {
            IERC20(asset.token).safeTransferFrom(from, to, asset.amount);
        }
    }
}
