// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {ERC721A} from "erc721a/contracts/ERC721A.sol";
import {IERC721A} from "erc721a/contracts/IERC721A.sol";
import {IAccessControl} from "@openzeppelin/contracts/access/IAccessControl.sol";
import {IERC721Receiver} from "@openzeppelin/contracts/token/ERC721/IERC721Receiver.sol";
import {Base64} from "@openzeppelin/contracts/utils/Base64.sol";
import {Strings} from "@openzeppelin/contracts/utils/Strings.sol";
import {IRaffle, RoundStatus, Winner} from "./interfaces/IRaffle.sol";
import {IRaffleTicket, PrizeStatus, TicketState, TicketStatus} from "./interfaces/IRaffleTicket.sol";

/// @notice The ERC721 tickets of one raffle. Only that raffle mints and burns them.
/// @dev ERC721A: a purchase of many tickets writes one ownership slot, so each further ticket costs about 2k gas (its
/// Transfer event) instead of two fresh storage slots. The 24 bits of extra data ERC721A keeps per ownership slot hold
/// the ticket's price tier; `_extraData` passes it on through transfers and burns. The raffle has this contract
/// created in its own constructor, so `raffle` is immutable on both sides and the mint path reads no role.
/// A ticket tells its own state (`ticketState`, and `tokenURI` as self-contained on-chain JSON), read from its raffle,
/// which keeps every fact of it; the raffle has this contract emit ERC-4906 events whenever that state changes.
/// A mint writes the tickets and their tier before it calls anything (`_mint`, then ERC721A's receiver check of its
/// own): the raffle calls `mintTickets` as the purchase's last step, so whatever a buyer's `onERC721Received` does
/// (move a ticket, re-enter, revert), every ticket's tier and the round's books are already final.
contract RaffleTicket is IRaffleTicket, ERC721A {
    /// @notice The raffle that owns this ticket contract.
    address public immutable raffle;

    bytes32 private constant DEFAULT_ADMIN_ROLE = 0x00;
    bytes4 private constant ERC4906_INTERFACE_ID = 0x49064906;

    string private _baseTokenURI;

    modifier onlyRaffle() {
        if (msg.sender != raffle) revert CallerNotRaffle(msg.sender);
        _;
    }

    constructor(string memory name_, string memory symbol_, address raffle_) ERC721A(name_, symbol_) {
        raffle = raffle_;
    }

    /// @inheritdoc IRaffleTicket
    function mintTickets(address to, uint256 quantity, uint24 tier) external onlyRaffle returns (uint256 firstTicketId) {
        firstTicketId = _nextTokenId();
        _mint(to, quantity);
        if (tier != 0) _setExtraDataAt(firstTicketId, tier);
        if (to.code.length != 0) _checkReceiver(to, firstTicketId, firstTicketId + quantity);
    }

    /// @inheritdoc IRaffleTicket
    function burn(uint256 ticketId) external onlyRaffle {
        _burn(ticketId);
        emit MetadataUpdate(ticketId);
    }

    /// @inheritdoc IRaffleTicket
    function metadataChanged(uint256 fromTicketId, uint256 toTicketId) external onlyRaffle {
        if (fromTicketId == toTicketId) emit MetadataUpdate(fromTicketId);
        else emit BatchMetadataUpdate(fromTicketId, toTicketId);
    }

    /// @inheritdoc IRaffleTicket
    function tierOf(uint256 ticketId) public view returns (uint256) {
        return _ownershipOf(ticketId).extraData;
    }

    /// @inheritdoc IRaffleTicket
    function nextTicketId() external view returns (uint256) {
        return _nextTokenId();
    }

    /// @inheritdoc IRaffleTicket
    /// @dev Only the raffle burns, and only to refund, so a burned ticket is a refunded one; ERC721A keeps a burned
    /// ticket's slot, price tier included.
    function ticketState(uint256 ticketId) public view returns (TicketState memory state) {
        if (ticketId < _startTokenId() || ticketId >= _nextTokenId()) revert TicketDoesNotExist(ticketId);
        IRaffle source = IRaffle(raffle);
        TokenOwnership memory slot = _ownershipAt(ticketId);
        state.roundId = source.roundOfTicket(ticketId);
        state.tier = slot.burned ? slot.extraData : tierOf(ticketId);
        state.price = source.ticketPrice(state.roundId, state.tier);
        RoundStatus round = source.getRound(state.roundId).status;
        if (slot.burned) {
            state.status = TicketStatus.Refunded;
        } else if (round == RoundStatus.Refundable) {
            state.status = TicketStatus.Refundable;
        } else if (round == RoundStatus.Drawn || round == RoundStatus.Claimed || round == RoundStatus.Released) {
            state.status = TicketStatus.Lost;
            Winner[] memory winners = source.getWinners(state.roundId);
            for (uint256 position; position < winners.length; ++position) {
                if (winners[position].ticketId != ticketId) continue;
                PrizeStatus prize = winners[position].status;
                state.won = true;
                state.position = position;
                state.status = prize == PrizeStatus.Claimed
                    ? TicketStatus.PrizeClaimed
                    : (prize == PrizeStatus.Released ? TicketStatus.PrizeReleased : TicketStatus.Won);
                break;
            }
        }
    }

    /// @notice ERC721 metadata as a self-contained `data:` URI of JSON (no server needed): the ticket's status, round,
    /// price tier, price paid and winner position (1 = first) as attributes, so a marketplace shows whether a
    /// ticket is open, lost, won with its prize unclaimed, won with its prize paid, refundable or refunded. The base
    /// URI, if the merchant set one, gives its image. A refunded (burned) ticket still answers, as "Refunded".
    function tokenURI(uint256 ticketId) public view override(ERC721A, IERC721A) returns (string memory) {
        TicketState memory state = ticketState(ticketId);
        string memory id = Strings.toString(ticketId);
        string memory round = Strings.toString(state.roundId);
        string memory image = bytes(_baseTokenURI).length == 0
            ? ""
            : string.concat(",\"image\":\"", Strings.escapeJSON(_baseTokenURI), id, "\"");
        string memory position = state.won
            ? string.concat(
                ",{\"trait_type\":\"Winner position\",\"display_type\":\"number\",\"value\":",
                Strings.toString(state.position + 1),
                "}"
            )
            : "";
        bytes memory json = abi.encodePacked(
            "{\"name\":\"",
            Strings.escapeJSON(name()),
            " #",
            id,
            "\",\"description\":\"Ticket ",
            id,
            " of round ",
            round,
            " of raffle ",
            Strings.toHexString(raffle),
            ".\"",
            image,
            ",\"attributes\":[{\"trait_type\":\"Status\",\"value\":\"",
            _statusLabel(state.status),
            "\"},{\"trait_type\":\"Round\",\"display_type\":\"number\",\"value\":",
            round,
            "},{\"trait_type\":\"Price tier\",\"display_type\":\"number\",\"value\":",
            Strings.toString(state.tier),
            "},{\"trait_type\":\"Price paid\",\"value\":\"",
            Strings.toString(state.price),
            "\"}",
            position,
            "]}"
        );
        return string.concat("data:application/json;base64,", Base64.encode(json));
    }

    /// @notice Sets the metadata base URI. Only an admin of the raffle may call it.
    function setBaseURI(string calldata baseURI) external {
        if (!IAccessControl(raffle).hasRole(DEFAULT_ADMIN_ROLE, msg.sender)) revert CallerNotRaffleAdmin(msg.sender);
        _baseTokenURI = baseURI;
        emit BatchMetadataUpdate(_startTokenId(), type(uint256).max);
    }

    function supportsInterface(bytes4 interfaceId) public view override(ERC721A, IERC721A) returns (bool) {
        return interfaceId == ERC4906_INTERFACE_ID || super.supportsInterface(interfaceId);
    }

    /// @dev Ticket ids start at 1, as they always have: 0 means "no ticket" in round views.
    function _startTokenId() internal pure override returns (uint256) {
        return 1;
    }

    function _statusLabel(TicketStatus status) private pure returns (string memory) {
        if (status == TicketStatus.Open) return "Open";
        if (status == TicketStatus.Lost) return "Lost";
        if (status == TicketStatus.Won) return "Won, prize unclaimed";
        if (status == TicketStatus.PrizeClaimed) return "Prize claimed";
        if (status == TicketStatus.PrizeReleased) return "Prize released";
        if (status == TicketStatus.Refundable) return "Refundable";
        return "Refunded";
    }

    /// @dev ERC721A's safe-mint check, after the mint instead of inside it (its own is private): each ticket's
    /// `onERC721Received` (operator: the raffle, from: zero) must return its selector; a revert with data is passed on.
    function _checkReceiver(address to, uint256 firstTicketId, uint256 end) private {
        for (uint256 ticketId = firstTicketId; ticketId < end; ++ticketId) {
            try IERC721Receiver(to).onERC721Received(msg.sender, address(0), ticketId, "") returns (bytes4 answer) {
                if (answer != IERC721Receiver.onERC721Received.selector) revert TransferToNonERC721ReceiverImplementer();
            } catch (bytes memory reason) {
                if (reason.length == 0) revert TransferToNonERC721ReceiverImplementer();
                // solhint-disable-next-line no-inline-assembly
                assembly ("memory-safe") {
                    revert(add(reason, 0x20), mload(reason))
                }
            }
        }
    }

    /// @dev Keeps the price tier with the ticket whoever holds it.
    function _extraData(address, address, uint24 previousExtraData) internal pure override returns (uint24) {
        return previousExtraData;
    }
}
