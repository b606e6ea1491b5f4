// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {IAccessControl} from "@openzeppelin/contracts/access/IAccessControl.sol";
import {IERC4906} from "@openzeppelin/contracts/interfaces/IERC4906.sol";
import {IERC165} from "@openzeppelin/contracts/utils/introspection/IERC165.sol";
import {IRaffleTicket, PrizeStatus, TicketData} from "./interfaces/IRaffleTicket.sol";

/// @notice The ERC721 tickets of one raffle. Only that raffle mints, flags and burns them.
/// @dev The raffle has this contract created in its own constructor, so `raffle` can be immutable on both sides
/// and the mint path reads no role from storage.
contract RaffleTicket is IRaffleTicket, IERC4906, ERC721 {
    /// @notice The raffle that owns this ticket contract.
    address public immutable raffle;

    bytes32 private constant DEFAULT_ADMIN_ROLE = 0x00;

    mapping(uint256 ticketId => TicketData) private _tickets;
    string private _baseTokenURI;

    modifier onlyRaffle() {
        if (msg.sender != raffle) revert CallerNotRaffle(msg.sender);
        _;
    }

    constructor(string memory name_, string memory symbol_, address raffle_) ERC721(name_, symbol_) {
        raffle = raffle_;
    }

    /// @inheritdoc IRaffleTicket
    function mintTicket(address to, uint256 ticketId, uint256 roundId, uint256 serial, uint256 externalId)
        external
        onlyRaffle
    {
        if (externalId > type(uint120).max) revert ExternalIdTooLarge(externalId);
        // The raffle bounds round ids and serials far below 2^64, so these casts cannot truncate.
        _tickets[ticketId] = TicketData({
            roundId: uint64(roundId),
            serial: uint64(serial),
            externalId: uint120(externalId),
            prizeStatus: PrizeStatus.None
        });
        _safeMint(to, ticketId);
    }

    /// @inheritdoc IRaffleTicket
    function setPrizeStatus(uint256 ticketId, PrizeStatus status) external onlyRaffle {
        _tickets[ticketId].prizeStatus = status;
        emit MetadataUpdate(ticketId);
    }

    /// @inheritdoc IRaffleTicket
    function burn(uint256 ticketId) external onlyRaffle {
        _burn(ticketId);
    }

    /// @inheritdoc IRaffleTicket
    function getTicketData(uint256 ticketId) external view returns (TicketData memory) {
        _requireOwned(ticketId);
        return _tickets[ticketId];
    }

    /// @notice Sets the metadata base URI. Only an admin of the raffle may call it.
    function setBaseURI(string calldata baseURI) external {
        if (!IAccessControl(raffle).hasRole(DEFAULT_ADMIN_ROLE, msg.sender)) revert CallerNotRaffleAdmin(msg.sender);
        _baseTokenURI = baseURI;
        emit BatchMetadataUpdate(1, type(uint256).max);
    }

    function supportsInterface(bytes4 interfaceId) public view override(ERC721, IERC165) returns (bool) {
        return interfaceId == bytes4(0x49064906) || super.supportsInterface(interfaceId);
    }

    function _baseURI() internal view override returns (string memory) {
        return _baseTokenURI;
    }
}
