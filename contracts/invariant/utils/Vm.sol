// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// @notice The forge cheatcodes this suite uses, declared by hand: forge-std on npm is an old 1.1.2 without
/// StdInvariant. Signatures as documented at https://getfoundry.sh/reference/cheatcodes/.
interface Vm {
    function warp(uint256 newTimestamp) external;
    function roll(uint256 newHeight) external;
    function prank(address msgSender) external;
    function startPrank(address msgSender) external;
    function stopPrank() external;
    function deal(address account, uint256 newBalance) external;
    function addr(uint256 privateKey) external pure returns (address);
    function sign(uint256 privateKey, bytes32 digest) external pure returns (uint8 v, bytes32 r, bytes32 s);
    function label(address account, string calldata newLabel) external;
    function deployCode(string calldata artifactPath) external returns (address deployed);
    function deployCode(string calldata artifactPath, bytes calldata constructorArgs) external returns (address deployed);
    function envOr(string calldata name, string calldata defaultValue) external view returns (string memory value);
    function writeLine(string calldata path, string calldata data) external;
    function toString(uint256 value) external pure returns (string memory);
    function toString(address value) external pure returns (string memory);
    function toString(bytes32 value) external pure returns (string memory);
    function toString(bytes calldata value) external pure returns (string memory);
}

/// @dev The cheatcode address: address(uint160(uint256(keccak256("hevm cheat code")))).
Vm constant vm = Vm(0x7109709ECfa91a80626fF3989D68f67F5b1DD12D);

/// @notice What forge reads from an invariant test contract to choose the calls of a sequence.
struct FuzzSelector {
    address addr;
    bytes4[] selectors;
}
