// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {Base64} from "@openzeppelin/contracts/utils/Base64.sol";

/// @notice Metadata written on chain as `data:` URIs (a JSON document with a name, a description and an SVG image), so
/// a page shows a demo item's name and picture without any network beyond the chain.
library DemoMetadata {
    function json(string memory name, string memory description, string memory svg) internal pure returns (string memory) {
        string memory image = string.concat("data:image/svg+xml;base64,", Base64.encode(bytes(svg)));
        bytes memory document =
            abi.encodePacked("{\"name\":\"", name, "\",\"description\":\"", description, "\",\"image\":\"", image, "\"}");
        return string.concat("data:application/json;base64,", Base64.encode(document));
    }

    /// @dev A square picture: a dark tile, the item's drawing, and its name underneath.
    function svg(string memory drawing, string memory label) internal pure returns (string memory) {
        return string.concat(
            "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 120 120' width='240' height='240'>",
            "<rect width='120' height='120' rx='12' fill='#1e1b2e'/>",
            drawing,
            "<text x='60' y='110' font-family='sans-serif' font-size='10' fill='#f5f3ff' text-anchor='middle'>",
            label,
            "</text></svg>"
        );
    }
}
