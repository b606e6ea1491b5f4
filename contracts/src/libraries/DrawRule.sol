// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// @notice How one random word picks a round's winning tickets (README, "How winners are drawn").
/// @dev Pure, so anyone can recompute a draw from the recorded word: the SDK's `verifyDraw` and the player app do,
/// with libs/chain/src/rules/draw-rule.ts, and both are checked against libs/chain/src/rules/vectors.json.
library DrawRule {
    /// @notice hash_0 is the word and hash_(k+1) is keccak256(hash_k as 32 bytes); candidate k is firstTicketId +
    /// hash_k mod ticketCount. Positions take the candidates in order, first position first, skipping a ticket already
    /// drawn. Re-hashing rather than moving to the next ticket keeps every remaining ticket equally likely.
    /// @dev Never ends if `ticketCount < winnersCount`: the raffle refunds such a round instead of drawing it.
    function winners(uint256 randomWord, uint256 firstTicketId, uint256 ticketCount, uint256 winnersCount)
        internal
        pure
        returns (uint256[] memory ticketIds)
    {
        ticketIds = new uint256[](winnersCount);
        uint256 hash = randomWord;
        for (uint256 position; position < winnersCount; ++position) {
            uint256 candidate;
            bool taken = true;
            while (taken) {
                candidate = firstTicketId + hash % ticketCount;
                hash = uint256(keccak256(abi.encode(hash)));
                taken = false;
                for (uint256 earlier; earlier < position; ++earlier) {
                    if (ticketIds[earlier] == candidate) {
                        taken = true;
                        break;
                    }
                }
            }
            ticketIds[position] = candidate;
        }
    }
}
