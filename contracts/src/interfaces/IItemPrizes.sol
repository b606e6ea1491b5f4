// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {Asset} from "../libraries/Assets.sol";

/// @notice An escrowed prize of one winner position: one ERC721 token (amount 1), an ERC1155 id and amount, or an ERC20
/// amount (tokenId 0). `position` counts from 1, first prize first; a position may also pay a share of the pot.
struct ItemPrize {
    uint256 position;
    Asset asset;
}

/// @notice Where an escrowed item of a round is: held by the raffle, with its winner, or back with the merchant.
enum ItemStatus {
    None,
    Escrowed,
    Claimed,
    Returned
}

/// @notice An item of one round and where it is now.
struct RoundItem {
    uint256 position;
    Asset asset;
    ItemStatus status;
}

/// @notice Item prizes: what the merchant escrows per winning position, in addition to (or instead of) a share of the
/// pot. Items are part of the round rules: `setItemPrizes` sets them for rounds started from then on, and `startRound`
/// pulls them into escrow from the merchant (who approved the raffle once) or refuses to start. A winner's claim
/// (`claimPrizes`) sends the item to the ticket's holder; `returnItems` sends every item a refundable, closed or
/// released round still holds back to the merchant it came from. No role can send an escrowed item anywhere else.
interface IItemPrizes {
    /// @notice Rounds started from now on escrow `items`, pulled from `merchant`, the admin who set them.
    event ItemPrizesSet(address indexed merchant, ItemPrize[] items);
    /// @notice Round `roundId` holds `items` in escrow, pulled from `merchant` when it started.
    event ItemsEscrowed(uint256 indexed roundId, address indexed merchant, ItemPrize[] items);
    /// @notice Winning ticket `ticketId`'s item (position `position`) went to `winner`, its holder.
    event ItemClaimed(
        uint256 indexed roundId, uint256 indexed ticketId, address indexed winner, uint256 position, Asset asset
    );
    /// @notice Position `position`'s item went back to `merchant`.
    event ItemReturned(uint256 indexed roundId, address indexed merchant, uint256 position, Asset asset);
    /// @notice Sending position `position`'s item to `to` failed (`reason` is the token's or receiver's revert data):
    /// the item stays in escrow, claimable or returnable again, and nothing else of the call was held up.
    event ItemTransferFailed(uint256 indexed roundId, uint256 position, address to, bytes reason);

    /// @notice Item `index` of `setItemPrizes` is malformed: position 1 to MAX_WINNERS and above the previous item's;
    /// an ERC721 of amount 1, an ERC1155 of a non-zero amount, or an ERC20 of tokenId 0 and a non-zero amount; not the
    /// raffle's own tickets.
    error InvalidItemPrize(uint256 index);
    /// @notice `startRound` could not pull position `position`'s item from the merchant (not owned, not approved, a
    /// paused or refusing token): `reason` is the token's revert data. The round did not start.
    error ItemNotEscrowed(uint256 position, bytes reason);
    /// @notice A transfer of an item moved `moved` of it in or out of the raffle where `expected` was asked (a token
    /// that charges a fee, delivers short or takes more): the transfer is undone.
    error ItemAmountMismatch(uint256 expected, uint256 moved);
    /// @notice Round `roundId` holds no item to return.
    error NoItemsToReturn(uint256 roundId);
    /// @notice The raffle accepts ERC1155 tokens only from its own escrow pulls.
    error UnsolicitedItem(address operator);

    /// @notice Sets the items rounds started from now on escrow (empty: none), pulled from the caller. Admin.
    function setItemPrizes(ItemPrize[] calldata items) external;

    /// @notice The items the next round will escrow and the merchant they are pulled from.
    function itemPrizes() external view returns (address merchant, ItemPrize[] memory items);

    /// @notice Round `roundId`'s items and where each is, and the merchant they came from and go back to.
    function getRoundItems(uint256 roundId) external view returns (address merchant, RoundItem[] memory items);

    /// @notice Sends every item round `roundId` still holds back to its merchant: once the round is closed (no
    /// ticket), refundable or released, or `timeLagBeforeRelease` after its draw. Anyone; pays only the merchant.
    function returnItems(uint256 roundId) external;
}
