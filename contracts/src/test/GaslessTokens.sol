// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @notice Test-only: a plain ERC20 with neither ERC-3009 nor EIP-2612, as most listed tokens are.
contract PlainToken is ERC20 {
    constructor() ERC20("Plain Token", "PLAIN") {}

    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }
}

// solhint-disable no-empty-blocks
/// @notice Test-only: answers `receiveWithAuthorization` (both forms) and `permit` with success and moves nothing, as
/// a token that only pretends to support them would.
contract PretendAuthorizationToken is ERC20 {
    constructor() ERC20("Pretend Token", "PRETEND") {}

    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }

    function receiveWithAuthorization(address, address, uint256, uint256, uint256, bytes32, uint8, bytes32, bytes32)
        external {}

    function receiveWithAuthorization(address, address, uint256, uint256, uint256, bytes32, bytes calldata) external {}

    function permit(address, address, uint256, uint256, uint8, bytes32, bytes32) external {}
}
