// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IRaffleDeployer} from "./interfaces/IDeployers.sol";
import {RaffleSettings} from "./interfaces/IRaffle.sol";
import {Raffle} from "./Raffle.sol";

/// @notice Creates raffles for the factory. It exists so the factory's code does not have to carry the raffle's
/// creation code, which together with the factory's own passes the 24 KiB contract size limit.
/// @dev The caller becomes the raffle's factory, so anyone may call it: a raffle only draws, prices and starts rounds
/// through its own factory, which only serves the raffles it deployed.
/// The raffle's creation code is not part of this contract's code either: the constructor writes it into one or two
/// code stores (contracts whose code is a STOP byte and then the data, so a call to one does nothing), and
/// `deployRaffle` copies it back with EXTCODECOPY. Only the raffle's own runtime then has to fit the 24 KiB limit;
/// its creation code may grow to what this constructor's 48 KiB initcode limit leaves room for.
contract RaffleDeployer is IRaffleDeployer {
    /// @dev Most data one code store holds: the EIP-170 limit less the leading STOP byte.
    uint256 private constant STORE_CAPACITY = 24_575;

    address private immutable _firstStore;
    /// @dev address(0) while the creation code fits one store.
    address private immutable _secondStore;
    uint256 private immutable _creationCodeLength;

    /// @notice The raffle's creation code could not be written to a code store.
    error CodeStoreFailed();

    constructor() {
        bytes memory code = type(Raffle).creationCode;
        uint256 length = code.length;
        _creationCodeLength = length;
        uint256 first = length > STORE_CAPACITY ? STORE_CAPACITY : length;
        _firstStore = _writeStore(code, 0, first);
        _secondStore = length > first ? _writeStore(code, first, length - first) : address(0);
    }

    function deployRaffle(RaffleSettings calldata settings) external returns (address raffle) {
        RaffleSettings memory own = settings;
        own.factory = msg.sender;
        bytes memory args = abi.encode(own);
        (address firstStore, address secondStore, uint256 codeLength) =
            (_firstStore, _secondStore, _creationCodeLength);
        uint256 firstLength = codeLength > STORE_CAPACITY ? STORE_CAPACITY : codeLength;
        bytes memory initcode = new bytes(codeLength + args.length);
        // solhint-disable-next-line no-inline-assembly
        assembly ("memory-safe") {
            let start := add(initcode, 0x20)
            extcodecopy(firstStore, start, 1, firstLength)
            if secondStore { extcodecopy(secondStore, add(start, firstLength), 1, sub(codeLength, firstLength)) }
            mcopy(add(start, codeLength), add(args, 0x20), mload(args))
            raffle := create(0, start, mload(initcode))
            // The raffle's own refusal (its constructor's custom error), as `new Raffle(...)` would pass it on.
            if iszero(raffle) {
                returndatacopy(0, 0, returndatasize())
                revert(0, returndatasize())
            }
        }
    }

    /// @dev Deploys a contract whose code is STOP followed by `code[offset:offset + length]`: its initcode returns
    /// the bytes that follow its 10-byte prefix (PUSH2 size, DUP1, PUSH1 10, RETURNDATASIZE, CODECOPY,
    /// RETURNDATASIZE, RETURN).
    function _writeStore(bytes memory code, uint256 offset, uint256 length) private returns (address store) {
        bytes memory initcode = new bytes(10 + 1 + length);
        // solhint-disable-next-line no-inline-assembly
        assembly ("memory-safe") {
            let start := add(initcode, 0x20)
            // 61 SSSS 80 600a 3d 39 3d f3, then the STOP byte 00: 11 bytes at the start of the word, SSSS the size.
            mstore(start, or(shl(168, 0x61000080600a3d393df300), shl(232, add(length, 1))))
            mcopy(add(start, 11), add(add(code, 0x20), offset), length)
            store := create(0, start, mload(initcode))
        }
        if (store == address(0)) revert CodeStoreFailed();
    }
}
