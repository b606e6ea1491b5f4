// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// @notice Test-only: emits any log, so indexer tests can feed unknown and malformed events from a registered address.
contract LogEmitter {
    function emitLog(bytes32[] calldata topics, bytes calldata data) external {
        bytes memory payload = data;
        uint256 length = payload.length;
        uint256 count = topics.length;
        require(count <= 4, "at most 4 topics");
        // Assembly is the only way to choose raw topics; this contract never ships outside tests.
        assembly {
            let start := add(payload, 0x20)
            switch count
            case 0 { log0(start, length) }
            case 1 { log1(start, length, calldataload(topics.offset)) }
            case 2 { log2(start, length, calldataload(topics.offset), calldataload(add(topics.offset, 0x20))) }
            case 3 {
                log3(start, length, calldataload(topics.offset), calldataload(add(topics.offset, 0x20)), calldataload(add(topics.offset, 0x40)))
            }
            default {
                log4(
                    start,
                    length,
                    calldataload(topics.offset),
                    calldataload(add(topics.offset, 0x20)),
                    calldataload(add(topics.offset, 0x40)),
                    calldataload(add(topics.offset, 0x60))
                )
            }
        }
    }
}
