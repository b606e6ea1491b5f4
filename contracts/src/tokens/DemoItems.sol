// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {ERC1155} from "@openzeppelin/contracts/token/ERC1155/ERC1155.sol";
import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {Base64} from "@openzeppelin/contracts/utils/Base64.sol";
import {Strings} from "@openzeppelin/contracts/utils/Strings.sol";

/// @notice Metadata written on chain as `data:` URIs (a JSON document with a name, a description and an SVG image), so
/// a page shows a demo item's name and picture without any network beyond the chain.
library DemoMetadata {
    function json(string memory name, string memory description, string memory svg) internal pure returns (string memory) {
        string memory image = string.concat("data:image/svg+xml;base64,", Base64.encode(bytes(svg)));
        bytes memory document =
            abi.encodePacked('{"name":"', name, '","description":"', description, '","image":"', image, '"}');
        return string.concat("data:application/json;base64,", Base64.encode(document));
    }

    /// @dev A square picture: a dark tile, the item's drawing, and its name underneath.
    function svg(string memory drawing, string memory label) internal pure returns (string memory) {
        return string.concat(
            '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 120" width="240" height="240">',
            '<rect width="120" height="120" rx="12" fill="#1e1b2e"/>',
            drawing,
            '<text x="60" y="110" font-family="sans-serif" font-size="10" fill="#f5f3ff" text-anchor="middle">',
            label,
            "</text></svg>"
        );
    }
}

/// @notice The local stack's ERC721 game item: legendary swords, one token each, with their metadata on chain.
/// Holders of MINTER_ROLE mint; ids start at 1.
contract DemoItem721 is ERC721, AccessControl {
    bytes32 public constant MINTER_ROLE = keccak256("MINTER_ROLE");
    uint256 private _lastTokenId;

    string private constant SWORD =
        '<path d="M60 14 L68 22 L64 70 L56 70 L52 22 Z" fill="#cbd5e1" stroke="#f8fafc" stroke-width="1.5"/>'
        '<rect x="42" y="70" width="36" height="7" rx="3" fill="#eab308"/>'
        '<rect x="56" y="77" width="8" height="16" fill="#92400e"/><circle cx="60" cy="96" r="5" fill="#eab308"/>';

    constructor(address admin) ERC721("Demo Legendary Sword", "DSWORD") {
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        _grantRole(MINTER_ROLE, admin);
    }

    function mint(address to) external onlyRole(MINTER_ROLE) returns (uint256 tokenId) {
        tokenId = ++_lastTokenId;
        _safeMint(to, tokenId);
    }

    /// @notice The sword's metadata as a `data:application/json;base64,` URI; its image is an SVG `data:` URI.
    function tokenURI(uint256 tokenId) public view override returns (string memory) {
        _requireOwned(tokenId);
        string memory name = string.concat("Legendary Sword #", Strings.toString(tokenId));
        return DemoMetadata.json(name, "A demo game item of the local stack.", DemoMetadata.svg(SWORD, name));
    }

    function supportsInterface(bytes4 interfaceId) public view override(ERC721, AccessControl) returns (bool) {
        return super.supportsInterface(interfaceId);
    }
}

/// @notice The local stack's ERC1155 game items: stacks of healing potions (every id is a potion), with their metadata
/// on chain. Holders of MINTER_ROLE mint.
contract DemoItems1155 is ERC1155, AccessControl {
    bytes32 public constant MINTER_ROLE = keccak256("MINTER_ROLE");

    string private constant POTION =
        '<rect x="54" y="16" width="12" height="14" rx="2" fill="#a16207"/>'
        '<path d="M52 30 H68 V44 L84 70 A24 24 0 1 1 36 70 L52 44 Z" fill="#e2e8f0" fill-opacity="0.3" stroke="#f8fafc" stroke-width="1.5"/>'
        '<path d="M40 68 H80 A22 22 0 1 1 40 68 Z" fill="#dc2626"/>';

    constructor(address admin) ERC1155("") {
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        _grantRole(MINTER_ROLE, admin);
    }

    function mint(address to, uint256 id, uint256 amount) external onlyRole(MINTER_ROLE) {
        _mint(to, id, amount, "");
    }

    /// @notice Item `id`'s metadata as a `data:application/json;base64,` URI; its image is an SVG `data:` URI.
    function uri(uint256 id) public pure override returns (string memory) {
        string memory name = string.concat("Healing Potion #", Strings.toString(id));
        return DemoMetadata.json(name, "A demo game item of the local stack, sold in stacks.", DemoMetadata.svg(POTION, name));
    }

    function supportsInterface(bytes4 interfaceId) public view override(ERC1155, AccessControl) returns (bool) {
        return super.supportsInterface(interfaceId);
    }
}
