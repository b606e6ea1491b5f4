// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {Asset, TokenType} from "../src/libraries/Assets.sol";
import {Checks} from "./Checks.sol";
import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";
import {IExchange} from "../src/interfaces/IExchange.sol";
import {IRaffle, TicketRef} from "../src/interfaces/IRaffle.sol";
import {ITokenX} from "./utils/Interfaces.sol";
import {RoundG, TicketG, Voucher} from "./HandlerBase.sol";
import {SmartWallet} from "../src/test/SmartWallet.sol";
import {vm} from "./utils/Vm.sol";

/// @notice What players do: buy with vouchers (valid and misused), move tickets, claim prizes, ask refunds.
abstract contract PlayerActions is Checks {
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
        address firstHolder = sender;
        bool walletCalls;
        if (_isWallet(sender)) {
            uint8 onReceive;
            (onReceive, firstHolder, walletCalls) = _armWallet(sender, uint256(keccak256(abi.encode(v.params.nonce, "wallet"))));
            if (expectOk && onReceive == ON_REFUSE) (expectOk, expectErr) = (false, WALLET_REFUSES);
        }
        uint256 before = _balance(v.price.token, address(raffles[v.raffle]));
        (bool ok, bytes4 err) = _send(v, sender, value, walletCalls);
        _count(ok ? "buy.ok" : expectErr == WALLET_REFUSES ? "wallet.refusedTickets" : _buyFailureName(expectErr, mode));
        _checkOutcome(category, what, expectOk, expectErr, ok, err);
        if (ok) _bookPurchase(v, sender, before, firstHolder);
    }

    /// @dev Sends the purchase, as `sender` or (a contract wallet asked by its owner) by `sender` itself.
    function _send(Voucher memory v, address sender, uint256 value, bool walletCalls) internal returns (bool ok, bytes4 err) {
        (callbackRaffle, callbackOutflow, inPurchase) = (v.raffle, 0, true);
        (ok, err) = walletCalls
            ? _walletCall(sender, address(exchange), value, _purchaseData(v))
            : _call(sender, address(exchange), value, _purchaseData(v));
        inPurchase = false;
    }

    /// @dev Tells contract wallet `wallet` what to do with the tickets of its next purchase (see HandlerBase), and
    /// whether it submits the purchase itself (its owner asks it) or the handler sends it as the wallet. Returns who
    /// must hold the purchase's first ticket afterwards.
    function _armWallet(address wallet, uint256 seed)
        internal
        returns (uint8 onReceive, address firstHolder, bool walletCalls)
    {
        uint256 pick = seed % 8;
        onReceive = pick < 2 ? ON_ACCEPT : pick == 2 ? ON_MOVE_TO_SELF : pick == 3 ? ON_MOVE_TO : pick < 7 ? ON_CALL : ON_REFUSE;
        firstHolder = wallet;
        if (onReceive == ON_MOVE_TO) {
            address[4] memory others = [players[0], players[1], stranger, wallet == players[2] ? players[3] : players[2]];
            firstHolder = others[(seed >> 8) % 4];
        }
        callbackPlan = uint8((seed >> 16) % 4);
        callbackSeed = seed >> 24;
        walletCalls = (seed >> 12) % 2 == 0;
        bytes memory callback = abi.encodeWithSignature("onWalletCallback()");
        address target = onReceive == ON_CALL ? address(this) : firstHolder;
        SmartWallet(payable(wallet)).setOnReceive(SmartWallet.OnReceive(onReceive), target, callback, false);
        _count(walletCalls ? "wallet.boughtItself" : "wallet.bought");
    }

    /// @dev Contract wallet `wallet` makes a call itself, from its own balance, as its owner asked it to.
    function _walletCall(address wallet, address to, uint256 value, bytes memory data) internal returns (bool ok, bytes4 err) {
        bytes memory ret;
        (ok, ret) = wallet.call(abi.encodeCall(SmartWallet.execute, (to, value, data)));
        if (!ok && ret.length >= 4) err = bytes4(ret);
    }

    function _purchaseData(Voucher memory v) internal pure returns (bytes memory) {
        return abi.encodeCall(IExchange.purchaseRaffle, (v.params, v.item, v.price, v.signature));
    }

    /// @dev Bought: the next `quantity` ticket ids of this raffle, owned by the buyer (the first by `firstHolder`, whom a
    /// contract wallet gave it in its callback), of the active round, each at the price its rules give, paid in full
    /// (less what the wallet's callback had the raffle pay out).
    function _bookPurchase(Voucher memory v, address sender, uint256 before, address firstHolder) internal {
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
        if (_isWallet(sender)) _countBy("wallet.ticketsBought", quantity);
        if (tickets[r].ownerOf(first) != firstHolder || (quantity > 1 && tickets[r].ownerOf(first + quantity - 1) != sender)) {
            _violate(TICKETS, "the tickets minted are not the buyer's");
        }
        if (_balance(g.token, address(raffles[r])) != before + perTicket * quantity - callbackOutflow) {
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
            // Often another prize of the first ticket's holder: a batch that pays (prizes of different holders only
            // pay an operator approved for all of them, which sequences seldom set up).
            if (i != 0 && seed % 3 == 1) refs[i] = _holdersOtherPrize(r, refs, i, refs[i]);
            if (i != 0 && seed % 11 == 0) refs[i] = refs[i - 1]; // the same prize twice in one call
        }
        _claim(r, refs, _claimCaller(r, refs[0], callerSeed));
    }

    /// @dev Another unclaimed prize the holder of `refs[0]` holds, in this round or another drawn round of the raffle,
    /// that `refs[0..count)` does not name yet; else the ticket it had.
    function _holdersOtherPrize(uint256 r, TicketRef[] memory refs, uint256 count, TicketRef memory otherwise)
        internal
        view
        returns (TicketRef memory)
    {
        if (!_exists(r, refs[0].ticketId)) return otherwise;
        address holder = _ownerOf(r, refs[0].ticketId);
        uint256 n = lastRound[r];
        uint256 first = otherwise.roundId == 0 ? 0 : otherwise.roundId - 1; // this round first, if it is one
        for (uint256 k = 0; k < n; k++) {
            uint256 roundId = 1 + (first + k) % n;
            RoundG storage g = rounds[r][roundId];
            if (g.status != S_DRAWN) continue;
            for (uint256 position = 0; position < g.winnersCount; position++) {
                uint256 ticketId = winnersG[r][roundId][position];
                if (g.claimedMask & (uint32(1) << position) != 0 || !_exists(r, ticketId)) continue;
                if (_ownerOf(r, ticketId) != holder || _names(refs, count, roundId, ticketId)) continue;
                return TicketRef({roundId: roundId, ticketId: ticketId});
            }
        }
        return otherwise;
    }

    function _names(TicketRef[] memory refs, uint256 count, uint256 roundId, uint256 ticketId) internal pure returns (bool) {
        for (uint256 j = 0; j < count; j++) {
            if (refs[j].roundId == roundId && refs[j].ticketId == ticketId) return true;
        }
        return false;
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
        (ok, err) = _settle(r, CLAIM_INTENT_TYPEHASH, refs, caller, abi.encodeCall(IRaffle.claimPrizes, (refs)));
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
        (ok, err) = _settle(r, REFUND_INTENT_TYPEHASH, refs, caller, abi.encodeCall(IRaffle.refundTickets, (refs)));
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
}
