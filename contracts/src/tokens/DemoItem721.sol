// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {Strings} from "@openzeppelin/contracts/utils/Strings.sol";

import {DemoMetadata} from "./DemoMetadata.sol";

/// @notice The local stack's ERC721 game item: legendary swords, one token each, with their metadata on chain.
/// Holders of MINTER_ROLE mint; ids start at 1.
contract DemoItem721 is ERC721, AccessControl {
    bytes32 public constant MINTER_ROLE = keccak256("MINTER_ROLE");
    uint256 private _lastTokenId;

    string private constant SWORD = "<path d='M60 14 L68 22 L64 70 L56 70 L52 22 Z' fill='#cbd5e1' stroke='#f8fafc' stroke-width='1.5'/>"
        "<rect x='42' y='70' width='36' height='7' rx='3' fill='#eab308'/>"
        "<rect x='56' y='77' width='8' height='16' fill='#92400e'/><circle cx='60' cy='96' r='5' fill='#eab308'/>";

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
