// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IAccessControl} from "@openzeppelin/contracts/access/IAccessControl.sol";

import {vm} from "./utils/Vm.sol";
import {
    FakeCoordinator, IExchangeX, IRaffleFactoryX, IRaffleTicketX, IRaffleX, ITokenX, IVRFMock
} from "./utils/Interfaces.sol";
import {Asset, Params, TokenType} from "../src/libraries/Assets.sol";
import {IRaffle, RoundStatus, RoundView, TicketRef, VrfConfig} from "../src/interfaces/IRaffle.sol";
import {IExchange} from "../src/interfaces/IExchange.sol";

/// @notice Everything the test's setUp deployed, handed to the handler.
struct Platform {
    address admin;
    IExchangeX exchange;
    IRaffleFactoryX factory;
    IVRFMock[2] coordinators;
    address burner;
    uint256[2] subscriptions;
    /// @dev [native (0), TestToken, NoReturnToken, BlocklistToken, FeeOnTransferToken, ShortDeliveryToken,
    /// TestCollectible]: the first four may be listed as prices, the last three never are.
    address[7] tokens;
    IRaffleX[2] raffles;
    address[2] merchants;
    address[2] hotKeys;
    uint256[3] signerKeys;
    /// @dev Players 0 and 1 are plain accounts; players 2 and 3 are contract wallets (SmartWallet, see HandlerBase).
    address[4] players;
    address stranger;
    address[2] beneficiaries;
    uint32 vrfTimeout;
    uint32 vrfGas;
}

/// @dev What the model expects of one round. `status` is the model's status, compared with the contract's after
/// every step (see the checks).
struct RoundG {
    uint8 status;
    address token;
    uint256 price;
    uint32 maxTicket;
    uint64 firstTicketId;
    uint32 tickets;
    uint40 startedAt;
    uint40 drawnAt;
    address coordinator;
    uint256 requestId;
    uint40 refundableAt;
    uint32 callbackGas;
    uint8 vrfCoordinator;
    uint32 vrfTimeout;
    bool delivered;
    /// @dev How many times the round's winners were drawn (must end at 0 or 1).
    uint8 winners;
    /// @dev The first position's ticket (the round's `winningTicketId`).
    uint256 winner;
    address drawnBy;
    uint256 word;
    /// @dev The word arrived but the winners are left to `finishDraw`.
    bool wordRecorded;
    uint32 refunded;
    uint256 commissionTaken;
    /// @dev The rules version the round plays by, its winner positions, and what its tickets paid.
    uint32 version;
    uint8 winnersCount;
    uint256 pot;
    /// @dev Prize amounts claimed (before commission), and prices refunded.
    uint256 claimedAmount;
    uint256 refundedAmount;
    uint32 claimedMask;
    /// @dev Why the round became refundable: 1 below its minimum, 2 its randomness timed out, 3 its draw was refused.
    uint8 refundReason;
}

/// @dev The model's copy of one version of a raffle's round rules.
struct RulesG {
    uint16[] shares;
    uint32 minTickets;
    uint32 cap;
    uint32[] bundleQuantity;
    uint128[] bundlePrice;
}

/// @dev One ticket: its round, the price it paid, and what it has been paid (kind: 1 claim, 2 release, 3 refund).
struct TicketG {
    uint64 round;
    uint128 paid;
    uint8 payouts;
    uint8 payoutKind;
}

struct Voucher {
    address account;
    uint256 raffle;
    Params params;
    Asset item;
    Asset price;
    uint256 signerKey;
    bytes signature;
}

/// @notice State, actors and the model shared by the handler's actions and checks.
abstract contract HandlerBase {
    // ------------------------------------------------------------------ categories of model violations
    uint256 internal constant SOLVENCY = 0;
    uint256 internal constant DRAW = 1;
    uint256 internal constant TICKETS = 2;
    uint256 internal constant VOUCHER = 3;
    uint256 internal constant PAYOUT = 4;
    uint256 internal constant COMMISSION = 5;
    uint256 internal constant ACCESS = 6;
    uint256 internal constant CATEGORIES = 7;

    uint256 internal constant NATIVE = 0;
    uint256 internal constant TEST = 1;
    uint256 internal constant NORET = 2;
    uint256 internal constant BLOCK = 3;
    uint256 internal constant FEE = 4;
    uint256 internal constant SHORT = 5;
    uint256 internal constant COLLECTIBLE = 6;

    uint8 internal constant S_NONE = uint8(RoundStatus.None);
    uint8 internal constant S_ACTIVE = uint8(RoundStatus.Active);
    uint8 internal constant S_DRAWING = uint8(RoundStatus.Drawing);
    uint8 internal constant S_DRAWN = uint8(RoundStatus.Drawn);
    uint8 internal constant S_CLOSED = uint8(RoundStatus.Closed);
    uint8 internal constant S_REFUNDABLE = uint8(RoundStatus.Refundable);
    uint8 internal constant S_CLAIMED = uint8(RoundStatus.Claimed);
    uint8 internal constant S_RELEASED = uint8(RoundStatus.Released);
    uint8 internal constant S_PENDING = uint8(RoundStatus.WinnersPending);

    uint256 internal constant MAX_COMMISSION = 3_000;
    uint256 internal constant BPS = 10_000;
    uint256 internal constant MAX_ROUND_DURATION = 30 days;
    uint256 internal constant VRF_CONFIG_DELAY = 2 days;
    /// @dev Too little for the callback to record the word: the factory refuses such settings (VrfCallbackGasTooLow),
    /// since VRF v2.5 never retries a callback that reverted.
    uint32 internal constant LOW_CALLBACK_GAS = 5_000;
    /// @dev The lowest callback gas limit the factory accepts: enough to record any word, rarely to draw.
    uint32 internal constant MIN_CALLBACK_GAS = 100_000;
    /// @dev Enough for the callback to record the word but, for more than a few winners, not to draw them.
    uint32 internal constant TIGHT_CALLBACK_GAS = 150_000;
    uint256 internal constant MAX_WINNERS = 20;
    uint256 internal constant MAX_PER_PURCHASE = 100;
    uint256 internal constant BURNER = 2;
    uint256 internal constant MIN_DRAWS_PER_DAY = 24;
    uint256 internal constant VRF_PROPOSAL_WINDOW = 7 days;

    bytes32 internal constant ASSET_TYPEHASH =
        keccak256("Asset(uint256 tokenType,address token,uint256 tokenId,uint256 amount)");
    bytes32 internal constant PARAMS_TYPEHASH = keccak256(
        "Params(uint256 externalId,uint256 expiresAt,bytes32 nonce,bytes32 extra,address receiver,address referrer)"
    );
    bytes32 internal constant PURCHASE_TYPEHASH = keccak256(
        "EIP712(address account,Params params,Asset item,Asset price)"
        "Asset(uint256 tokenType,address token,uint256 tokenId,uint256 amount)"
        "Params(uint256 externalId,uint256 expiresAt,bytes32 nonce,bytes32 extra,address receiver,address referrer)"
    );

    bytes4 internal constant ENFORCED_PAUSE = bytes4(keccak256("EnforcedPause()"));
    bytes4 internal constant UNAUTHORIZED = bytes4(keccak256("AccessControlUnauthorizedAccount(address,bytes32)"));
    bytes4 internal constant NONEXISTENT_TOKEN = bytes4(keccak256("OwnerQueryForNonexistentToken()"));
    bytes4 internal constant ANY_ERROR = bytes4(0);
    bytes4 internal constant REENTRANT_CALL = bytes4(keccak256("ReentrancyGuardReentrantCall()"));
    bytes4 internal constant WALLET_REFUSES = bytes4(keccak256("WalletRefusesTicket(uint256)"));

    // ------------------------------------------------------------------ contract wallets
    /// @dev What a contract wallet player (players 2 and 3, SmartWallet) does when its tickets arrive, chosen per
    /// purchase: accept them, move the first to itself or to someone else, refuse them, or call back into the handler,
    /// which then acts as the wallet (or its merchant) in the middle of the purchase: buy again, claim a prize the wallet
    /// holds, refund a ticket it holds, or release a pot.
    uint8 internal constant ON_ACCEPT = 0;
    uint8 internal constant ON_MOVE_TO_SELF = 1;
    uint8 internal constant ON_MOVE_TO = 2;
    uint8 internal constant ON_CALL = 3;
    uint8 internal constant ON_REFUSE = 4;
    uint8 internal constant REENTER_PURCHASE = 0;
    uint8 internal constant REENTER_CLAIM = 1;
    uint8 internal constant REENTER_REFUND = 2;
    uint8 internal constant REENTER_RELEASE = 3;

    // ------------------------------------------------------------------ the platform
    address internal admin;
    IExchangeX internal exchange;
    IRaffleFactoryX internal factory;
    IVRFMock[2] internal coordinators;
    uint256[2] internal subscriptions;
    address[7] internal tokens;
    IRaffleX[2] internal raffles;
    IRaffleTicketX[2] internal tickets;
    address[2] internal merchants;
    address[2] internal hotKeys;
    uint256[3] internal signerKeys;
    address[3] internal signers;
    address[4] internal players;
    address internal stranger;
    address[2] internal beneficiaries;
    FakeCoordinator internal fakeCoordinator;
    bytes32 internal domainSeparator;
    bytes32 internal roundManagerRole;

    // ------------------------------------------------------------------ the model (ghost state)
    mapping(uint256 raffle => mapping(uint256 roundId => RoundG)) internal rounds;
    uint256[2] internal lastRound;
    bool[2] internal roundActive;
    bool[2] internal rafflePaused;
    bool[2] internal hotKeyGranted;
    address[2] internal beneficiary;

    mapping(uint256 raffle => mapping(uint256 ticketId => TicketG)) internal ticketsG;
    uint256[2] internal lastTicket;

    /// @dev Rules versions per raffle (version 0 is the default the raffle is born with), the version in force,
    /// the winners of each drawn round by position, and the tickets each buyer bought per round.
    mapping(uint256 raffle => mapping(uint256 version => RulesG)) internal rulesG;
    uint256[2] internal rulesCount;
    uint256[2] internal rulesInForce;
    mapping(uint256 raffle => mapping(uint256 roundId => uint256[MAX_WINNERS])) internal winnersG;
    mapping(uint256 raffle => mapping(uint256 roundId => mapping(address buyer => uint256))) internal boughtG;

    /// @dev What each raffle owes per token (unclaimed pots, open refunds, accrued commission), what was sent to it
    /// outside any purchase, the commission it accrued, and the pots of claimed rounds.
    mapping(uint256 raffle => mapping(address token => uint256)) internal owed;
    mapping(uint256 raffle => mapping(address token => uint256)) internal donated;
    mapping(uint256 raffle => mapping(address token => uint256)) internal accrued;
    mapping(uint256 raffle => mapping(address token => uint256)) internal commissionTotal;
    mapping(uint256 raffle => mapping(address token => uint256)) internal claimedPots;

    /// @dev Request ids are per coordinator: the mocks number them 1, 2, 3... each. The factory asks for every raffle,
    /// so one (coordinator, request id) names one round of either raffle: its key plus one (0 = none).
    mapping(address coordinator => mapping(uint256 requestId => uint256 keyPlusOne)) internal requestTarget;
    mapping(address coordinator => uint256) internal nextRequestId;
    /// @dev Rounds that asked VRF (raffle << 128 | roundId), and rounds that got a winner.
    uint256[] internal drawingKeys;
    uint256[] internal drawnKeys;

    struct VrfG {
        uint256 coordinator; // index into coordinators, or BURNER
        uint32 timeout;
        uint32 gas;
    }

    VrfG internal vrf;
    VrfG internal pendingVrf;
    uint256 internal pendingVrfAt;
    uint256 internal drawsPerDay = 288;
    /// @dev A cut of the budget the platform announced, in force from `pendingDrawsAt` (0: none).
    uint256 internal pendingDrawsPerDay;
    uint256 internal pendingDrawsAt;
    /// @dev The platform's own coordinator that burns every request's gas (index BURNER of the model's coordinators).
    address internal burner;
    mapping(address merchant => uint256) internal drawDay;
    mapping(address merchant => uint256) internal drawsUsed;

    mapping(address token => bool) internal listed;
    uint256 internal signerIdx;
    bool internal exchangePaused;

    bytes32[] internal usedNonces;
    mapping(bytes32 nonce => uint256 uses) internal nonceUses;
    uint256 internal nonceCounter;
    Voucher[] internal stash;

    /// @dev The purchase a wallet's callback re-enters from: its raffle, what the callback should do, its seed, and
    /// what the callback's payouts took out of that raffle in the purchase's token (the purchase's books allow for it).
    uint256 internal callbackRaffle;
    uint8 internal callbackPlan;
    uint256 internal callbackSeed;
    uint256 internal callbackOutflow;
    bool internal inPurchase;

    uint256[CATEGORIES] internal violations;
    string[CATEGORIES] internal firstViolation;

    /// @dev A fingerprint of the sequence (every call's calldata), so the runner can tell runs apart.
    bytes32 internal fingerprint;

    // ------------------------------------------------------------------ call counters (summed over a campaign)
    string[] internal counterNames;
    mapping(bytes32 name => uint256) internal counters;

    /// @dev Off while setUp opens the first rounds, so the summary counts only what the sequences did.
    bool internal counting;

    function _count(string memory name) internal {
        _countBy(name, 1);
    }

    function _countBy(string memory name, uint256 amount) internal {
        if (!counting || amount == 0) return;
        bytes32 key = keccak256(bytes(name));
        if (counters[key] == 0 && !_known[key]) {
            _known[key] = true;
            counterNames.push(name);
        }
        counters[key] += amount;
    }

    mapping(bytes32 => bool) private _known;

    modifier step() {
        fingerprint = keccak256(abi.encodePacked(fingerprint, msg.data));
        _;
    }

    // ------------------------------------------------------------------ helpers

    function _violate(uint256 category, string memory why) internal {
        if (violations[category]++ == 0) {
            firstViolation[category] = string.concat(why, " [t=", vm.toString(block.timestamp), "]");
        }
    }

    /// @dev forge draws many small and edge values; the handler reads its seeds' bits, so it mixes them first.
    function _h(uint256 seed) internal pure returns (uint256) {
        return uint256(keccak256(abi.encode(seed)));
    }

    function _bound(uint256 x, uint256 min, uint256 max) internal pure returns (uint256) {
        if (max <= min) return min;
        return min + (x % (max - min + 1));
    }

    /// @dev A call from `from`, as an EOA would send it. Returns success and the 4-byte error of a revert.
    function _call(address from, address to, uint256 value, bytes memory data) internal returns (bool ok, bytes4 err) {
        bytes memory ret;
        vm.prank(from);
        (ok, ret) = to.call{value: value}(data);
        if (!ok && ret.length >= 4) err = bytes4(ret);
    }

    function _checkOutcome(uint256 category, string memory what, bool expectOk, bytes4 expectErr, bool ok, bytes4 err)
        internal
        returns (bool)
    {
        if (ok != expectOk) {
            _violate(
                category,
                string.concat(
                    what,
                    ok ? ": succeeded where it must revert with " : ": reverted where it must succeed, error ",
                    vm.toString(abi.encodePacked(ok ? expectErr : err))
                )
            );
            return false;
        }
        if (!ok && expectErr != ANY_ERROR && err != expectErr) {
            _violate(
                category,
                string.concat(
                    what,
                    ": reverted with ",
                    vm.toString(abi.encodePacked(err)),
                    " instead of ",
                    vm.toString(abi.encodePacked(expectErr))
                )
            );
            return false;
        }
        return true;
    }

    function _key(uint256 r, uint256 roundId) internal pure returns (uint256) {
        return (r << 128) | roundId;
    }

    function _unkey(uint256 key) internal pure returns (uint256 r, uint256 roundId) {
        return (key >> 128, key & type(uint128).max);
    }

    function _balance(address token, address account) internal view returns (uint256) {
        if (token == address(0)) return account.balance;
        return ITokenX(token).balanceOf(account);
    }

    function _isBlocked(address token, address account) internal view returns (bool) {
        return token == tokens[BLOCK] && ITokenX(token).blocked(account);
    }

    function _exists(uint256 r, uint256 ticketId) internal view returns (bool) {
        return ticketId != 0 && ticketId <= lastTicket[r] && ticketsG[r][ticketId].payoutKind != 3;
    }

    function _ownerOf(uint256 r, uint256 ticketId) internal view returns (address) {
        return tickets[r].ownerOf(ticketId);
    }

    function _mayActFor(uint256 r, uint256 ticketId, address caller) internal view returns (bool) {
        address owner = tickets[r].ownerOf(ticketId);
        return caller == owner || tickets[r].isApprovedForAll(owner, caller) || tickets[r].getApproved(ticketId) == caller;
    }

    /// @dev The keys of players 0 and 1 (setUp derives their addresses from these).
    uint256 internal constant PLAYER_KEY_BASE = 0x9100;
    bytes32 internal constant TICKET_REF_TYPEHASH = keccak256("TicketRef(uint256 roundId,uint256 ticketId)");
    bytes32 internal constant CLAIM_INTENT_TYPEHASH = keccak256(
        "ClaimIntent(address raffle,address holder,TicketRef[] tickets,uint256 deadline)TicketRef(uint256 roundId,uint256 ticketId)"
    );
    bytes32 internal constant REFUND_INTENT_TYPEHASH = keccak256(
        "RefundIntent(address raffle,address holder,TicketRef[] tickets,uint256 deadline)TicketRef(uint256 roundId,uint256 ticketId)"
    );

    /// @dev Sends a claim or refund of `refs` on raffle `r` as `caller` would (`direct`), or, for a player whose key the
    /// harness holds and one batch in three, relayed without gas: the player signs the intent (`typehash`) and the
    /// stranger submits it to the Exchange, which must settle exactly as the player's own call.
    function _settle(uint256 r, bytes32 typehash, TicketRef[] memory refs, address caller, bytes memory direct)
        internal
        returns (bool ok, bytes4 err)
    {
        bool mayRelay = caller == players[0] || caller == players[1];
        if (!mayRelay || uint256(keccak256(direct)) % 3 != 0) return _call(caller, address(raffles[r]), 0, direct);
        (ok, err) = _call(stranger, address(exchange), 0, _relayedCall(r, typehash, refs, caller));
        string memory kind = typehash == CLAIM_INTENT_TYPEHASH ? "claim" : "refund";
        _count(string.concat(kind, ok ? ".relayed" : ".relayed.rejected"));
    }

    /// @dev The Exchange call a relayer submits for `holder`'s signed intent, valid for an hour.
    function _relayedCall(uint256 r, bytes32 typehash, TicketRef[] memory refs, address holder)
        internal
        view
        returns (bytes memory)
    {
        bytes32[] memory hashes = new bytes32[](refs.length);
        for (uint256 i = 0; i < refs.length; i++) {
            hashes[i] = keccak256(abi.encode(TICKET_REF_TYPEHASH, refs[i].roundId, refs[i].ticketId));
        }
        uint256 deadline = block.timestamp + 1 hours;
        bytes32 structHash =
            keccak256(abi.encode(typehash, address(raffles[r]), holder, keccak256(abi.encodePacked(hashes)), deadline));
        uint256 key = PLAYER_KEY_BASE + (holder == players[0] ? 0 : 1);
        (uint8 v, bytes32 sr, bytes32 ss) = vm.sign(key, keccak256(abi.encodePacked("\x19\x01", domainSeparator, structHash)));
        bytes4 selector =
            typehash == CLAIM_INTENT_TYPEHASH ? IExchange.claimPrizesBySig.selector : IExchange.refundTicketsBySig.selector;
        return abi.encodeWithSelector(selector, address(raffles[r]), refs, holder, deadline, abi.encodePacked(sr, ss, v));
    }

    function _person(uint256 seed) internal view returns (address) {
        uint256 i = seed % 7;
        if (i < 4) return players[i];
        if (i == 4) return stranger;
        return beneficiaries[i - 5];
    }

    function _isWallet(address account) internal view returns (bool) {
        return account == players[2] || account == players[3];
    }

    function _isManager(uint256 r, address caller) internal view returns (bool) {
        return caller == merchants[r] || (caller == hotKeys[r] && hotKeyGranted[r]);
    }

    function _ticketAsset(uint256 r) internal view returns (Asset memory) {
        return Asset({tokenType: TokenType.ERC721, token: address(tickets[r]), tokenId: 0, amount: 1});
    }

    /// @dev The pricing rule, written from its statement: each ticket of a purchase of `quantity` costs the price per
    /// ticket of the largest bundle of at most `quantity` tickets, or the round's price when there is none.
    function _perTicket(uint256 r, uint256 roundId, uint256 quantity) internal view returns (uint256 price) {
        RoundG storage g = rounds[r][roundId];
        RulesG storage rules = rulesG[r][g.version];
        price = g.price;
        uint256 best;
        for (uint256 i = 0; i < rules.bundleQuantity.length; i++) {
            uint256 q = rules.bundleQuantity[i];
            if (q <= quantity && q > best) {
                best = q;
                price = rules.bundlePrice[i] / q;
            }
        }
    }

    /// @dev Tickets a round needs to be drawn: its minimum, and one per winner position.
    function _required(uint256 r, uint256 roundId) internal view returns (uint256) {
        RoundG storage g = rounds[r][roundId];
        uint256 minimum = rulesG[r][g.version].minTickets;
        return minimum > g.winnersCount ? minimum : g.winnersCount;
    }

    /// @dev What position `position` of a drawn round pays before commission: its share of the pot rounded down,
    /// the first position taking what the others' rounding leaves.
    function _prizeOf(uint256 r, uint256 roundId, uint256 position) internal view returns (uint256) {
        RoundG storage g = rounds[r][roundId];
        uint16[] storage shares = rulesG[r][g.version].shares;
        if (position != 0) return g.pot * shares[position] / BPS;
        uint256 others;
        for (uint256 i = 1; i < shares.length; i++) others += g.pot * shares[i] / BPS;
        return g.pot - others;
    }

    /// @dev The position of a winning ticket of a drawn round, or MAX_WINNERS when it did not win.
    function _positionOf(uint256 r, uint256 roundId, uint256 ticketId) internal view returns (uint256) {
        RoundG storage g = rounds[r][roundId];
        if (g.winners == 0) return MAX_WINNERS;
        for (uint256 i = 0; i < g.winnersCount; i++) {
            if (winnersG[r][roundId][i] == ticketId) return i;
        }
        return MAX_WINNERS;
    }

    function _roundPrice(uint256 r) internal view returns (Asset memory) {
        RoundG storage g = rounds[r][lastRound[r]];
        return Asset({
            tokenType: g.token == address(0) ? TokenType.NATIVE : TokenType.ERC20,
            token: g.token,
            tokenId: 0,
            amount: g.price
        });
    }

    /// @dev The platform's draw budget as the factory applies it now: an announced cut counts from its date.
    function _budgetNow() internal view returns (uint256) {
        return pendingDrawsAt != 0 && block.timestamp >= pendingDrawsAt ? pendingDrawsPerDay : drawsPerDay;
    }

    function _coordinatorAddress(uint256 index) internal view returns (address) {
        return index == BURNER ? burner : address(coordinators[index]);
    }

    function _coordinatorIndex(address coordinator) internal view returns (uint256) {
        return coordinator == address(coordinators[0]) ? 0 : 1;
    }

    // ------------------------------------------------------------------ vouchers

    function _hashAsset(Asset memory a) internal pure returns (bytes32) {
        return keccak256(abi.encode(ASSET_TYPEHASH, uint256(a.tokenType), a.token, a.tokenId, a.amount));
    }

    function _hashParams(Params memory p) internal pure returns (bytes32) {
        return keccak256(
            abi.encode(PARAMS_TYPEHASH, p.externalId, p.expiresAt, p.nonce, p.extra, p.receiver, p.referrer)
        );
    }

    /// @dev The EIP-712 digest, written independently of VoucherHashing.sol.
    function _digest(Voucher memory v) internal view returns (bytes32) {
        bytes32 structHash = keccak256(
            abi.encode(PURCHASE_TYPEHASH, v.account, _hashParams(v.params), _hashAsset(v.item), _hashAsset(v.price))
        );
        return keccak256(abi.encodePacked("\x19\x01", domainSeparator, structHash));
    }

    function _sign(Voucher memory v) internal view {
        (uint8 sv, bytes32 sr, bytes32 ss) = vm.sign(v.signerKey, _digest(v));
        v.signature = abi.encodePacked(sr, ss, sv);
    }

    function _newNonce(uint256 seed) internal returns (bytes32) {
        nonceCounter += 1;
        // Mostly consecutive nonces (they share bitmap words, as the API hands them out), sometimes anywhere.
        if (seed % 4 == 0) return keccak256(abi.encode("nonce", nonceCounter, seed));
        return bytes32(uint256(0xA000) + nonceCounter);
    }

    /// @dev A quantity for a purchase: mostly one ticket, often a few or a bundle's quantity, sometimes many.
    function _quantity(uint256 r, uint256 seed) internal view returns (uint256) {
        uint256 pick = seed % 16;
        if (pick < 7) return 1;
        if (pick < 11) return 2 + (seed >> 8) % 4;
        RulesG storage rules = rulesG[r][rounds[r][lastRound[r]].version];
        if (pick < 14 && rules.bundleQuantity.length != 0) {
            return rules.bundleQuantity[(seed >> 8) % rules.bundleQuantity.length] + (seed >> 16) % 2;
        }
        return 1 + (seed >> 8) % 30;
    }

    /// @dev A valid voucher for the current round of raffle `r`, signed now by the current signer.
    function _validVoucher(uint256 r, address account, uint256 seed) internal returns (Voucher memory v) {
        v.account = account;
        v.raffle = r;
        v.params = Params({
            externalId: seed % 1_000_000,
            expiresAt: block.timestamp + _bound(seed >> 20, 1, 2 days),
            nonce: _newNonce(seed >> 40),
            extra: bytes32(seed),
            receiver: address(raffles[r]),
            referrer: (seed >> 60) % 3 == 0 ? players[(seed >> 70) % 4] : address(0)
        });
        v.item = _ticketAsset(r);
        v.price = _roundPrice(r);
        v.item.amount = _quantity(r, seed >> 90);
        if (lastRound[r] != 0) v.price.amount = _perTicket(r, lastRound[r], v.item.amount) * v.item.amount;
        v.signerKey = signerKeys[signerIdx];
    }

    function _value(Voucher memory v) internal pure returns (uint256) {
        return v.price.tokenType == TokenType.NATIVE ? v.price.amount : 0;
    }

    /// @dev What purchaseRaffle must do with voucher `v` sent by `sender` with `value`, in the contracts' order of
    /// checks: Exchange (pause, expiry, nonce, signer, payment), then Raffle.printTicket, then the ticket's mint.
    function _expectPurchase(Voucher memory v, address sender, uint256 value)
        internal
        view
        returns (bool ok, bytes4 err, uint256 category)
    {
        if (exchangePaused) return (false, ENFORCED_PAUSE, TICKETS);
        if (v.params.expiresAt == 0) return (false, IExchange.ExpiryMissing.selector, VOUCHER);
        if (block.timestamp > v.params.expiresAt) return (false, IExchange.SignatureExpired.selector, VOUCHER);
        if (nonceUses[v.params.nonce] != 0) return (false, IExchange.NonceAlreadyUsed.selector, VOUCHER);
        if (sender != v.account || v.signerKey != signerKeys[signerIdx]) {
            return (false, IExchange.InvalidSigner.selector, VOUCHER);
        }
        if (v.price.tokenType == TokenType.NATIVE) {
            if (value != v.price.amount) return (false, IExchange.WrongPaymentValue.selector, TICKETS);
        } else {
            if (value != 0) return (false, IExchange.WrongPaymentValue.selector, TICKETS);
            // The payment itself: a blocked buyer cannot pay; the collectible is no ERC20 at all.
            if (_isBlocked(v.price.token, sender) || v.price.token == tokens[COLLECTIBLE]) {
                return (false, ANY_ERROR, TICKETS);
            }
            // The Exchange measures what reached the raffle: a token that delivers short is refused there.
            if ((v.price.token == tokens[FEE] && v.price.amount >= 100) || v.price.token == tokens[SHORT]) {
                return (false, IExchange.PaymentShort.selector, TICKETS);
            }
        }
        uint256 r = v.raffle;
        if (v.params.receiver != address(raffles[r])) return (false, ANY_ERROR, TICKETS);
        if (rafflePaused[r]) return (false, IRaffle.RafflePaused.selector, TICKETS);
        if (!roundActive[r]) return (false, IRaffle.NoActiveRound.selector, TICKETS);
        Asset memory item = _ticketAsset(r);
        if (v.item.tokenType != item.tokenType || v.item.token != item.token || v.item.tokenId != 0) {
            return (false, IRaffle.InvalidTicketAsset.selector, TICKETS);
        }
        uint256 quantity = v.item.amount;
        if (quantity == 0 || quantity > MAX_PER_PURCHASE) return (false, IRaffle.InvalidQuantity.selector, TICKETS);
        Asset memory price = _roundPrice(r);
        price.amount = _perTicket(r, lastRound[r], quantity) * quantity;
        if (keccak256(abi.encode(v.price)) != keccak256(abi.encode(price))) {
            return (false, IRaffle.PriceMismatch.selector, TICKETS);
        }
        return _expectRoom(r, v.account, quantity);
    }

    /// @dev The round has `quantity` tickets left to sell, and the buyer's cap allows them.
    function _expectRoom(uint256 r, address buyer, uint256 quantity)
        internal
        view
        returns (bool ok, bytes4 err, uint256 category)
    {
        RoundG storage g = rounds[r][lastRound[r]];
        uint256 left = (g.maxTicket == 0 ? type(uint32).max : g.maxTicket) - g.tickets;
        if (quantity > left) return (false, IRaffle.RoundFull.selector, TICKETS);
        uint256 cap = rulesG[r][g.version].cap;
        if (cap != 0 && boughtG[r][lastRound[r]][buyer] + quantity > cap) {
            return (false, IRaffle.WalletLimitReached.selector, TICKETS);
        }
        return (true, ANY_ERROR, TICKETS);
    }

    /// @dev A round of a random raffle, preferably in `status`; (r, 0) when the raffle has no round.
    function _pickRound(uint256 raffleSeed, uint256 roundSeed, uint8 status) internal view returns (uint256, uint256) {
        uint256 r = raffleSeed % 2;
        uint256 n = lastRound[r];
        if (n == 0) return (r, 0);
        // Mostly a round in the wanted status; one call in five (or when there is none, one in three) any round,
        // for the refusals.
        if (roundSeed % 5 != 0) {
            for (uint256 i = 0; i < n; i++) {
                uint256 id = 1 + (roundSeed % n + i) % n;
                if (rounds[r][id].status == status) return (r, id);
            }
            if ((roundSeed >> 8) % 3 != 0) return (r, 0);
        }
        return (r, 1 + roundSeed % n);
    }
}
