// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IAccessControl} from "@openzeppelin/contracts/access/IAccessControl.sol";
import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";

import {vm} from "./utils/Vm.sol";
import {FakeCoordinator, IExchangeX, IRaffleFactoryX, IRaffleTicketX, IRaffleX, ITokenX, IVRFMock} from "./utils/Interfaces.sol";
import {HandlerBase, Platform, RoundG, RulesG, TicketG, Voucher} from "./HandlerBase.sol";
import {Checks} from "./Checks.sol";
import {Asset, Params, TokenType} from "../src/libraries/Assets.sol";
import {Bundle, IRaffle, RoundRules, RoundStatus, RoundView, TicketRef, VrfConfig} from "../src/interfaces/IRaffle.sol";
import {IRaffleFactory, RaffleConfig} from "../src/interfaces/IRaffleFactory.sol";
import {IExchange} from "../src/interfaces/IExchange.sol";
import {IRaffleTicket} from "../src/interfaces/IRaffleTicket.sol";

/// @notice The actors of the platform, as one fuzz target: players, merchants (honest and hostile), the VRF
/// coordinators, the platform admin, anyone, and time. Every action predicts its outcome from the model (ghost
/// state), performs the call as its actor, and records any disagreement as a violation that the invariants report.
/// Nothing here reverts on purpose: the suite runs with fail_on_revert, so a revert is a harness bug.
contract Handler is Checks {
    constructor(Platform memory p) {
        admin = p.admin;
        exchange = p.exchange;
        factory = p.factory;
        coordinators = p.coordinators;
        burner = p.burner;
        subscriptions = p.subscriptions;
        tokens = p.tokens;
        raffles = p.raffles;
        merchants = p.merchants;
        hotKeys = p.hotKeys;
        signerKeys = p.signerKeys;
        for (uint256 k = 0; k < 3; k++) signers[k] = vm.addr(p.signerKeys[k]);
        players = p.players;
        stranger = p.stranger;
        beneficiaries = p.beneficiaries;
        for (uint256 r = 0; r < 2; r++) {
            tickets[r] = IRaffleTicketX(address(p.raffles[r].ticketContract()));
            beneficiary[r] = p.merchants[r];
            // Version 0, the rules every raffle is born with: one winner takes the pot.
            rulesG[r][0].shares.push(uint16(BPS));
            rulesCount[r] = 1;
        }
        for (uint256 t = 1; t <= BLOCK; t++) listed[p.tokens[t]] = true;
        vrf = VrfG({coordinator: 0, timeout: p.vrfTimeout, gas: p.vrfGas});
        roundManagerRole = p.raffles[0].ROUND_MANAGER_ROLE();
        fakeCoordinator = new FakeCoordinator();
        domainSeparator = keccak256(
            abi.encode(
                keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"),
                keccak256("EXCHANGE"),
                keccak256("1.0.0"),
                block.chainid,
                address(p.exchange)
            )
        );
    }

    // ================================================================== players

    /// @notice A purchase with a fresh voucher (of one or several tickets): one of the ways a voucher is misused
    /// (modes 1-11), kept for later
    /// (12), or valid (0, 13-15).
    function buy(uint256 actorSeed, uint256 raffleSeed, uint256 modeSeed) external step {
        actorSeed = _h(actorSeed);
        raffleSeed = _h(raffleSeed);
        modeSeed = _h(modeSeed);
        _buy(actorSeed, raffleSeed, modeSeed % 16);
    }

    /// @notice A purchase with a fresh valid voucher (weights purchases up in the mix).
    function buyValid(uint256 actorSeed, uint256 raffleSeed) external step {
        actorSeed = _h(actorSeed);
        raffleSeed = _h(raffleSeed);
        _buy(actorSeed, raffleSeed, 0);
    }

    function buyValidAgain(uint256 actorSeed, uint256 raffleSeed) external step {
        actorSeed = _h(actorSeed);
        raffleSeed = _h(raffleSeed);
        _buy(actorSeed, raffleSeed, 0);
    }

    function _buy(uint256 actorSeed, uint256 raffleSeed, uint256 mode) internal {
        uint256 r = raffleSeed % 2;
        if (lastRound[r] == 0) return;
        address player = players[actorSeed % 4];
        Voucher memory v = _validVoucher(r, player, actorSeed ^ raffleSeed);
        address sender = player;
        uint256 value = _value(v);
        string memory what = "purchase";
        if (mode == 1) {
            v.params.expiresAt = block.timestamp - 1;
            what = "purchase with an expired voucher";
        } else if (mode == 2 && usedNonces.length != 0) {
            v.params.nonce = usedNonces[(actorSeed >> 8) % usedNonces.length];
            what = "purchase reusing a spent nonce";
        } else if (mode == 3) {
            v.price.amount += 1 + (raffleSeed % 3);
            if (v.price.tokenType == TokenType.NATIVE) value = v.price.amount;
            what = "purchase at a wrong price";
        } else if (mode == 4) {
            // The voucher names a price in another token, listed or hostile.
            uint256 t = 1 + ((actorSeed >> 16) % 6);
            v.price = Asset({tokenType: TokenType.ERC20, token: tokens[t], tokenId: 0, amount: v.price.amount});
            value = 0;
            what = "purchase priced in another token";
        } else if (mode == 5) {
            v.signerKey = signerKeys[(signerIdx + 1 + (actorSeed >> 12) % 2) % 3];
            what = "purchase with a voucher of a rotated-out signer";
        } else if (mode == 6) {
            v.signerKey = uint256(keccak256(abi.encode("not a signer", actorSeed)));
            what = "purchase with a voucher signed by a stranger";
        } else if (mode == 7) {
            sender = players[(actorSeed % 4 + 1 + (raffleSeed >> 8) % 3) % 4];
            what = "purchase with another player's voucher";
        } else if (mode == 8) {
            value = v.price.tokenType == TokenType.NATIVE ? value + 1 : 1;
            what = "purchase with a wrong msg.value";
        } else if (mode == 9) {
            v.item = _ticketAsset(1 - r);
            what = "purchase of the other raffle's ticket";
        } else if (mode == 10) {
            v.params.expiresAt = 0;
            what = "purchase with a voucher without expiry";
        } else if (mode == 11) {
            // No tickets, or more than one purchase may buy, at that many times the round's price.
            v.item.amount = actorSeed % 2 == 0 ? 0 : MAX_PER_PURCHASE + 1;
            v.price.amount = _roundPrice(r).amount * v.item.amount;
            if (v.price.tokenType == TokenType.NATIVE) value = v.price.amount;
            what = "purchase of no tickets or too many";
        }
        _sign(v);
        if (mode == 12) {
            // Kept for later: by then its round, price, signer or expiry may have changed.
            stash.push(v);
            _count("voucher.stashed");
            return;
        }
        _purchase(v, sender, value, what, mode);
    }

    /// @notice Submits a voucher signed earlier (possibly before a signer rotation, a new round or its expiry).
    function useStashed(uint256 seed, uint256 senderSeed) external step {
        seed = _h(seed);
        senderSeed = _h(senderSeed);
        if (stash.length == 0) return;
        uint256 i = seed % stash.length;
        Voucher memory v = stash[i];
        stash[i] = stash[stash.length - 1];
        stash.pop();
        address sender = senderSeed % 5 == 0 ? players[senderSeed % 4] : v.account;
        _purchase(v, sender, _value(v), "purchase with a stored voucher", 100);
    }

    function _purchase(Voucher memory v, address sender, uint256 value, string memory what, uint256 mode) internal {
        (bool expectOk, bytes4 expectErr, uint256 category) = _expectPurchase(v, sender, value);
        uint256 before = _balance(v.price.token, address(raffles[v.raffle]));
        (bool ok, bytes4 err) = _call(sender, address(exchange), value, _purchaseData(v));
        _count(ok ? "buy.ok" : _buyFailureName(expectErr, mode));
        _checkOutcome(category, what, expectOk, expectErr, ok, err);
        if (ok) _bookPurchase(v, sender, before);
    }

    function _purchaseData(Voucher memory v) internal pure returns (bytes memory) {
        return abi.encodeCall(IExchange.purchaseRaffle, (v.params, v.item, v.price, v.signature));
    }

    /// @dev Bought: the next `quantity` ticket ids of this raffle, owned by the buyer, of the active round, each at
    /// the price its rules give, paid in full.
    function _bookPurchase(Voucher memory v, address sender, uint256 before) internal {
        uint256 r = v.raffle;
        bytes32 nonce = v.params.nonce;
        nonceUses[nonce] += 1;
        if (nonceUses[nonce] == 1) usedNonces.push(nonce);
        else _violate(VOUCHER, "a nonce was used twice");
        uint256 roundId = lastRound[r];
        RoundG storage g = rounds[r][roundId];
        uint256 quantity = v.item.amount;
        uint256 perTicket = _perTicket(r, roundId, quantity);
        if (v.price.amount != perTicket * quantity) _violate(TICKETS, "a purchase was priced other than its rules");
        uint256 first = lastTicket[r] + 1;
        for (uint256 i = 0; i < quantity; i++) {
            ticketsG[r][first + i] = TicketG({round: uint64(roundId), paid: uint128(perTicket), payouts: 0, payoutKind: 0});
        }
        lastTicket[r] += quantity;
        g.tickets += uint32(quantity);
        g.pot += perTicket * quantity;
        boughtG[r][roundId][sender] += quantity;
        owed[r][g.token] += perTicket * quantity;
        if (quantity > 1) _count("buy.manyTickets");
        if (tickets[r].ownerOf(first) != sender || tickets[r].ownerOf(first + quantity - 1) != sender) {
            _violate(TICKETS, "the tickets minted are not the buyer's");
        }
        if (_balance(g.token, address(raffles[r])) != before + perTicket * quantity) {
            _violate(SOLVENCY, "the raffle did not receive exactly the price");
        }
    }

    function _buyFailureName(bytes4 expectErr, uint256 mode) internal pure returns (string memory) {
        if (mode == 100) return "buy.storedRejected";
        if (expectErr == ENFORCED_PAUSE) return "buy.rejected.exchangePaused";
        if (expectErr == IRaffle.RafflePaused.selector) return "buy.rejected.rafflePaused";
        if (expectErr == IRaffle.NoActiveRound.selector) return "buy.rejected.noActiveRound";
        if (expectErr == IRaffle.RoundFull.selector) return "buy.rejected.roundFull";
        if (expectErr == IRaffle.WalletLimitReached.selector) return "buy.rejected.walletLimit";
        if (expectErr == IRaffle.InvalidQuantity.selector) return "buy.rejected.quantity";
        if (expectErr == IExchange.SignatureExpired.selector) return "buy.rejected.expired";
        if (expectErr == IExchange.NonceAlreadyUsed.selector) return "buy.rejected.nonceReused";
        if (expectErr == IExchange.InvalidSigner.selector) return "buy.rejected.badSigner";
        if (expectErr == IRaffle.PriceMismatch.selector) return "buy.rejected.wrongPrice";
        if (expectErr == IExchange.WrongPaymentValue.selector) return "buy.rejected.wrongValue";
        return "buy.rejected.other";
    }

    /// @notice A ticket changes hands (sold or given), by its owner or an approved operator, or a stranger tries.
    function transferTicket(uint256 raffleSeed, uint256 idSeed, uint256 toSeed) external step {
        raffleSeed = _h(raffleSeed);
        idSeed = _h(idSeed);
        toSeed = _h(toSeed);
        uint256 r = raffleSeed % 2;
        if (lastTicket[r] == 0) return;
        uint256 ticketId = 1 + idSeed % lastTicket[r];
        if (!_exists(r, ticketId)) return;
        address owner = _ownerOf(r, ticketId);
        address to = _person(toSeed);
        address caller = toSeed % 9 == 0 ? stranger : owner;
        if (caller == stranger && to == stranger) return;
        bool expectOk = _mayActFor(r, ticketId, caller);
        (bool ok, bytes4 err) =
            _call(caller, address(tickets[r]), 0, abi.encodeCall(IERC721.transferFrom, (owner, to, ticketId)));
        _count(ok ? "ticket.transferred" : "ticket.transferDenied");
        _checkOutcome(ACCESS, "ticket transfer", expectOk, ANY_ERROR, ok, err);
    }

    /// @notice The owner of a ticket approves an operator for it, or for all its tickets (or revokes that).
    function approveTicket(uint256 raffleSeed, uint256 idSeed, uint256 operatorSeed) external step {
        raffleSeed = _h(raffleSeed);
        idSeed = _h(idSeed);
        operatorSeed = _h(operatorSeed);
        uint256 r = raffleSeed % 2;
        if (lastTicket[r] == 0) return;
        uint256 ticketId = 1 + idSeed % lastTicket[r];
        if (!_exists(r, ticketId)) return;
        address owner = _ownerOf(r, ticketId);
        address operator = _person(operatorSeed);
        if (operator == owner) return;
        bool ok;
        if (operatorSeed % 2 == 0) {
            (ok,) = _call(owner, address(tickets[r]), 0, abi.encodeCall(IERC721.approve, (operator, ticketId)));
        } else {
            bool all = !tickets[r].isApprovedForAll(owner, operator);
            (ok,) = _call(owner, address(tickets[r]), 0, abi.encodeCall(IERC721.setApprovalForAll, (operator, all)));
        }
        if (!ok) _violate(ACCESS, "a ticket owner could not approve an operator");
        _count("ticket.approved");
    }

    /// @notice Someone claims prizes in one call, of one or several drawn rounds: a winner, an operator, a stranger or
    /// the merchant; sometimes naming a ticket that did not win, or the same prize twice.
    function claimPrize(uint256 raffleSeed, uint256 roundSeed, uint256 callerSeed) external step {
        raffleSeed = _h(raffleSeed);
        roundSeed = _h(roundSeed);
        callerSeed = _h(callerSeed);
        (uint256 r, uint256 roundId) = _pickRound(raffleSeed, roundSeed, S_DRAWN);
        if (roundId == 0) return;
        TicketRef[] memory refs = new TicketRef[](1 + callerSeed % 3);
        for (uint256 i = 0; i < refs.length; i++) {
            uint256 seed = _h(roundSeed + i);
            if (i != 0 && seed % 3 == 0) (, roundId) = _pickRound(r, seed >> 8, S_DRAWN);
            refs[i] = TicketRef({roundId: roundId, ticketId: _prizeTicket(r, roundId, seed)});
            if (i != 0 && seed % 11 == 0) refs[i] = refs[i - 1]; // the same prize twice in one call
        }
        _claim(r, refs, _claimCaller(r, refs[0], callerSeed));
    }

    /// @dev Mostly a winning ticket of the round whose prize is unclaimed; sometimes any of its winners or tickets.
    function _prizeTicket(uint256 r, uint256 roundId, uint256 seed) internal view returns (uint256) {
        RoundG storage g = rounds[r][roundId];
        if (g.winners != 0 && seed % 8 != 0) {
            for (uint256 i = 0; i < g.winnersCount; i++) {
                uint256 position = (seed >> 8) % g.winnersCount;
                position = (position + i) % g.winnersCount;
                if (g.claimedMask & (uint32(1) << position) == 0 || seed % 5 == 0) return winnersG[r][roundId][position];
            }
        }
        if (g.tickets == 0) return 1 + (seed >> 16) % (lastTicket[r] + 1);
        return g.firstTicketId + (seed >> 16) % g.tickets;
    }

    function _claimCaller(uint256 r, TicketRef memory ref, uint256 seed) internal view returns (address) {
        uint256 ticketId = ref.ticketId;
        uint256 pick = seed % 10;
        bool held = _exists(r, ticketId);
        if (held && pick < 5) return _ownerOf(r, ticketId);
        if (held && pick < 7) {
            // An operator the owner approved, for this ticket or for all its tickets, if there is one.
            address approved = tickets[r].getApproved(ticketId);
            if (approved != address(0)) return approved;
            address owner = _ownerOf(r, ticketId);
            for (uint256 i = 0; i < 7; i++) {
                if (tickets[r].isApprovedForAll(owner, _person(i))) return _person(i);
            }
        }
        if (pick < 8) return _person(seed >> 8);
        if (pick == 8) return merchants[r];
        return stranger;
    }

    /// @dev What `claimPrizes(refs)` by `caller` must do, walking the batch as the contract does: the first ticket
    /// that cannot be paid reverts the whole call.
    function _expectClaims(uint256 r, TicketRef[] memory refs, address caller) internal view returns (bytes4 err, bool ok) {
        for (uint256 i = 0; i < refs.length; i++) {
            RoundG storage g = rounds[r][refs[i].roundId];
            uint256 position = _positionOf(r, refs[i].roundId, refs[i].ticketId);
            uint32 mask = g.claimedMask;
            for (uint256 j = 0; j < i; j++) {
                if (refs[j].roundId == refs[i].roundId) {
                    mask |= uint32(1) << _positionOf(r, refs[j].roundId, refs[j].ticketId);
                }
            }
            bool allClaimed = g.status == S_DRAWN && mask == (uint32(1) << g.winnersCount) - 1;
            if (g.status != S_DRAWN || allClaimed) return (IRaffle.UnexpectedRoundStatus.selector, false);
            if (position == MAX_WINNERS || mask & (uint32(1) << position) != 0) return (IRaffle.NoPrizeToClaim.selector, false);
            if (!_mayActFor(r, refs[i].ticketId, caller)) return (IRaffle.NotTicketOwnerOrApproved.selector, false);
            if (_isBlocked(g.token, _ownerOf(r, refs[i].ticketId))) return (ANY_ERROR, false);
        }
        return (ANY_ERROR, true);
    }

    function _claim(uint256 r, TicketRef[] memory refs, address caller) internal returns (bool ok) {
        (bytes4 expectErr, bool expectOk) = _expectClaims(r, refs, caller);
        address[] memory owners = new address[](refs.length);
        uint256[] memory before = new uint256[](refs.length);
        for (uint256 i = 0; expectOk && i < refs.length; i++) {
            owners[i] = _ownerOf(r, refs[i].ticketId);
            before[i] = _balance(rounds[r][refs[i].roundId].token, owners[i]);
        }
        bytes4 err;
        (ok, err) = _call(caller, address(raffles[r]), 0, abi.encodeCall(IRaffle.claimPrizes, (refs)));
        _count(ok ? (refs.length > 1 ? "claim.batch" : "claim.ok") : expectErr == IRaffle.NoPrizeToClaim.selector ? "claim.rejected.noPrize" : "claim.rejected.drawn");
        if (ok && refs.length > 1) _count("claim.ok");
        _checkOutcome(PAYOUT, "claimPrizes", expectOk, expectErr, ok, err);
        if (!ok || !expectOk) return ok;
        uint256[] memory paid = new uint256[](refs.length);
        for (uint256 i = 0; i < refs.length; i++) paid[i] = _bookClaim(r, refs[i]);
        _checkPaid(r, refs, owners, before, paid, "a winner was not paid exactly its share less commission");
    }

    /// @dev Books one claimed prize: its position's amount, less commission to the owner, the commission accrued.
    function _bookClaim(uint256 r, TicketRef memory ref) internal returns (uint256 paid) {
        RoundG storage g = rounds[r][ref.roundId];
        uint256 position = _positionOf(r, ref.roundId, ref.ticketId);
        uint256 amount = _prizeOf(r, ref.roundId, position);
        uint256 fee = amount * raffles[r].commission() / BPS;
        paid = amount - fee;
        g.claimedMask |= uint32(1) << position;
        g.claimedAmount += amount;
        g.commissionTaken += fee;
        if (g.claimedMask == (uint32(1) << g.winnersCount) - 1) g.status = S_CLAIMED;
        _payTicket(r, ref.ticketId, 1);
        owed[r][g.token] -= paid;
        accrued[r][g.token] += fee;
        commissionTotal[r][g.token] += fee;
        claimedPots[r][g.token] += amount;
        if (fee * BPS > amount * MAX_COMMISSION) _violate(COMMISSION, "a claim took more commission than the cap");
    }

    /// @dev Each distinct (owner, token) of a batch received exactly the sum the batch owed it.
    function _checkPaid(
        uint256 r,
        TicketRef[] memory refs,
        address[] memory owners,
        uint256[] memory before,
        uint256[] memory paid,
        string memory why
    ) internal {
        for (uint256 i = 0; i < refs.length; i++) {
            address token = rounds[r][refs[i].roundId].token;
            bool seen;
            uint256 expected;
            for (uint256 j = 0; j < refs.length; j++) {
                if (owners[j] != owners[i] || rounds[r][refs[j].roundId].token != token) continue;
                if (j < i) seen = true;
                expected += paid[j];
            }
            if (!seen && _balance(token, owners[i]) != before[i] + expected) _violate(PAYOUT, why);
        }
    }

    /// @notice Someone asks for refunds of tickets in one call: their owner, an operator or a stranger; sometimes
    /// naming a ticket with the wrong round, a burnt ticket, or the same ticket twice.
    function refundTicket(uint256 raffleSeed, uint256 roundSeed, uint256 ticketSeed) external step {
        raffleSeed = _h(raffleSeed);
        roundSeed = _h(roundSeed);
        ticketSeed = _h(ticketSeed);
        (uint256 r, uint256 roundId) = _pickRound(raffleSeed, roundSeed, S_REFUNDABLE);
        if (roundId == 0 && lastTicket[r] == 0) return;
        TicketRef[] memory refs = new TicketRef[](1 + ticketSeed % 3);
        for (uint256 i = 0; i < refs.length; i++) {
            uint256 seed = _h(ticketSeed + i);
            uint256 ticketId;
            RoundG storage g = rounds[r][roundId];
            if (roundId != 0 && g.tickets != 0 && seed % 6 != 0) ticketId = g.firstTicketId + (seed >> 8) % g.tickets;
            else ticketId = 1 + (seed >> 8) % (lastTicket[r] == 0 ? 1 : lastTicket[r]);
            uint256 named = seed % 13 == 0 ? 1 + (seed >> 32) % (lastRound[r] + 1) : ticketsG[r][ticketId].round;
            refs[i] = TicketRef({roundId: named, ticketId: ticketId});
            if (i != 0 && seed % 11 == 0) refs[i] = refs[i - 1]; // the same ticket twice in one call
        }
        address caller;
        if (_exists(r, refs[0].ticketId) && ticketSeed % 5 != 0) caller = _ownerOf(r, refs[0].ticketId);
        else caller = _person(ticketSeed >> 8);
        _refund(r, refs, caller);
    }

    function _expectRefunds(uint256 r, TicketRef[] memory refs, address caller)
        internal
        view
        returns (bytes4 err, bool ok)
    {
        for (uint256 i = 0; i < refs.length; i++) {
            RoundG storage g = rounds[r][refs[i].roundId];
            uint256 ticketId = refs[i].ticketId;
            if (refs[i].roundId > lastRound[r] || g.status != S_REFUNDABLE) {
                return (IRaffle.UnexpectedRoundStatus.selector, false);
            }
            if (ticketId < g.firstTicketId || ticketId >= uint256(g.firstTicketId) + g.tickets) {
                return (IRaffle.TicketNotInRound.selector, false);
            }
            bool burntInBatch;
            for (uint256 j = 0; j < i; j++) {
                if (refs[j].ticketId == ticketId) burntInBatch = true;
            }
            if (!_exists(r, ticketId) || burntInBatch) return (NONEXISTENT_TOKEN, false);
            if (!_mayActFor(r, ticketId, caller)) return (IRaffle.NotTicketOwnerOrApproved.selector, false);
            if (_isBlocked(g.token, _ownerOf(r, ticketId))) return (ANY_ERROR, false);
        }
        return (ANY_ERROR, true);
    }

    function _refund(uint256 r, TicketRef[] memory refs, address caller) internal returns (bool ok) {
        (bytes4 expectErr, bool expectOk) = _expectRefunds(r, refs, caller);
        address[] memory owners = new address[](refs.length);
        uint256[] memory before = new uint256[](refs.length);
        uint256[] memory paid = new uint256[](refs.length);
        for (uint256 i = 0; expectOk && i < refs.length; i++) {
            owners[i] = _ownerOf(r, refs[i].ticketId);
            before[i] = _balance(rounds[r][refs[i].roundId].token, owners[i]);
            paid[i] = ticketsG[r][refs[i].ticketId].paid;
        }
        bytes4 err;
        (ok, err) = _call(caller, address(raffles[r]), 0, abi.encodeCall(IRaffle.refundTickets, (refs)));
        _count(ok ? (refs.length > 1 ? "refund.batch" : "refund.ok") : "refund.rejected");
        if (ok && refs.length > 1) _count("refund.ok");
        _checkOutcome(PAYOUT, "refundTickets", expectOk, expectErr, ok, err);
        if (!ok || !expectOk) return ok;
        for (uint256 i = 0; i < refs.length; i++) {
            RoundG storage g = rounds[r][refs[i].roundId];
            g.refunded += 1;
            g.refundedAmount += paid[i];
            if (g.refundReason == 0) _violate(PAYOUT, "a ticket was refunded from a round with no reason to refund");
            if (g.refundReason == 1) _count("refund.belowMinimum");
            _payTicket(r, refs[i].ticketId, 3);
            owed[r][g.token] -= paid[i];
            try tickets[r].ownerOf(refs[i].ticketId) returns (address) {
                _violate(PAYOUT, "a refunded ticket was not burnt");
            } catch {}
        }
        _checkPaid(r, refs, owners, before, paid, "a refund did not pay exactly what the ticket paid");
    }

    /// @dev One ticket of round `roundId`, for the settlement and the stories.
    function _one(uint256 roundId, uint256 ticketId) internal pure returns (TicketRef[] memory refs) {
        refs = new TicketRef[](1);
        refs[0] = TicketRef({roundId: roundId, ticketId: ticketId});
    }

    /// @dev Books one payout of a ticket; a second one is the violation this suite exists to catch.
    function _payTicket(uint256 r, uint256 ticketId, uint8 kind) internal {
        TicketG storage t = ticketsG[r][ticketId];
        t.payouts += 1;
        if (t.payouts > 1) {
            _violate(PAYOUT, string.concat("ticket ", vm.toString(ticketId), " was paid out twice"));
        }
        t.payoutKind = kind;
    }

    /// @notice The BlocklistToken's issuer blocks (or unblocks) someone; never the raffles or the Exchange.
    function blockAddress(uint256 seed, bool isBlocked) external step {
        seed = _h(seed);
        address who = seed % 8 == 7 ? beneficiary[seed % 2] : _person(seed);
        ITokenX(tokens[BLOCK]).setBlocked(who, isBlocked);
        _count(isBlocked ? "token.blocked" : "token.unblocked");
    }

    /// @notice A winner blocked by the price token cannot be paid; it moves the ticket to an unblocked address,
    /// which then claims the whole prize.
    function rescueBlockedWinner(uint256 raffleSeed, uint256 roundSeed, uint256 toSeed) external step {
        raffleSeed = _h(raffleSeed);
        roundSeed = _h(roundSeed);
        toSeed = _h(toSeed);
        // A drawn round priced in the BlocklistToken, if there is one.
        (uint256 r, uint256 roundId) = (0, 0);
        for (uint256 i = 0; i < drawnKeys.length; i++) {
            (uint256 r2, uint256 id2) = _unkey(drawnKeys[(roundSeed % drawnKeys.length + i) % drawnKeys.length]);
            if (rounds[r2][id2].status == S_DRAWN && rounds[r2][id2].token == tokens[BLOCK]) {
                (r, roundId) = (r2, id2);
                break;
            }
        }
        if (roundId == 0) return;
        RoundG storage g = rounds[r][roundId];
        uint256 ticketId;
        for (uint256 position = 0; position < g.winnersCount; position++) {
            if (g.claimedMask & (uint32(1) << position) == 0) ticketId = winnersG[r][roundId][position];
        }
        if (ticketId == 0) return;
        address owner = _ownerOf(r, ticketId);
        ITokenX(tokens[BLOCK]).setBlocked(owner, true);
        _claim(r, _one(roundId, ticketId), owner); // must revert: the token refuses to pay a blocked address
        address to = players[toSeed % 4];
        if (to == owner) to = players[(toSeed % 4 + 1) % 4];
        ITokenX(tokens[BLOCK]).setBlocked(to, false);
        (bool ok,) = _call(owner, address(tickets[r]), 0, abi.encodeCall(IERC721.transferFrom, (owner, to, ticketId)));
        if (!ok) _violate(ACCESS, "a blocked winner could not move its ticket");
        if (_claim(r, _one(roundId, ticketId), to)) _count("claim.afterBlockedWinnerMoved");
    }

    /// @notice Someone sends a raffle money outside any purchase (it must never count as owed, nor be lost).
    function donate(uint256 raffleSeed, uint256 tokenSeed, uint256 amountSeed) external step {
        raffleSeed = _h(raffleSeed);
        tokenSeed = _h(tokenSeed);
        amountSeed = _h(amountSeed);
        uint256 r = raffleSeed % 2;
        uint256 t = tokenSeed % 4;
        uint256 amount = _bound(amountSeed, 1, 1e18);
        address raffle = address(raffles[r]);
        if (t == NATIVE) {
            vm.deal(raffle, raffle.balance + amount);
        } else if (t == TEST) {
            vm.prank(admin);
            ITokenX(tokens[t]).mint(raffle, amount);
        } else {
            ITokenX(tokens[t]).mint(raffle, amount);
        }
        donated[r][tokens[t]] += amount;
        _count("donation");
    }

    // ================================================================== merchants

    /// @notice A round manager (or someone who is not) starts a round, priced in a listed token, a token the
    /// platform delisted, a hostile token, or an invalid asset.
    function startRound(uint256 raffleSeed, uint256 tokenSeed, uint256 amountSeed, uint256 maxSeed) external step {
        raffleSeed = _h(raffleSeed);
        tokenSeed = _h(tokenSeed);
        amountSeed = _h(amountSeed);
        maxSeed = _h(maxSeed);
        uint256 r = raffleSeed % 2;
        uint256 who = maxSeed % 20;
        address caller = who < 16 ? merchants[r] : who < 19 ? hotKeys[r] : merchants[1 - r];
        uint256 choice = tokenSeed % 12;
        Asset memory price = Asset({tokenType: TokenType.ERC20, token: address(0), tokenId: 0, amount: 0});
        price.amount = _bound(amountSeed, 1, 1e18);
        if (amountSeed % 7 == 0) price.amount = _bound(amountSeed, 1, 1000);
        if (choice < 3) {
            price.tokenType = TokenType.NATIVE; // 3 in 12: native
        } else if (choice < 9) {
            price.token = tokens[1 + choice % 3]; // 6 in 12: TestToken, NoReturnToken, BlocklistToken
        } else if (choice < 11) {
            price.token = tokens[4 + (tokenSeed >> 8) % 3]; // hostile: fee, short delivery, ERC721
        } else {
            uint256 broken = (tokenSeed >> 8) % 4;
            if (broken == 0) price.amount = 0;
            else if (broken == 1) price.amount = uint256(type(uint96).max) + 1 + amountSeed % 1e30;
            else if (broken == 2) price.tokenType = TokenType.ERC721;
            else price.tokenId = 1;
            price.token = broken == 2 ? tokens[COLLECTIBLE] : tokens[TEST];
        }
        // With bundles in force, the price mostly sits at or above their price per ticket, as a merchant sets it.
        RulesG storage rules = rulesG[r][rulesInForce[r]];
        if (rules.bundleQuantity.length != 0 && choice < 11 && amountSeed % 4 != 0) {
            uint256 cheapest = rules.bundlePrice[0] / rules.bundleQuantity[0];
            price.amount = cheapest + (amountSeed >> 8) % (cheapest + 1);
        }
        uint256[6] memory caps = [uint256(0), 2, 3, 5, 8, uint256(type(uint32).max) + 1];
        uint256 maxTicket = caps[(maxSeed >> 8) % 6 == 5 && (maxSeed >> 16) % 4 != 0 ? 0 : (maxSeed >> 8) % 6];
        Asset memory ticket = _ticketAsset(r);
        if ((maxSeed >> 24) % 16 == 0) ticket = _ticketAsset(1 - r);

        _startRound(r, caller, ticket, price, maxTicket);
    }

    /// @notice The rounds open when the sequence starts: raffle 0 in native currency, raffle 1 in the
    /// BlocklistToken (USDC-like: its issuer can freeze a winner). Later rounds use any price token.
    function bootstrap() external {
        // Raffle 1 plays a podium (50/30/20) with a minimum of 3 tickets and bundles of 3 for 27 and 8 for 64 (at 10).
        RoundRules memory podium;
        podium.prizeShares = new uint16[](3);
        (podium.prizeShares[0], podium.prizeShares[1], podium.prizeShares[2]) = (5_000, 3_000, 2_000);
        podium.minTickets = 3;
        podium.bundles = new Bundle[](2);
        podium.bundles[0] = Bundle({quantity: 3, price: 27 ether});
        podium.bundles[1] = Bundle({quantity: 8, price: 64 ether});
        _applyRules(1, podium);
        (bool ok,) = _call(merchants[1], address(raffles[1]), 0, abi.encodeCall(IRaffle.setRoundRules, (podium)));
        require(ok, "bootstrap: setRoundRules");
        _startRound(0, merchants[0], _ticketAsset(0), Asset(TokenType.NATIVE, address(0), 0, 0.01 ether), 0);
        _startRound(1, merchants[1], _ticketAsset(1), Asset(TokenType.ERC20, tokens[BLOCK], 0, 10 ether), 5);
        counting = true;
    }

    function _startRound(uint256 r, address caller, Asset memory ticket, Asset memory price, uint256 maxTicket)
        internal
    {
        bytes4 expectErr;
        if (!_isManager(r, caller)) expectErr = UNAUTHORIZED;
        else if (roundActive[r]) expectErr = IRaffle.RoundStillActive.selector;
        else if (ticket.token != address(tickets[r])) expectErr = IRaffle.InvalidTicketAsset.selector;
        else if (price.tokenId != 0 || price.amount == 0 || price.amount > type(uint96).max) {
            expectErr = IRaffle.InvalidPriceAsset.selector;
        } else if (price.tokenType == TokenType.NATIVE) {
            expectErr = price.token != address(0) ? IRaffle.InvalidPriceAsset.selector : bytes4(0);
        } else if (price.tokenType == TokenType.ERC20) {
            expectErr = price.token == address(0) ? IRaffle.PriceTokenNotAllowed.selector : bytes4(0);
        } else {
            expectErr = IRaffle.InvalidPriceAsset.selector;
        }
        if (expectErr == bytes4(0) && maxTicket > type(uint32).max) expectErr = IRaffle.MaxTicketTooLarge.selector;
        RulesG storage rules = rulesG[r][rulesInForce[r]];
        if (expectErr == bytes4(0)) {
            uint256 required = rules.minTickets > rules.shares.length ? rules.minTickets : rules.shares.length;
            if (maxTicket != 0 && maxTicket < required) expectErr = IRaffle.MaxTicketBelowMinimum.selector;
            else if (rules.bundleQuantity.length != 0 && rules.bundlePrice[0] / rules.bundleQuantity[0] > price.amount) {
                expectErr = IRaffle.BundleAboveRoundPrice.selector;
            }
        }
        // The listing is the factory's answer (authorizeRound), asked after the raffle's own checks.
        if (expectErr == bytes4(0) && price.tokenType == TokenType.ERC20 && !listed[price.token]) {
            expectErr = IRaffle.PriceTokenNotAllowed.selector;
        }
        bool expectOk = expectErr == bytes4(0);

        (bool ok, bytes4 err) =
            _call(caller, address(raffles[r]), 0, abi.encodeCall(IRaffle.startRound, (ticket, price, maxTicket)));
        if (ok) _count("round.started");
        else if (expectErr == IRaffle.PriceTokenNotAllowed.selector) _count("round.rejected.tokenNotAllowed");
        else if (expectErr == IRaffle.RoundStillActive.selector) _count("round.rejected.stillActive");
        else if (expectErr == UNAUTHORIZED) _count("round.rejected.notManager");
        else if (expectErr == IRaffle.InvalidTicketAsset.selector) _count("round.rejected.invalidTicket");
        else if (expectErr == IRaffle.MaxTicketTooLarge.selector) _count("round.rejected.maxTicketTooLarge");
        else if (expectErr == IRaffle.MaxTicketBelowMinimum.selector) _count("round.rejected.capBelowMinimum");
        else if (expectErr == IRaffle.BundleAboveRoundPrice.selector) _count("round.rejected.bundleAbovePrice");
        else _count("round.rejected.invalidPrice");
        _checkOutcome(expectErr == UNAUTHORIZED ? ACCESS : TICKETS, "startRound", expectOk, expectErr, ok, err);
        if (!ok || !expectOk) return;
        uint256 roundId = ++lastRound[r];
        RoundG storage g = rounds[r][roundId];
        g.status = S_ACTIVE;
        g.token = price.token;
        g.price = price.amount;
        g.maxTicket = uint32(maxTicket);
        g.firstTicketId = uint64(lastTicket[r] + 1);
        g.startedAt = uint40(block.timestamp);
        g.vrfCoordinator = uint8(vrf.coordinator);
        g.vrfTimeout = vrf.timeout;
        g.callbackGas = vrf.gas;
        g.version = uint32(rulesInForce[r]);
        g.winnersCount = uint8(rules.shares.length);
        roundActive[r] = true;
        if (g.winnersCount > 1) _count("round.startedWithSeveralWinners");
    }

    /// @notice The merchant sets the rules new rounds play by (prize shares, minimum, wallet cap, bundles), sometimes
    /// invalid ones; a stranger or the hot key tries too. The running round must never change.
    function setRules(uint256 raffleSeed, uint256 shapeSeed, uint256 callerSeed) external step {
        raffleSeed = _h(raffleSeed);
        shapeSeed = _h(shapeSeed);
        callerSeed = _h(callerSeed);
        uint256 r = raffleSeed % 2;
        uint256 pick = callerSeed % 10;
        address caller = pick < 8 ? merchants[r] : pick == 8 ? hotKeys[r] : stranger;
        RoundRules memory rules = _someRules(shapeSeed);
        bytes4 expectErr = caller != merchants[r] ? UNAUTHORIZED : _rulesError(rules);
        bytes32 running = keccak256(abi.encode(raffles[r].getRoundRules(lastRound[r])));
        (bool ok, bytes4 err) = _call(caller, address(raffles[r]), 0, abi.encodeCall(IRaffle.setRoundRules, (rules)));
        _count(ok ? "rules.set" : expectErr == UNAUTHORIZED ? "rules.rejected.notAdmin" : "rules.rejected.invalid");
        _checkOutcome(expectErr == UNAUTHORIZED ? ACCESS : TICKETS, "setRoundRules", expectErr == bytes4(0), expectErr, ok, err);
        if (keccak256(abi.encode(raffles[r].getRoundRules(lastRound[r]))) != running) {
            _violate(TICKETS, "setRoundRules changed the rules of a round already started");
        }
        if (!ok || expectErr != bytes4(0)) return;
        _applyRules(r, rules);
    }

    /// @dev Books a rules version the raffle accepted: it is in force for the rounds started from now on.
    function _applyRules(uint256 r, RoundRules memory rules) internal {
        uint256 version = rulesCount[r]++;
        RulesG storage g = rulesG[r][version];
        for (uint256 i = 0; i < rules.prizeShares.length; i++) g.shares.push(rules.prizeShares[i]);
        g.minTickets = rules.minTickets;
        g.cap = rules.maxTicketsPerWallet;
        for (uint256 i = 0; i < rules.bundles.length; i++) {
            g.bundleQuantity.push(rules.bundles[i].quantity);
            g.bundlePrice.push(rules.bundles[i].price);
        }
        rulesInForce[r] = version;
    }

    /// @dev Rules of many shapes: one to twenty winners (even or podium shares), small minimums and caps, bundles at
    /// a discount on a price near the prices rounds start with; one call in six breaks a rule.
    function _someRules(uint256 seed) internal pure returns (RoundRules memory rules) {
        uint256 kind = seed % 8;
        uint256 winners = kind < 2 ? 1 : kind < 4 ? 3 : kind < 7 ? 2 : 1 + (seed >> 8) % 20;
        rules.prizeShares = new uint16[](winners);
        uint256 left = BPS;
        for (uint256 i = 0; i < winners; i++) {
            uint256 share = i + 1 == winners ? left : left / 2 > winners - i - 1 ? left / 2 : 1;
            if (winners > 3) share = i + 1 == winners ? left : BPS / winners;
            rules.prizeShares[i] = uint16(share);
            left -= share;
        }
        rules.minTickets = uint32((seed >> 16) % 2 == 0 ? 0 : (seed >> 20) % 6);
        rules.maxTicketsPerWallet = uint32((seed >> 24) % 3 == 0 ? 2 + (seed >> 28) % 12 : 0);
        uint256 bundles = (seed >> 32) % 3;
        rules.bundles = new Bundle[](bundles);
        uint256 perTicket = 1e16 - (seed >> 40) % 1e15;
        for (uint256 i = 0; i < bundles; i++) {
            uint32 quantity = uint32(3 + i * 5 + (seed >> (48 + i * 8)) % 3);
            perTicket -= perTicket / 10;
            rules.bundles[i] = Bundle({quantity: quantity, price: uint128(perTicket * quantity)});
        }
        uint256 broken = (seed >> 96) % 24;
        if (broken == 0) rules.prizeShares[0] += 1;
        else if (broken == 1) rules.prizeShares = new uint16[](0);
        else if (broken == 2 && bundles != 0) rules.bundles[0].price += 1;
        else if (broken == 3 && bundles == 2) rules.bundles[1].quantity = rules.bundles[0].quantity;
    }

    /// @dev The error setRoundRules must give, written from the rules' statement in IRaffle.
    function _rulesError(RoundRules memory rules) internal pure returns (bytes4) {
        uint256 sum;
        bool zero;
        for (uint256 i = 0; i < rules.prizeShares.length; i++) {
            sum += rules.prizeShares[i];
            if (rules.prizeShares[i] == 0) zero = true;
        }
        if (rules.prizeShares.length == 0 || rules.prizeShares.length > MAX_WINNERS || sum != BPS || zero) {
            return IRaffle.InvalidPrizeShares.selector;
        }
        if (rules.bundles.length > 5) return IRaffle.InvalidBundle.selector;
        for (uint256 i = 0; i < rules.bundles.length; i++) {
            Bundle memory b = rules.bundles[i];
            if (b.quantity < 2 || b.quantity > MAX_PER_PURCHASE || b.price == 0 || b.price % b.quantity != 0) {
                return IRaffle.InvalidBundle.selector;
            }
            if (uint256(b.price) / b.quantity > type(uint96).max) return IRaffle.InvalidBundle.selector;
            if (i != 0) {
                Bundle memory previous = rules.bundles[i - 1];
                if (b.quantity <= previous.quantity || b.price / b.quantity > previous.price / previous.quantity) {
                    return IRaffle.InvalidBundle.selector;
                }
            }
        }
        return bytes4(0);
    }

    /// @notice A round manager ends the active round; anyone may once it has been open 30 days.
    function endRound(uint256 raffleSeed, uint256 callerSeed) external step {
        raffleSeed = _h(raffleSeed);
        callerSeed = _h(callerSeed);
        uint256 r = raffleSeed % 2;
        uint256 pick = callerSeed % 10;
        address caller = pick < 7 ? merchants[r] : pick < 9 ? hotKeys[r] : _person(callerSeed >> 8);
        _endRound(r, caller);
    }

    function _endRound(uint256 r, address caller) internal returns (bool ok) {
        uint256 roundId = lastRound[r];
        RoundG storage g = rounds[r][roundId];
        address merchant = merchants[r];
        bytes4 expectErr;
        if (!roundActive[r]) {
            expectErr = IRaffle.NoActiveRound.selector;
        } else if (!_isManager(r, caller) && block.timestamp < uint256(g.startedAt) + MAX_ROUND_DURATION) {
            expectErr = IRaffle.RoundNotOverdue.selector;
        }
        // A draw the factory cannot get (the merchant's budget spent, the round's coordinator failing) never stops
        // the round from ending: it becomes refundable at once.
        uint256 required = _required(r, roundId);
        bool drawRefused =
            g.tickets >= 2 && g.tickets >= required && (_drawsToday(merchant) >= _budgetNow() || g.vrfCoordinator == BURNER);
        bool expectOk = expectErr == bytes4(0);
        bytes4 err;
        (ok, err) = _call(caller, address(raffles[r]), 0, abi.encodeCall(IRaffle.endRound, ()));
        if (!ok) _count(expectErr == IRaffle.RoundNotOverdue.selector ? "end.rejected.notOverdue" : "end.rejected.other");
        _checkOutcome(expectErr == IRaffle.RoundNotOverdue.selector ? ACCESS : DRAW, "endRound", expectOk, expectErr, ok, err);
        if (!ok || !expectOk) return ok;
        if (!_isManager(r, caller)) _count("end.overdueByAnyone");
        roundActive[r] = false;
        if (g.tickets == 0) {
            g.status = S_CLOSED;
            _count("end.empty");
        } else if (g.tickets < required) {
            // Below its minimum (or its winners): refundable at once, no randomness asked.
            g.status = S_REFUNDABLE;
            g.refundableAt = uint40(block.timestamp);
            g.refundReason = 1;
            _count("end.belowMinimum");
            RoundView memory below = raffles[r].getRound(roundId);
            if (below.status != RoundStatus.Refundable || below.vrfRequestId != 0 || below.coordinator != address(0)) {
                _violate(DRAW, "a round below its minimum asked randomness or was not refundable at once");
            }
        } else if (g.tickets == 1) {
            _recordWinners(r, roundId, address(0), 0);
            _count("end.singleTicketWins");
        } else if (drawRefused) {
            g.status = S_REFUNDABLE;
            g.refundableAt = uint40(block.timestamp);
            g.refundReason = 3;
            _count(g.vrfCoordinator == BURNER ? "end.drawRefused.coordinator" : "end.drawRefused.budget");
            RoundView memory refused = raffles[r].getRound(roundId);
            if (refused.status != RoundStatus.Refundable || refused.vrfRequestId != 0) {
                _violate(DRAW, "a refused draw did not make the round refundable at once");
            }
        } else {
            g.status = S_DRAWING;
            IVRFMock coordinator = coordinators[g.vrfCoordinator];
            g.coordinator = address(coordinator);
            g.requestId = ++nextRequestId[address(coordinator)];
            g.refundableAt = uint40(block.timestamp + g.vrfTimeout);
            requestTarget[address(coordinator)][g.requestId] = _key(r, roundId) + 1;
            drawingKeys.push(_key(r, roundId));
            if (drawDay[merchant] != block.timestamp / 1 days) {
                drawDay[merchant] = block.timestamp / 1 days;
                drawsUsed[merchant] = 0;
            }
            drawsUsed[merchant] += 1;
            _count("end.vrfRequested");
            RoundView memory rv = raffles[r].getRound(roundId);
            if (rv.coordinator != g.coordinator || rv.vrfRequestId != g.requestId || rv.refundableAt != g.refundableAt) {
                _violate(DRAW, "endRound did not fix the round's coordinator, request and refundableAt");
            }
        }
    }

    function _drawsToday(address merchant) internal view returns (uint256) {
        return drawDay[merchant] == block.timestamp / 1 days ? drawsUsed[merchant] : 0;
    }

    /// @dev The winners of a round by the draw rule, written from the README: hash 0 is the word, each next hash is
    /// keccak256 of the previous one; each hash names ticket first + hash % count, and positions take them in order,
    /// passing over a ticket already drawn.
    function _recordWinners(uint256 r, uint256 roundId, address by, uint256 word) internal {
        RoundG storage g = rounds[r][roundId];
        g.status = S_DRAWN;
        g.drawnAt = uint40(block.timestamp);
        g.drawnBy = by;
        g.word = word;
        g.wordRecorded = false;
        g.winners += 1;
        uint256[MAX_WINNERS] storage drawn = winnersG[r][roundId];
        uint256 hash = word;
        uint256 found;
        while (found < g.winnersCount) {
            uint256 candidate = g.firstTicketId + hash % g.tickets;
            hash = uint256(keccak256(abi.encodePacked(bytes32(hash))));
            bool repeat;
            for (uint256 i = 0; i < found; i++) repeat = repeat || drawn[i] == candidate;
            if (repeat) {
                _count("draw.rehashedPastDuplicate");
                continue;
            }
            drawn[found++] = candidate;
        }
        g.winner = drawn[0];
        if (g.winnersCount > 1) _count("draw.severalWinners");
        drawnKeys.push(_key(r, roundId));
    }

    /// @dev A word the round was waiting for arrived: the callback drew the winners, or (short of gas for them) left
    /// them to finishDraw. Which one depends on the gas the coordinator gave; both must follow the same rule.
    function _acceptWord(uint256 r, uint256 roundId, address by, uint256 word) internal {
        RoundG storage g = rounds[r][roundId];
        RoundStatus status = raffles[r].getRound(roundId).status;
        if (status == RoundStatus.WinnersPending) {
            g.status = S_PENDING;
            g.wordRecorded = true;
            g.word = word;
            g.drawnBy = by;
            _count("vrf.winnersLeftToFinish");
        } else if (status == RoundStatus.Drawn) {
            _recordWinners(r, roundId, by, word);
        } else {
            _violate(DRAW, "an answer in time neither drew the winners nor recorded the word");
        }
    }

    /// @notice Anyone draws the winners of a round whose word arrived but whose callback could not afford them.
    function finishDraw(uint256 raffleSeed, uint256 roundSeed, uint256 callerSeed) external step {
        raffleSeed = _h(raffleSeed);
        roundSeed = _h(roundSeed);
        callerSeed = _h(callerSeed);
        (uint256 r, uint256 roundId) = _pickRound(raffleSeed, roundSeed, S_PENDING);
        if (roundId == 0) return;
        _finishDraw(r, roundId, _person(callerSeed));
    }

    function _finishDraw(uint256 r, uint256 roundId, address caller) internal {
        RoundG storage g = rounds[r][roundId];
        bytes4 expectErr = g.status == S_PENDING ? bytes4(0) : IRaffle.UnexpectedRoundStatus.selector;
        (bool ok, bytes4 err) = _call(caller, address(raffles[r]), 0, abi.encodeCall(IRaffle.finishDraw, (roundId)));
        _count(ok ? "draw.finished" : "draw.finishRejected");
        _checkOutcome(DRAW, "finishDraw", expectErr == bytes4(0), expectErr, ok, err);
        if (ok && expectErr == bytes4(0)) _recordWinners(r, roundId, g.drawnBy, g.word);
    }

    /// @notice The merchant pauses or unpauses its raffle (purchases only); a stranger tries too.
    function pauseRaffle(uint256 raffleSeed, uint256 callerSeed) external step {
        raffleSeed = _h(raffleSeed);
        callerSeed = _h(callerSeed);
        uint256 r = raffleSeed % 2;
        address caller = callerSeed % 6 == 0 ? _person(callerSeed >> 8) : merchants[r];
        bool pausing = !rafflePaused[r];
        // Pauses are brief: an unpaused raffle is paused one time in four, a paused one unpaused every time.
        if (pausing && caller == merchants[r] && (callerSeed >> 16) % 4 != 0) return;
        bytes4 expectErr = caller != merchants[r] ? UNAUTHORIZED : bytes4(0);
        (bool ok, bytes4 err) = _call(
            caller,
            address(raffles[r]),
            0,
            pausing ? abi.encodeCall(IRaffle.pause, ()) : abi.encodeCall(IRaffle.unpause, ())
        );
        _count(ok ? (pausing ? "raffle.paused" : "raffle.unpaused") : "raffle.pauseDenied");
        _checkOutcome(ACCESS, "raffle pause/unpause", expectErr == bytes4(0), expectErr, ok, err);
        if (ok && expectErr == bytes4(0)) rafflePaused[r] = pausing;
    }

    /// @notice The merchant points its beneficiary elsewhere (or at address zero, refused); a stranger tries too.
    function setBeneficiary(uint256 raffleSeed, uint256 whoSeed) external step {
        raffleSeed = _h(raffleSeed);
        whoSeed = _h(whoSeed);
        uint256 r = raffleSeed % 2;
        address caller = whoSeed % 7 == 0 ? stranger : merchants[r];
        uint256 pick = (whoSeed >> 8) % 5;
        address to = pick < 2 ? beneficiaries[pick] : pick < 4 ? merchants[r] : address(0);
        bytes4 expectErr =
            caller != merchants[r] ? UNAUTHORIZED : to == address(0) ? IRaffle.ZeroAddress.selector : bytes4(0);
        (bool ok, bytes4 err) =
            _call(caller, address(raffles[r]), 0, abi.encodeCall(IRaffle.setBeneficiary, (to)));
        _count(ok ? "beneficiary.set" : "beneficiary.rejected");
        _checkOutcome(ACCESS, "setBeneficiary", expectErr == bytes4(0), expectErr, ok, err);
        if (ok && expectErr == bytes4(0)) beneficiary[r] = to;
    }

    /// @notice The merchant grants (or revokes) ROUND_MANAGER_ROLE to a hot key for automation.
    function grantHotKey(uint256 raffleSeed) external step {
        raffleSeed = _h(raffleSeed);
        uint256 r = raffleSeed % 2;
        bool granting = !hotKeyGranted[r];
        (bool ok,) = _call(
            merchants[r],
            address(raffles[r]),
            0,
            granting
                ? abi.encodeCall(IAccessControl.grantRole, (roundManagerRole, hotKeys[r]))
                : abi.encodeCall(IAccessControl.revokeRole, (roundManagerRole, hotKeys[r]))
        );
        if (!ok) _violate(ACCESS, "the merchant could not manage its raffle's roles");
        else hotKeyGranted[r] = granting;
        _count(granting ? "hotKey.granted" : "hotKey.revoked");
    }

    /// @notice The merchant (or its hot key, or a stranger) releases an unclaimed prize to the beneficiary.
    function releasePrize(uint256 raffleSeed, uint256 roundSeed, uint256 callerSeed) external step {
        raffleSeed = _h(raffleSeed);
        roundSeed = _h(roundSeed);
        callerSeed = _h(callerSeed);
        (uint256 r, uint256 roundId) = _pickRound(raffleSeed, roundSeed, S_DRAWN);
        if (roundId == 0) return;
        uint256 pick = callerSeed % 8;
        address caller = pick < 6 ? merchants[r] : pick == 6 ? hotKeys[r] : stranger;
        _release(r, roundId, caller);
    }

    function _release(uint256 r, uint256 roundId, address caller) internal returns (bool ok) {
        RoundG storage g = rounds[r][roundId];
        address to = beneficiary[r];
        bytes4 expectErr;
        bool payable_ = true;
        if (caller != merchants[r]) expectErr = UNAUTHORIZED;
        else if (g.status != S_DRAWN) expectErr = IRaffle.UnexpectedRoundStatus.selector;
        else if (block.timestamp < uint256(g.drawnAt) + raffles[r].timeLagBeforeRelease()) {
            expectErr = IRaffle.PrizeNotReleasableYet.selector;
        } else if (_isBlocked(g.token, to)) payable_ = false;
        bool expectOk = expectErr == bytes4(0) && payable_;
        uint256 unclaimed = _unclaimed(r, roundId);
        uint256 before = _balance(g.token, to);
        bytes4 err;
        (ok, err) = _call(caller, address(raffles[r]), 0, abi.encodeCall(IRaffle.releasePrize, (roundId)));
        if (ok) _count("release.ok");
        else if (expectErr == IRaffle.PrizeNotReleasableYet.selector) _count("release.rejected.tooEarly");
        else _count("release.rejected.other");
        _checkOutcome(expectErr == UNAUTHORIZED ? ACCESS : PAYOUT, "releasePrize", expectOk, expectErr, ok, err);
        if (!ok || !expectOk) return ok;
        g.status = S_RELEASED;
        _bookRelease(r, roundId);
        owed[r][g.token] -= unclaimed;
        if (_balance(g.token, to) != before + unclaimed) _violate(PAYOUT, "a release did not pay exactly the unclaimed prizes");
    }

    /// @dev The prizes of a drawn round still unclaimed, before commission.
    function _unclaimed(uint256 r, uint256 roundId) internal view returns (uint256 amount) {
        RoundG storage g = rounds[r][roundId];
        for (uint256 position = 0; position < g.winnersCount; position++) {
            if (g.claimedMask & (uint32(1) << position) == 0) amount += _prizeOf(r, roundId, position);
        }
    }

    function _bookRelease(uint256 r, uint256 roundId) internal {
        RoundG storage g = rounds[r][roundId];
        for (uint256 position = 0; position < g.winnersCount; position++) {
            if (g.claimedMask & (uint32(1) << position) == 0) _payTicket(r, winnersG[r][roundId][position], 2);
        }
    }

    /// @notice The merchant withdraws the commission accrued in a token (or a stranger tries).
    function withdrawCommission(uint256 raffleSeed, uint256 tokenSeed) external step {
        raffleSeed = _h(raffleSeed);
        tokenSeed = _h(tokenSeed);
        uint256 r = raffleSeed % 2;
        address caller = tokenSeed % 9 == 0 ? stranger : merchants[r];
        uint256 t = (tokenSeed >> 8) % 5;
        // Mostly a token the raffle has commission in, when it has any.
        for (uint256 i = 0; i < 4 && (tokenSeed >> 16) % 4 != 0; i++) {
            if (accrued[r][tokens[(t + i) % 4]] != 0) {
                t = (t + i) % 4;
                break;
            }
        }
        _withdraw(r, tokens[t], caller);
    }

    function _withdraw(uint256 r, address token, address caller) internal returns (bool ok) {
        address to = beneficiary[r];
        uint256 amount = accrued[r][token];
        bytes4 expectErr;
        bool payable_ = true;
        if (caller != merchants[r]) expectErr = UNAUTHORIZED;
        else if (amount == 0) expectErr = IRaffle.NothingToWithdraw.selector;
        else if (_isBlocked(token, to)) payable_ = false;
        bool expectOk = expectErr == bytes4(0) && payable_;
        uint256 before = _balance(token, to);
        bytes4 err;
        (ok, err) = _call(caller, address(raffles[r]), 0, abi.encodeCall(IRaffle.withdrawCommission, (token)));
        _count(ok ? "commission.withdrawn" : "commission.rejected");
        _checkOutcome(expectErr == UNAUTHORIZED ? ACCESS : COMMISSION, "withdrawCommission", expectOk, expectErr, ok, err);
        if (!ok || !expectOk) return ok;
        accrued[r][token] = 0;
        owed[r][token] -= amount;
        if (_balance(token, to) != before + amount) _violate(COMMISSION, "a withdrawal did not pay the accrued commission");
    }

    /// @notice A hostile merchant tries what it has no right to: answering its own draws (directly or through a
    /// coordinator of its own), granting itself platform roles, changing the platform's settings, minting or
    /// flagging tickets, spending the platform's draw budget, deploying a raffle outside the rules.
    function hostileMerchant(uint256 raffleSeed, uint256 attackSeed, uint256 argSeed) external step {
        raffleSeed = _h(raffleSeed);
        attackSeed = _h(attackSeed);
        argSeed = _h(argSeed);
        uint256 r = raffleSeed % 2;
        uint256 attack = attackSeed % 14;
        if (attack <= 1) {
            _hostileAnswer(r, attack == 1, argSeed);
            return;
        }
        (address target, bytes memory data, string memory name, bytes4 expectErr) = _hostileCall(r, attack, argSeed);
        (bool ok, bytes4 err) = _call(merchants[r], target, 0, data);
        _count(name);
        _checkOutcome(ACCESS, name, false, expectErr, ok, err);
    }

    /// @dev The merchant answers one of its rounds' requests itself, or through its own fake coordinator.
    function _hostileAnswer(uint256 r, bool viaFake, uint256 seed) internal {
        address raffle = address(raffles[r]);
        uint256 requestId = drawingKeys.length == 0 ? seed % 4 : _anyRequestOf(r, seed);
        bytes32 before = _stateHash(r);
        bool ok;
        bytes4 err;
        string memory name;
        bytes4 expectErr = IRaffleFactory.UnknownVrfRequest.selector;
        if (!viaFake) {
            // Straight to the raffle: only the factory may deliver a word there.
            (ok, err) = _call(merchants[r], raffle, 0, abi.encodeCall(IRaffle.fulfillDraw, (lastRound[r], requestId, seed)));
            expectErr = IRaffle.CallerNotFactory.selector;
            name = "hostile.answerOwnDraw";
        } else {
            vm.prank(merchants[r]);
            bytes memory ret;
            (ok, ret) = fakeCoordinator.answer(address(factory), requestId, seed);
            if (!ok && ret.length >= 4) err = bytes4(ret);
            name = "hostile.fakeCoordinator";
        }
        _count(name);
        _checkOutcome(DRAW, name, false, expectErr, ok, err);
        if (_stateHash(r) != before) _violate(DRAW, string.concat(name, " changed a round"));
    }

    function _hostileCall(uint256 r, uint256 attack, uint256 argSeed)
        internal
        view
        returns (address target, bytes memory data, string memory name, bytes4 expectErr)
    {
        address merchant = merchants[r];
        expectErr = UNAUTHORIZED;
        if (attack == 2) {
            target = address(factory);
            data = abi.encodeCall(IAccessControl.grantRole, (bytes32(0), merchant));
            name = "hostile.grantFactoryAdmin";
        } else if (attack == 3) {
            target = address(factory);
            data = abi.encodeCall(IAccessControl.grantRole, (factory.MERCHANT_ROLE(), stranger));
            name = "hostile.grantMerchantRole";
        } else if (attack == 4) {
            target = address(exchange);
            data = abi.encodeCall(IAccessControl.grantRole, (exchange.SIGNER_ROLE(), merchant));
            name = "hostile.grantSignerRole";
        } else if (attack == 5) {
            VrfConfig memory cfg = VrfConfig({
                coordinator: address(fakeCoordinator),
                keyHash: bytes32(0),
                subscriptionId: 1,
                callbackGasLimit: 500_000,
                requestConfirmations: 3,
                randomnessTimeout: 1 hours
            });
            target = address(factory);
            data = abi.encodeCall(IRaffleFactoryX.proposeVrfConfig, (cfg));
            name = "hostile.proposeVrfConfig";
        } else if (attack == 6) {
            target = address(factory);
            data = abi.encodeCall(IRaffleFactoryX.setPriceToken, (tokens[4 + argSeed % 3], true));
            name = "hostile.listHostileToken";
        } else if (attack == 7) {
            target = address(factory);
            data = abi.encodeCall(IRaffleFactoryX.setDrawsPerDay, (1e9));
            name = "hostile.setDrawsPerDay";
        } else if (attack == 8) {
            target = address(exchange);
            data = abi.encodeCall(IExchangeX.rotateSigner, (signers[signerIdx], merchant));
            name = "hostile.rotateSigner";
        } else if (attack == 9) {
            target = address(raffles[r]);
            data = abi.encodeCall(IRaffle.printTicket, (merchant, _ticketAsset(r), _ticketAsset(r), 0));
            name = "hostile.printTicket";
            expectErr = IRaffle.CallerNotExchange.selector;
        } else if (attack == 10) {
            uint256 id = lastTicket[r] == 0 ? 1 : 1 + argSeed % lastTicket[r];
            uint256 which = argSeed % 3;
            target = address(tickets[r]);
            if (which == 0) data = abi.encodeCall(IRaffleTicket.mintTickets, (merchant, 1 + argSeed % 50, 0));
            else if (which == 1) data = abi.encodeCall(IRaffleTicket.mintTickets, (merchant, 1, uint24(1 + argSeed % 5)));
            else data = abi.encodeCall(IRaffleTicket.burn, (id));
            name = "hostile.ticketAdmin";
            expectErr = IRaffleTicket.CallerNotRaffle.selector;
        } else if (attack == 11) {
            target = address(factory);
            data = abi.encodeCall(IRaffleFactory.requestDraw, (1, 1));
            name = "hostile.requestDraw";
            expectErr = IRaffleFactory.NotARaffle.selector;
        } else if (attack == 12) {
            target = address(exchange);
            data = abi.encodeCall(IExchangeX.pause, ());
            name = "hostile.pauseExchange";
        } else {
            bool highCommission = argSeed % 2 == 0;
            RaffleConfig memory config = RaffleConfig({
                commission: highCommission ? MAX_COMMISSION + 1 + argSeed % 7000 : 500,
                timeLagBeforeRelease: highCommission ? 1 days : argSeed % 1 days,
                ticketName: "Greedy",
                ticketSymbol: "GRD"
            });
            target = address(factory);
            data = abi.encodeCall(IRaffleFactory.deployRaffle, (config));
            name = "hostile.deployOutsideRules";
            expectErr = highCommission ? IRaffle.CommissionTooHigh.selector : IRaffle.TimeLagTooShort.selector;
        }
    }

    function _anyRequestOf(uint256 r, uint256 seed) internal view returns (uint256) {
        for (uint256 i = 0; i < drawingKeys.length; i++) {
            (uint256 rr, uint256 roundId) = _unkey(drawingKeys[(seed % drawingKeys.length + i) % drawingKeys.length]);
            if (rr == r) return rounds[r][roundId].requestId;
        }
        return 1 + seed % 3;
    }

    /// @dev A digest of the contract state of every round of raffle `r`: nothing a refused call does may change it.
    function _stateHash(uint256 r) internal view returns (bytes32 h) {
        for (uint256 id = 1; id <= lastRound[r]; id++) {
            h = keccak256(abi.encode(h, raffles[r].getRound(id)));
        }
    }

    // ================================================================== VRF coordinators

    /// @notice The coordinator a round asked answers it through Chainlink's mock (the normal path).
    function fulfill(uint256 seed, uint256 word) external step {
        seed = _h(seed);
        (bool found, uint256 r, uint256 roundId) = _pickUndelivered(seed);
        if (!found) return;
        _deliver(r, roundId, word);
    }

    /// @notice The coordinator answers only after the round's refundableAt: the answer must be ignored.
    function fulfillLate(uint256 seed, uint256 word, uint256 delaySeed) external step {
        seed = _h(seed);
        delaySeed = _h(delaySeed);
        (bool found, uint256 r, uint256 roundId) = _pickUndelivered(seed);
        if (!found) return;
        RoundG storage g = rounds[r][roundId];
        uint256 at = uint256(g.refundableAt) + _bound(delaySeed, 0, 2 days);
        if (at > block.timestamp) vm.warp(at);
        _deliver(r, roundId, word);
    }

    function _deliver(uint256 r, uint256 roundId, uint256 word) internal {
        RoundG storage g = rounds[r][roundId];
        IVRFMock coordinator = IVRFMock(g.coordinator);
        uint256[] memory words = new uint256[](1);
        words[0] = word;
        bool accept = g.status == S_DRAWING && block.timestamp < g.refundableAt && g.callbackGas != LOW_CALLBACK_GAS;
        (bool ok, bytes4 err) = _call(
            address(0xC0FFEE),
            address(coordinator),
            0,
            abi.encodeCall(IVRFMock.fulfillRandomWordsWithOverride, (g.requestId, address(factory), words))
        );
        _checkOutcome(DRAW, "the coordinator's fulfillment", true, err, ok, err);
        g.delivered = true;
        if (accept) {
            _acceptWord(r, roundId, address(coordinator), word);
            _count("vrf.drawn");
        } else if (g.status == S_DRAWING && g.callbackGas == LOW_CALLBACK_GAS && block.timestamp < g.refundableAt) {
            _count("vrf.callbackOutOfGas");
        } else {
            _count(g.status == S_DRAWING ? "vrf.lateIgnored" : "vrf.answerForSettledRoundIgnored");
        }
    }

    /// @notice The coordinator a round asked answers it in time with a tight callback gas limit, as a coordinator
    /// honouring a low `callbackGasLimit` does: the word must be kept, and its winners drawn now or by finishDraw.
    function fulfillTight(uint256 seed, uint256 word) external step {
        seed = _h(seed);
        (bool found, uint256 r, uint256 roundId) = _pickUndelivered(seed);
        if (!found) return;
        RoundG storage g = rounds[r][roundId];
        if (g.status != S_DRAWING || block.timestamp >= g.refundableAt) return;
        uint256[] memory words = new uint256[](1);
        words[0] = word;
        vm.prank(g.coordinator);
        (bool ok,) = address(factory).call{gas: 90_000 + (seed >> 8) % 60_000}(
            abi.encodeCall(IRaffleFactory.rawFulfillRandomWords, (g.requestId, words))
        );
        if (!ok) _violate(DRAW, "an answer with a tight callback gas limit reverted");
        g.delivered = true;
        _acceptWord(r, roundId, g.coordinator, word);
        _count("vrf.tightAnswer");
        // Often someone finishes the draw at once (the worker does); otherwise later, or at settlement.
        if (g.status == S_PENDING && (seed >> 32) % 2 == 0) _finishDraw(r, roundId, _person(seed >> 40));
    }

    /// @notice The round's coordinator calls the raffle again, directly: a duplicate answer (ignored once the round
    /// is drawn or past refundableAt), or the first answer if it never came through the mock. Sometimes with no
    /// words at all (ignored).
    function answerAgain(uint256 seed, uint256 word) external step {
        seed = _h(seed);
        if (drawingKeys.length == 0) return;
        (uint256 r, uint256 roundId) = _unkey(drawingKeys[seed % drawingKeys.length]);
        if (seed % 3 != 0 && drawnKeys.length != 0) {
            (uint256 r2, uint256 id2) = _unkey(drawnKeys[(seed >> 8) % drawnKeys.length]);
            if (rounds[r2][id2].requestId != 0) (r, roundId) = (r2, id2);
        }
        RoundG storage g = rounds[r][roundId];
        uint256 length = seed % 11 == 0 ? 0 : 1;
        _answerAs(g.coordinator, r, g.requestId, word, length, "duplicate answer");
    }

    /// @notice Another coordinator (the platform's other one), the merchant, a stranger or a fake coordinator answers
    /// a round's request id: refused unless that caller is the coordinator of a round with that id.
    function answerFromWrongCoordinator(uint256 seed, uint256 word) external step {
        seed = _h(seed);
        if (drawingKeys.length == 0) return;
        (uint256 r, uint256 roundId) = _unkey(drawingKeys[seed % drawingKeys.length]);
        RoundG storage g = rounds[r][roundId];
        uint256 pick = (seed >> 8) % 4;
        address caller = pick == 0
            ? (g.coordinator == address(coordinators[0]) ? address(coordinators[1]) : address(coordinators[0]))
            : pick == 1 ? merchants[r] : pick == 2 ? stranger : address(fakeCoordinator);
        _answerAs(caller, r, g.requestId, word, 1, "answer from another address");
    }

    /// @dev `r` names the raffle the caller meant; the factory routes by (caller, request id) alone, so the round
    /// that moves (if any) is the one the model recorded for that pair.
    function _answerAs(address caller, uint256 r, uint256 requestId, uint256 word, uint256 length, string memory what)
        internal
    {
        r; // the factory, not the caller, decides which raffle an answer reaches
        uint256[] memory words = new uint256[](length);
        if (length != 0) words[0] = word;
        uint256 keyPlusOne = requestTarget[caller][requestId];
        bytes32 before = _bothStates();
        (bool ok, bytes4 err) =
            _call(caller, address(factory), 0, abi.encodeCall(IRaffleFactory.rawFulfillRandomWords, (requestId, words)));
        if (keyPlusOne == 0) {
            _count("vrf.unknownCallerRefused");
            _checkOutcome(DRAW, what, false, IRaffleFactory.UnknownVrfRequest.selector, ok, err);
            if (_bothStates() != before) _violate(DRAW, string.concat(what, " changed a round"));
            return;
        }
        _checkOutcome(DRAW, what, true, err, ok, err);
        _answered(keyPlusOne - 1, caller, word, length != 0, what, before);
    }

    function _answered(uint256 key, address caller, uint256 word, bool hasWord, string memory what, bytes32 before)
        internal
    {
        (uint256 r, uint256 roundId) = _unkey(key);
        RoundG storage g = rounds[r][roundId];
        if (g.status == S_DRAWING && block.timestamp < g.refundableAt && hasWord) {
            _acceptWord(r, roundId, caller, word);
            _count("vrf.drawnByDirectAnswer");
            return;
        }
        _count(
            g.status == S_DRAWN || g.status == S_CLAIMED || g.status == S_RELEASED || g.status == S_PENDING
                ? "vrf.duplicateIgnored"
                : "vrf.lateOrEmptyIgnored"
        );
        if (_bothStates() != before) _violate(DRAW, string.concat(what, " changed a settled or late round"));
    }

    function _bothStates() internal view returns (bytes32) {
        return keccak256(abi.encode(_stateHash(0), _stateHash(1)));
    }

    function _pickUndelivered(uint256 seed) internal view returns (bool, uint256, uint256) {
        uint256 n = drawingKeys.length;
        for (uint256 i = 0; i < n; i++) {
            (uint256 r, uint256 roundId) = _unkey(drawingKeys[(seed % n + i) % n]);
            if (!rounds[r][roundId].delivered) return (true, r, roundId);
        }
        return (false, 0, 0);
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

    /// @notice No answer comes for a round (the coordinator is down): time passes beyond its refundableAt and
    /// anyone opens refunds.
    function letDrawTimeOut(uint256 seed, uint256 delaySeed) external step {
        seed = _h(seed);
        delaySeed = _h(delaySeed);
        (bool found, uint256 r, uint256 roundId) = _pickUndelivered(seed);
        if (!found || rounds[r][roundId].status != S_DRAWING) return;
        uint256 at = uint256(rounds[r][roundId].refundableAt) + _bound(delaySeed, 0, 1 days);
        if (at > block.timestamp) vm.warp(at);
        _enableRefunds(r, roundId, _person(delaySeed >> 8));
    }

    // ================================================================== anyone

    /// @notice Anyone opens refunds for a round whose randomness did not arrive by its refundableAt.
    function enableRefunds(uint256 raffleSeed, uint256 roundSeed, uint256 callerSeed) external step {
        raffleSeed = _h(raffleSeed);
        roundSeed = _h(roundSeed);
        callerSeed = _h(callerSeed);
        (uint256 r, uint256 roundId) = _pickRound(raffleSeed, roundSeed, S_DRAWING);
        // Mostly a round whose deadline has passed, if there is one.
        for (uint256 i = 0; i < drawingKeys.length && roundSeed % 4 != 0; i++) {
            (uint256 r2, uint256 id2) = _unkey(drawingKeys[(roundSeed % drawingKeys.length + i) % drawingKeys.length]);
            RoundG storage g = rounds[r2][id2];
            if (g.status == S_DRAWING && block.timestamp >= g.refundableAt) {
                (r, roundId) = (r2, id2);
                break;
            }
        }
        if (roundId == 0) return;
        _enableRefunds(r, roundId, _person(callerSeed));
    }

    function _enableRefunds(uint256 r, uint256 roundId, address caller) internal returns (bool ok) {
        RoundG storage g = rounds[r][roundId];
        bytes4 expectErr;
        if (g.status != S_DRAWING) expectErr = IRaffle.UnexpectedRoundStatus.selector;
        else if (block.timestamp < g.refundableAt) expectErr = IRaffle.RandomnessNotTimedOut.selector;
        bytes4 err;
        (ok, err) = _call(caller, address(raffles[r]), 0, abi.encodeCall(IRaffle.enableRefunds, (roundId)));
        _count(ok ? "refunds.enabled" : "refunds.rejected");
        _checkOutcome(DRAW, "enableRefunds", expectErr == bytes4(0), expectErr, ok, err);
        if (ok && expectErr == bytes4(0)) {
            g.status = S_REFUNDABLE;
            g.refundReason = 2;
        }
    }

    // ================================================================== platform admin

    /// @notice The platform announces new VRF settings (either coordinator, any timeout, sometimes a callback gas
    /// limit too low for the raffle's callback); a merchant tries too.
    function proposeVrf(uint256 coordSeed, uint256 timeoutSeed, uint256 gasSeed) external step {
        coordSeed = _h(coordSeed);
        timeoutSeed = _h(timeoutSeed);
        gasSeed = _h(gasSeed);
        // The platform rarely replaces an announcement that is still running its notice.
        if (pendingVrfAt != 0 && timeoutSeed % 4 != 0) return;
        // Mostly a move to the other coordinator.
        uint256 c = coordSeed % 4 == 0 ? vrf.coordinator : vrf.coordinator == BURNER ? 0 : 1 - vrf.coordinator;
        if (coordSeed % 9 == 4) c = BURNER; // a hostile platform points new rounds at a coordinator of its own
        address caller = gasSeed % 10 == 0 ? merchants[gasSeed % 2] : admin;
        uint32 timeout = uint32(_bound(timeoutSeed, 1 hours, 7 days));
        if (timeoutSeed % 13 == 0) timeout = uint32(timeoutSeed % 2 == 0 ? 1 hours - 1 : 7 days + 1);
        uint32 gas = gasSeed % 8 == 1 ? LOW_CALLBACK_GAS : gasSeed % 8 == 2 ? TIGHT_CALLBACK_GAS : 500_000;
        _proposeVrf(caller, c, timeout, gas);
    }

    function _proposeVrf(address caller, uint256 c, uint32 timeout, uint32 gas) internal {
        VrfConfig memory cfg = VrfConfig({
            coordinator: _coordinatorAddress(c),
            keyHash: keccak256(abi.encode("key", c)),
            subscriptionId: c == BURNER ? 1 : subscriptions[c],
            callbackGasLimit: gas,
            requestConfirmations: 3,
            randomnessTimeout: timeout
        });
        bytes4 expectErr;
        if (caller != admin) expectErr = UNAUTHORIZED;
        else if (timeout < 1 hours || timeout > 7 days) expectErr = IRaffleFactory.InvalidVrfConfig.selector;
        (bool ok, bytes4 err) = _call(caller, address(factory), 0, abi.encodeCall(IRaffleFactoryX.proposeVrfConfig, (cfg)));
        _count(ok ? "vrfConfig.proposed" : "vrfConfig.proposalRejected");
        _checkOutcome(ACCESS, "proposeVrfConfig", expectErr == bytes4(0), expectErr, ok, err);
        if (ok && expectErr == bytes4(0)) {
            pendingVrf = VrfG({coordinator: c, timeout: timeout, gas: gas});
            pendingVrfAt = block.timestamp + VRF_CONFIG_DELAY;
        }
    }

    /// @notice A hostile platform, in one story: it points new rounds at a coordinator of its own that burns every
    /// request's gas, waits out the notice and applies it; a merchant then sells a round with two tickets and ends it.
    /// The round must be refundable at once, never frozen (rounds sold earlier keep their own settings).
    function hostilePlatformCoordinator(uint256 seed) external step {
        seed = _h(seed);
        // One call in four: the story ends every honest draw of the sequence after it.
        if ((seed >> 32) % 4 != 0) return;
        uint256 r = seed % 2;
        if (vrf.coordinator != BURNER) {
            _proposeVrf(admin, BURNER, vrf.timeout, vrf.gas);
            if (pendingVrf.coordinator != BURNER || pendingVrfAt == 0) return;
            vm.warp(pendingVrfAt);
            _applyVrf(stranger);
        }
        if (roundActive[r]) _endRound(r, merchants[r]);
        _startRound(r, merchants[r], _ticketAsset(r), Asset(TokenType.NATIVE, address(0), 0, 0.01 ether), 0);
        _buy(seed, r, 0);
        _buy(seed >> 8 | 1, r, 0);
        _endRound(r, merchants[r]);
    }

    /// @notice Anyone applies the announced VRF settings (only once their notice has passed).
    function applyVrf(uint256 callerSeed) external step {
        callerSeed = _h(callerSeed);
        _applyVrf(_person(callerSeed));
    }

    function _applyVrf(address caller) internal {
        bytes4 expectErr;
        if (pendingVrfAt == 0) expectErr = IRaffleFactory.NoVrfConfigProposal.selector;
        else if (block.timestamp < pendingVrfAt) expectErr = IRaffleFactory.VrfConfigNotYetEffective.selector;
        else if (block.timestamp > pendingVrfAt + VRF_PROPOSAL_WINDOW) {
            expectErr = IRaffleFactory.VrfConfigProposalExpired.selector;
        }
        (bool ok, bytes4 err) = _call(caller, address(factory), 0, abi.encodeCall(IRaffleFactoryX.applyVrfConfig, ()));
        if (expectErr == IRaffleFactory.VrfConfigProposalExpired.selector) _count("vrfConfig.expiredRefused");
        _checkOutcome(ACCESS, "applyVrfConfig", expectErr == bytes4(0), expectErr, ok, err);
        if (!ok || expectErr != bytes4(0)) {
            _count("vrfConfig.applyRejected");
            return;
        }
        bool drawing;
        for (uint256 i = 0; i < drawingKeys.length; i++) {
            (uint256 r, uint256 roundId) = _unkey(drawingKeys[i]);
            if (rounds[r][roundId].status == S_DRAWING) drawing = true;
        }
        _count(
            pendingVrf.coordinator != vrf.coordinator
                ? (drawing ? "vrfConfig.coordinatorChangedWhileDrawing" : "vrfConfig.coordinatorChanged")
                : "vrfConfig.applied"
        );
        if (pendingVrf.coordinator == BURNER) _count("vrfConfig.burnerApplied");
        vrf = pendingVrf;
        delete pendingVrf;
        pendingVrfAt = 0;
    }

    function cancelVrf(uint256 seed) external step {
        seed = _h(seed);
        // The platform rarely takes back an announcement.
        if (seed % 3 != 0) return;
        bytes4 expectErr = pendingVrfAt == 0 ? IRaffleFactory.NoVrfConfigProposal.selector : bytes4(0);
        (bool ok, bytes4 err) = _call(admin, address(factory), 0, abi.encodeCall(IRaffleFactoryX.cancelVrfConfigProposal, ()));
        _count(ok ? "vrfConfig.canceled" : "vrfConfig.cancelRejected");
        _checkOutcome(ACCESS, "cancelVrfConfigProposal", expectErr == bytes4(0), expectErr, ok, err);
        if (ok && expectErr == bytes4(0)) {
            delete pendingVrf;
            pendingVrfAt = 0;
        }
    }

    /// @notice The platform pauses or unpauses the Exchange; a stranger or merchant tries too.
    function pauseExchange(uint256 callerSeed) external step {
        callerSeed = _h(callerSeed);
        address caller = callerSeed % 6 == 0 ? _person(callerSeed >> 8) : admin;
        bool pausing = !exchangePaused;
        if (pausing && caller == admin && (callerSeed >> 16) % 4 != 0) return;
        bytes4 expectErr = caller != admin ? UNAUTHORIZED : bytes4(0);
        (bool ok, bytes4 err) = _call(
            caller,
            address(exchange),
            0,
            pausing ? abi.encodeCall(IExchangeX.pause, ()) : abi.encodeCall(IExchangeX.unpause, ())
        );
        _count(ok ? (pausing ? "exchange.paused" : "exchange.unpaused") : "exchange.pauseDenied");
        _checkOutcome(ACCESS, "Exchange pause/unpause", expectErr == bytes4(0), expectErr, ok, err);
        if (ok && expectErr == bytes4(0)) exchangePaused = pausing;
    }

    /// @notice The platform rotates its voucher signer (vouchers of the old one stop working at once).
    function rotateSigner(uint256 callerSeed) external step {
        callerSeed = _h(callerSeed);
        address caller = callerSeed % 6 == 0 ? _person(callerSeed >> 8) : admin;
        uint256 next = (signerIdx + 1) % 3;
        bytes4 expectErr = caller != admin ? UNAUTHORIZED : bytes4(0);
        (bool ok, bytes4 err) = _call(
            caller,
            address(exchange),
            0,
            abi.encodeCall(IExchangeX.rotateSigner, (signers[signerIdx], signers[next]))
        );
        _count(ok ? "signer.rotated" : "signer.rotationDenied");
        _checkOutcome(ACCESS, "rotateSigner", expectErr == bytes4(0), expectErr, ok, err);
        if (ok && expectErr == bytes4(0)) signerIdx = next;
    }

    /// @notice The platform lists or delists a price token (only exact tokens are ever listed); listing an address
    /// without code is refused.
    function setPriceToken(uint256 tokenSeed, bool allowed) external step {
        tokenSeed = _h(tokenSeed);
        address token = tokenSeed % 5 == 0 ? stranger : tokens[1 + tokenSeed % 3];
        bytes4 expectErr = token.code.length == 0 && allowed ? IRaffleFactory.NotAContract.selector : bytes4(0);
        (bool ok, bytes4 err) =
            _call(admin, address(factory), 0, abi.encodeCall(IRaffleFactoryX.setPriceToken, (token, allowed)));
        _count(ok ? (allowed ? "priceToken.listed" : "priceToken.delisted") : "priceToken.rejected");
        _checkOutcome(ACCESS, "setPriceToken", expectErr == bytes4(0), expectErr, ok, err);
        if (ok && expectErr == bytes4(0)) listed[token] = allowed;
    }

    /// @notice The platform sets each merchant's daily VRF draw budget: a hostile one tries nothing at all (refused:
    /// the floor), a cut waits out the notice, a raise applies at once.
    function setDrawsPerDay(uint256 seed) external step {
        seed = _h(seed);
        uint256[8] memory options = [uint256(0), 1, MIN_DRAWS_PER_DAY - 1, MIN_DRAWS_PER_DAY, 30, 288, 288, 1000];
        uint256 value = options[seed % 8];
        uint256 current = _budgetNow();
        bytes4 expectErr = value < MIN_DRAWS_PER_DAY ? IRaffleFactory.DrawBudgetBelowFloor.selector : bytes4(0);
        (bool ok, bytes4 err) = _call(admin, address(factory), 0, abi.encodeCall(IRaffleFactoryX.setDrawsPerDay, (value)));
        _checkOutcome(ACCESS, "setDrawsPerDay", expectErr == bytes4(0), expectErr, ok, err);
        _count("drawBudget.set");
        if (!ok || expectErr != bytes4(0)) {
            _count("drawBudget.belowFloorRefused");
            return;
        }
        if (value >= current) {
            drawsPerDay = value;
            pendingDrawsAt = 0;
        } else {
            drawsPerDay = current;
            pendingDrawsPerDay = value;
            pendingDrawsAt = block.timestamp + VRF_CONFIG_DELAY;
            _count("drawBudget.cutAnnounced");
        }
        if (factory.drawsPerDay() != _budgetNow()) _violate(ACCESS, "the draw budget is not the one the admin set");
    }

    /// @notice A merchant deploys another raffle: the factory serves any number of them (no VRF consumer cap).
    function deployRaffle(uint256 seed) external step {
        seed = _h(seed);
        RaffleConfig memory config =
            RaffleConfig({commission: seed % 3_001, timeLagBeforeRelease: 1 days, ticketName: "More", ticketSymbol: "MR"});
        uint256 before = factory.raffleCount();
        (bool ok, bytes4 err) =
            _call(merchants[seed % 2], address(factory), 0, abi.encodeCall(IRaffleFactory.deployRaffle, (config)));
        _checkOutcome(ACCESS, "deployRaffle", true, err, ok, err);
        if (ok && factory.raffleCount() != before + 1) _violate(ACCESS, "deployRaffle did not count the raffle");
        _count(before + 1 > 100 ? "raffle.deployedPast100" : "raffle.deployed");
    }

    // ================================================================== time

    /// @notice Time passes: seconds, hours, days or weeks.
    function warp(uint256 seed) external step {
        seed = _h(seed);
        uint256 kind = seed % 4;
        uint256 delta = kind == 0
            ? _bound(seed >> 8, 1, 10 minutes)
            : kind == 1 ? _bound(seed >> 8, 1 hours, 1 days) : kind == 2 ? _bound(seed >> 8, 1 days, 4 days) : _bound(seed >> 8, 4 days, 3 weeks);
        vm.warp(block.timestamp + delta);
        _count("time.warp");
    }

    /// @notice Time jumps to just before, at, or just after a deadline that matters: a round's refundableAt, a
    /// prize's release time, a round's 30-day overdue mark, the VRF notice, or the next UTC day (draw budget).
    function warpToDeadline(uint256 seed) external step {
        seed = _h(seed);
        uint256 kind = seed % 5;
        uint256 at;
        if (kind == 0 && drawingKeys.length != 0) {
            (uint256 r, uint256 roundId) = _unkey(drawingKeys[(seed >> 8) % drawingKeys.length]);
            at = rounds[r][roundId].refundableAt;
        } else if (kind == 1 && drawnKeys.length != 0) {
            (uint256 r, uint256 roundId) = _unkey(drawnKeys[(seed >> 8) % drawnKeys.length]);
            at = uint256(rounds[r][roundId].drawnAt) + raffles[r].timeLagBeforeRelease();
        } else if (kind == 2) {
            uint256 r = (seed >> 8) % 2;
            at = uint256(rounds[r][lastRound[r]].startedAt) + MAX_ROUND_DURATION;
        } else if (kind == 3) {
            at = pendingVrfAt;
        } else {
            at = (block.timestamp / 1 days + 1) * 1 days;
        }
        if (at == 0) return;
        at = at + ((seed >> 16) % 3) - 1; // one second before, at, or one after
        if (at > block.timestamp) {
            vm.warp(at);
            _count("time.warpToDeadline");
        }
    }

    // ================================================================== settlement (after each sequence)

    /// @notice Ends the story of every round so every payout is made: nobody blocked, a draw budget, every active
    /// round ended, every outstanding request answered in time, rounds still drawing refunded after their deadline,
    /// every prize claimed by the holder of its ticket, every ticket of a refundable round refunded, every commission
    /// withdrawn. Then each raffle must hold exactly the donations it got: everything it owed was paid, to the right
    /// people, by the same checks as during the sequence.
    function settle() external returns (string memory) {
        ITokenX blocklist = ITokenX(tokens[BLOCK]);
        for (uint256 i = 0; i < 7; i++) blocklist.setBlocked(_person(i), false);
        for (uint256 r = 0; r < 2; r++) {
            blocklist.setBlocked(merchants[r], false);
            blocklist.setBlocked(beneficiary[r], false);
        }
        // Liveness: nobody restores anything. Whatever budget, coordinator or pause the sequence left, a stranger
        // ends every round once it is overdue, and every round with tickets then pays every ticket within the
        // round's randomness timeout (at most 7 days).
        uint256 settleBy = block.timestamp;
        for (uint256 r = 0; r < 2; r++) {
            if (!roundActive[r]) continue;
            uint256 overdueAt = uint256(rounds[r][lastRound[r]].startedAt) + MAX_ROUND_DURATION;
            if (overdueAt > block.timestamp) vm.warp(overdueAt);
            if (overdueAt > settleBy) settleBy = overdueAt;
            if (!_endRound(r, stranger)) return "settlement: a stranger could not end an overdue round";
        }
        settleBy += 7 days;
        uint256 latest;
        for (uint256 i = 0; i < drawingKeys.length; i++) {
            (uint256 r, uint256 id) = _unkey(drawingKeys[i]);
            RoundG storage g = rounds[r][id];
            if (g.status == S_DRAWING && !g.delivered && block.timestamp < g.refundableAt) {
                _deliver(r, id, uint256(keccak256(abi.encode("settle", r, id))));
            }
            if (g.status == S_DRAWING && g.refundableAt > latest) latest = g.refundableAt;
        }
        if (latest > settleBy) return "settlement: a round waits for randomness past its bound";
        if (latest > block.timestamp) vm.warp(latest);
        for (uint256 i = 0; i < drawingKeys.length; i++) {
            (uint256 r, uint256 id) = _unkey(drawingKeys[i]);
            if (rounds[r][id].status == S_DRAWING) _enableRefunds(r, id, stranger);
            // A word that arrived is final: anyone draws its winners, whenever.
            if (rounds[r][id].status == S_PENDING) _finishDraw(r, id, stranger);
        }
        for (uint256 r = 0; r < 2; r++) {
            for (uint256 id = 1; id <= lastRound[r]; id++) {
                RoundG storage g = rounds[r][id];
                if (g.status == S_DRAWN) {
                    for (uint256 position = 0; position < g.winnersCount; position++) {
                        uint256 ticketId = winnersG[r][id][position];
                        if (g.claimedMask & (uint32(1) << position) == 0) _claim(r, _one(id, ticketId), _ownerOf(r, ticketId));
                    }
                } else if (g.status == S_REFUNDABLE) {
                    for (uint256 t = g.firstTicketId; t < g.firstTicketId + g.tickets; t++) {
                        if (_exists(r, t)) _refund(r, _one(id, t), _ownerOf(r, t));
                    }
                }
            }
            for (uint256 t = 0; t < 4; t++) {
                if (accrued[r][tokens[t]] != 0) _withdraw(r, tokens[t], merchants[r]);
            }
        }
        for (uint256 c = 0; c < CATEGORIES; c++) {
            if (violations[c] != 0) return string.concat("settlement: ", firstViolation[c]);
        }
        for (uint256 r = 0; r < 2; r++) {
            for (uint256 t = 0; t < 7; t++) {
                address token = tokens[t];
                if (owed[r][token] != 0) return "settlement: a raffle still owes money after every payout";
                if (_balance(token, address(raffles[r])) != donated[r][token]) {
                    return string.concat(
                        "settlement: raffle ", vm.toString(r), " holds other than its donations of token ", vm.toString(t)
                    );
                }
                if (raffles[r].accruedCommission(token) != 0) return "settlement: commission left behind";
            }
        }
        return "";
    }

    // ================================================================== views for the test contract

    function callSummary() external view returns (string memory line) {
        line = string.concat("fp=", vm.toString(fingerprint));
        for (uint256 i = 0; i < counterNames.length; i++) {
            line = string.concat(line, ";", counterNames[i], "=", vm.toString(counters[keccak256(bytes(counterNames[i]))]));
        }
    }
}
