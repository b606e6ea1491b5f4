// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {ERC1155} from "@openzeppelin/contracts/token/ERC1155/ERC1155.sol";

/// @notice Test-only ERC1155 game items (potions, ammunition): anyone mints.
contract TestItems1155 is ERC1155 {
    constructor() ERC1155("https://items.test/{id}.json") {}

    function mint(address to, uint256 id, uint256 amount) external {
        _mint(to, id, amount, "");
    }
}

/// @notice Test-only ERC1155 that keeps a fee of one unit in a hundred (at least one) on every transfer between
/// holders, so the receiver gets less than it was sent.
contract FeeCharging1155 is ERC1155 {
    constructor() ERC1155("") {}

    function mint(address to, uint256 id, uint256 amount) external {
        _mint(to, id, amount, "");
    }

    function _update(address from, address to, uint256[] memory ids, uint256[] memory values) internal override {
        if (from == address(0) || to == address(0)) return super._update(from, to, ids, values);
        uint256[] memory fees = new uint256[](values.length);
        for (uint256 i; i < values.length; ++i) {
            fees[i] = values[i] / 100 + 1;
            values[i] -= fees[i];
        }
        super._update(from, address(0), ids, fees);
        super._update(from, to, ids, values);
    }
}

/// @notice Test-only ERC721 whose issuer can pause every transfer (as many game studios can).
contract PausableItem721 is ERC721 {
    bool public paused;
    uint256 private _lastTokenId;

    error ItemTransfersPaused();

    constructor() ERC721("Pausable Sword", "PSWORD") {}

    function mint(address to) external returns (uint256 tokenId) {
        tokenId = ++_lastTokenId;
        _mint(to, tokenId);
    }

    function setPaused(bool paused_) external {
        paused = paused_;
    }

    function _update(address to, uint256 tokenId, address auth) internal override returns (address) {
        if (paused && _ownerOf(tokenId) != address(0)) revert ItemTransfersPaused();
        return super._update(to, tokenId, auth);
    }
}

/// @notice Test-only ERC20 whose issuer can pause every transfer.
contract PausableItem20 is ERC20 {
    bool public paused;

    error ItemTransfersPaused();

    constructor() ERC20("Pausable Gems", "PGEM") {}

    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }

    function setPaused(bool paused_) external {
        paused = paused_;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (paused && from != address(0)) revert ItemTransfersPaused();
        super._update(from, to, value);
    }
}

/// @notice Test-only ERC721 that, on every transfer between holders, calls `reentryTarget` with `reentryData` (the raffle's claim,
/// return or escrow mover) and records whether that re-entry succeeded and how it failed; the transfer goes on.
contract ReentrantItem721 is ERC721 {
    address public reentryTarget;
    bytes public reentryData;
    uint256 public reentries;
    uint256 public reentriesSucceeded;
    bytes public lastFailure;
    uint256 private _lastTokenId;

    constructor() ERC721("Reentrant Sword", "RSWORD") {}

    function mint(address to) external returns (uint256 tokenId) {
        tokenId = ++_lastTokenId;
        _mint(to, tokenId);
    }

    function setReentry(address target, bytes calldata data) external {
        reentryTarget = target;
        reentryData = data;
    }

    function _update(address to, uint256 tokenId, address auth) internal override returns (address) {
        if (reentryTarget != address(0) && _ownerOf(tokenId) != address(0)) {
            reentries += 1;
            (bool ok, bytes memory result) = reentryTarget.call(reentryData);
            if (ok) reentriesSucceeded += 1;
            else lastFailure = result;
        }
        return super._update(to, tokenId, auth);
    }
}
