// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// @notice Kinds of token an Asset can name. The order is an interface fact shared with merchant tooling:
/// NATIVE=0, ERC20=1, ERC721=2, ERC998=3, ERC1155=4.
enum TokenType {
    NATIVE,
    ERC20,
    ERC721,
    ERC998,
    ERC1155
}

/// @notice A quantity of one token: the ticket a purchase mints, or the price it pays.
struct Asset {
    TokenType tokenType;
    address token;
    uint256 tokenId;
    uint256 amount;
}

/// @notice The signed part of a purchase besides the buyer and the two assets.
struct Params {
    uint256 externalId;
    uint256 expiresAt;
    bytes32 nonce;
    bytes32 extra;
    address receiver;
    address referrer;
}
