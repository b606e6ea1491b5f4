// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// @notice ERC-3009 (transfer with authorization): a holder signs one EIP-712 message on the token's domain and
/// someone else submits the transfer. Nonces are random 32-byte values, each usable once per authorizer. Besides the
/// EIP's `v, r, s` functions, the `bytes signature` forms (as USDC's FiatToken v2.2 has them) also take ERC-1271
/// signatures of contract holders.
interface IERC3009 {
    /// @notice `authorizer`'s authorization `nonce` moved tokens.
    event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce);
    /// @notice `authorizer` burnt `nonce` unused, so no authorization carrying it can move tokens any more.
    event AuthorizationCanceled(address indexed authorizer, bytes32 indexed nonce);

    function transferWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external;

    function transferWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        bytes calldata signature
    ) external;

    /// @notice As `transferWithAuthorization`, callable only by the payee (`to == msg.sender`): a contract that acts
    /// on the payment in the same call cannot have the transfer front-run without its action.
    function receiveWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external;

    function receiveWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        bytes calldata signature
    ) external;

    function cancelAuthorization(address authorizer, bytes32 nonce, uint8 v, bytes32 r, bytes32 s) external;

    function cancelAuthorization(address authorizer, bytes32 nonce, bytes calldata signature) external;

    /// @notice Whether `nonce` of `authorizer` was used or canceled.
    function authorizationState(address authorizer, bytes32 nonce) external view returns (bool);
}
