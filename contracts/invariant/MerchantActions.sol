// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {Asset, TokenType} from "../src/libraries/Assets.sol";
import {Bundle, IRaffle, RoundRules, RoundStatus, RoundView, VrfConfig} from "../src/interfaces/IRaffle.sol";
import {IAccessControl} from "@openzeppelin/contracts/access/IAccessControl.sol";
import {IExchangeX, IRaffleFactoryX, IVRFMock} from "./utils/Interfaces.sol";
import {IRaffleFactory, RaffleConfig} from "../src/interfaces/IRaffleFactory.sol";
import {IRaffleTicket} from "../src/interfaces/IRaffleTicket.sol";
import {PlayerActions} from "./PlayerActions.sol";
import {RoundG, RulesG} from "./HandlerBase.sol";
import {vm} from "./utils/Vm.sol";

/// @notice What merchants do, honest and hostile: rules, rounds, draws, pauses, payouts of their raffles.
abstract contract MerchantActions is PlayerActions {
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
}
