// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IERC721Receiver} from "@openzeppelin/contracts/token/ERC721/IERC721Receiver.sol";
import {IRaffle, TicketRef} from "../interfaces/IRaffle.sol";

/// @notice Test-only contract that holds a winning ticket and, when the native prize arrives, tries to claim the
/// same prize again (or refuses the money), to prove the Raffle's reentrancy guard and its stuck-prize path.
contract ReentrantWinner is IERC721Receiver {
    enum Mode {
        Accept,
        Reenter,
        ReenterAndSwallow,
        Reject
    }

    Mode public mode;
    address public raffle;
    uint256 public roundId;
    uint256 public ticketId;
    uint256 public receivedCount;
    bool public reentrySucceeded;
    bytes public reentryRevertData;

    function setMode(Mode mode_) external {
        mode = mode_;
    }

    function claim(address raffle_, uint256 roundId_, uint256 ticketId_) external {
        raffle = raffle_;
        roundId = roundId_;
        ticketId = ticketId_;
        IRaffle(raffle_).claimPrizes(_ticket());
    }

    receive() external payable {
        if (mode == Mode.Reject) revert("ReentrantWinner: no ether");
        receivedCount += 1;
        if (mode == Mode.Accept || receivedCount > 1) return;
        (bool ok, bytes memory data) = raffle.call(abi.encodeCall(IRaffle.claimPrizes, (_ticket())));
        reentrySucceeded = ok;
        if (!ok) {
            if (mode == Mode.Reenter) {
                assembly ("memory-safe") {
                    revert(add(data, 0x20), mload(data))
                }
            }
            reentryRevertData = data;
        }
    }

    function _ticket() private view returns (TicketRef[] memory tickets) {
        tickets = new TicketRef[](1);
        tickets[0] = TicketRef({roundId: roundId, ticketId: ticketId});
    }

    function onERC721Received(address, address, uint256, bytes calldata) external pure returns (bytes4) {
        return IERC721Receiver.onERC721Received.selector;
    }
}
