// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {ERC1155} from "@openzeppelin/contracts/token/ERC1155/ERC1155.sol";
import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";

import {DemoMetadata} from "./DemoMetadata.sol";

/// @notice The local stack's ERC1155 game items: stacks of healing potions (every id is a potion), with their metadata
/// on chain. Holders of MINTER_ROLE mint.
contract DemoItems1155 is ERC1155, AccessControl {
    bytes32 public constant MINTER_ROLE = keccak256("MINTER_ROLE");

    string private constant POTION = "<rect x='54' y='16' width='12' height='14' rx='2' fill='#a16207'/>"
        "<path d='M52 30 H68 V44 L84 70 A24 24 0 1 1 36 70 L52 44 Z' fill='#e2e8f0' fill-opacity='0.3' stroke='#f8fafc' stroke-width='1.5'/>"
        "<path d='M40 68 H80 A22 22 0 1 1 40 68 Z' fill='#dc2626'/>";

    constructor(address admin) ERC1155("") {
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        _grantRole(MINTER_ROLE, admin);
    }

    function mint(address to, uint256 id, uint256 amount) external onlyRole(MINTER_ROLE) {
        _mint(to, id, amount, "");
    }

    /// @notice An item's metadata (every id is a healing potion) as a `data:application/json;base64,` URI; its image
    /// is an SVG `data:` URI.
    function uri(uint256) public pure override returns (string memory) {
        return DemoMetadata.json(
            "Healing Potion", "A demo game item of the local stack, won in stacks.", DemoMetadata.svg(POTION, "Healing Potion")
        );
    }

    function supportsInterface(bytes4 interfaceId) public view override(ERC1155, AccessControl) returns (bool) {
        return super.supportsInterface(interfaceId);
    }
}
