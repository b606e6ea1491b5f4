// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {IAccessControl} from "@openzeppelin/contracts/access/IAccessControl.sol";
import {Address} from "@openzeppelin/contracts/utils/Address.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";
import {IERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Permit.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {SignatureChecker} from "@openzeppelin/contracts/utils/cryptography/SignatureChecker.sol";
import {Pausable} from "@openzeppelin/contracts/utils/Pausable.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";

import {Asset, Params, TokenType} from "./libraries/Assets.sol";
import {GaslessHashing, PermitSignature, PurchaseIntent, ReceiveAuthorization} from "./libraries/Gasless.sol";
import {VoucherHashing} from "./libraries/VoucherHashing.sol";
import {IExchange} from "./interfaces/IExchange.sol";
import {IRaffle, TicketRef} from "./interfaces/IRaffle.sol";

/// @notice What the Exchange needs of a collection it mints claim items from.
interface IMintableCollection {
    function mint(address to) external returns (uint256 tokenId);
}

/// @notice The platform's entry point for purchases: checks the platform's EIP-712 voucher, takes exact payment
/// and has the raffle named in the voucher print the ticket.
contract Exchange is IExchange, EIP712, AccessControl, Pausable, ReentrancyGuardTransient {
    using SafeERC20 for IERC20;

    /// @notice Keys allowed to sign purchase vouchers (the API's signer).
    bytes32 public constant SIGNER_ROLE = keccak256("SIGNER_ROLE");
    bytes32 public constant PAUSER_ROLE = keccak256("PAUSER_ROLE");
    /// @notice Most items one claim voucher can carry, so a claim always fits in a block.
    uint256 public constant MAX_CLAIM_ITEMS = 20;
    /// @notice The role a claim source must hold on a collection to have claims mint from it.
    bytes32 public constant COLLECTION_MINTER_ROLE = keccak256("MINTER_ROLE");
    /// @notice The platform's factories: each lists here the raffles it deploys.
    bytes32 public constant FACTORY_ROLE = keccak256("FACTORY_ROLE");

    /// @notice Raffles a platform factory deployed: the only receivers a purchase pays. Anyone can deploy the genuine
    /// raffle bytecode pointed at this Exchange with a "factory" of their own that starts rounds and answers draws as
    /// it likes; such a look-alike is never listed, so it never sells, whoever signed its voucher.
    mapping(address raffle => bool) public isListedRaffle;

    /// @notice Tokens each source agreed to have claim vouchers deliver from. Buyers approve this contract for their
    /// purchases and never opt in here, so no voucher can ever move their tokens.
    mapping(address source => mapping(address token => bool)) public isClaimSource;

    /// @dev Used nonces as a bitmap: bit `nonce & 0xff` of word `nonce >> 8`. The API hands out nonces that share
    /// their upper 248 bits in runs of 256, so most purchases flip a bit in a warm-able, already non-zero word
    /// (~5k gas) instead of filling a fresh slot (~22k gas). Any nonce value stays single-use.
    mapping(uint256 word => uint256 bits) private _usedNonces;

    /// @dev The admin grants SIGNER_ROLE after deployment: with no chain-specific constructor argument the Exchange
    /// gets the same CREATE2 address on every chain, whatever signer each chain uses.
    constructor(address admin) EIP712("EXCHANGE", "1.0.0") {
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        _grantRole(PAUSER_ROLE, admin);
    }

    /// @inheritdoc IExchange
    function purchaseRaffle(Params calldata params, Asset calldata item, Asset calldata price, bytes calldata signature)
        external
        payable
        nonReentrant
        whenNotPaused
    {
        _checkPurchaseVoucher(msg.sender, params, item, price, signature);
        if (price.tokenType == TokenType.NATIVE) {
            if (msg.value != price.amount) revert WrongPaymentValue(price.amount, msg.value);
        } else if (price.tokenType == TokenType.ERC20) {
            if (msg.value != 0) revert WrongPaymentValue(0, msg.value);
            // The buyer approved this contract.
            _payPot(price, msg.sender, params.receiver);
        } else {
            revert UnsupportedPriceType(price.tokenType);
        }
        _printTickets(msg.sender, params, item, price);
    }

    /// @inheritdoc IExchange
    function purchaseRaffleWithAuthorization(
        Params calldata params,
        Asset calldata item,
        Asset calldata price,
        bytes calldata voucherSignature,
        ReceiveAuthorization calldata authorization
    ) external nonReentrant whenNotPaused {
        address buyer = authorization.from;
        bytes32 voucher = _checkPurchaseVoucher(buyer, params, item, price, voucherSignature);
        if (price.tokenType != TokenType.ERC20) revert UnsupportedPriceType(price.tokenType);
        // The buyer's signature, its validity window and its nonce are the token's to check: the nonce it signed is
        // `voucher`, computed here from what is being bought, so any other purchase makes the token refuse it.
        uint256 heldBefore = _balanceOf(price.token, address(this));
        _receiveWithAuthorization(price, authorization, voucher);
        uint256 heldAfter = _balanceOf(price.token, address(this));
        uint256 received = heldAfter > heldBefore ? heldAfter - heldBefore : 0;
        if (received != price.amount) revert PaymentShort(price.amount, received);
        _payPot(price, address(this), params.receiver);
        _printTickets(buyer, params, item, price);
    }

    /// @inheritdoc IExchange
    function purchaseRaffleWithPermit(
        Params calldata params,
        Asset calldata item,
        Asset calldata price,
        bytes calldata voucherSignature,
        PurchaseIntent calldata intent,
        PermitSignature calldata permit
    ) external nonReentrant whenNotPaused {
        address buyer = intent.buyer;
        _checkPurchaseVoucher(buyer, params, item, price, voucherSignature);
        if (price.tokenType != TokenType.ERC20) revert UnsupportedPriceType(price.tokenType);
        if (block.timestamp > intent.deadline) revert IntentExpired(intent.deadline);
        bytes32 intentDigest = _hashTypedDataV4(GaslessHashing.hashIntent(buyer, params, item, price, intent.deadline));
        if (!SignatureChecker.isValidSignatureNowCalldata(buyer, intentDigest, intent.signature)) {
            revert BuyerSignatureInvalid(buyer);
        }
        if (permit.value != 0) _tryPermit(price, buyer, permit);
        _payPot(price, buyer, params.receiver);
        _printTickets(buyer, params, item, price);
    }

    /// @inheritdoc IExchange
    function claimPrizesBySig(
        address raffle,
        TicketRef[] calldata tickets,
        address holder,
        uint256 deadline,
        bytes calldata signature
    ) external nonReentrant {
        _checkHolderIntent(GaslessHashing.CLAIM_INTENT_TYPEHASH, raffle, tickets, holder, deadline, signature);
        _forward(raffle, abi.encodeCall(IRaffle.claimPrizes, (tickets)), holder);
    }

    /// @inheritdoc IExchange
    function refundTicketsBySig(
        address raffle,
        TicketRef[] calldata tickets,
        address holder,
        uint256 deadline,
        bytes calldata signature
    ) external nonReentrant {
        _checkHolderIntent(GaslessHashing.REFUND_INTENT_TYPEHASH, raffle, tickets, holder, deadline, signature);
        _forward(raffle, abi.encodeCall(IRaffle.refundTickets, (tickets)), holder);
    }

    /// @inheritdoc IExchange
    function claim(Params calldata params, Asset[] calldata items, bytes calldata signature)
        external
        nonReentrant
        whenNotPaused
    {
        if (items.length == 0 || items.length > MAX_CLAIM_ITEMS) revert InvalidClaimItemCount(items.length);
        _useVoucher(params, VoucherHashing.hashClaim(msg.sender, params, items), signature);
        for (uint256 i = 0; i < items.length; i++) {
            _deliver(params.receiver, msg.sender, items[i], i);
        }
        emit Claimed(msg.sender, params.nonce, params.externalId, params.receiver);
    }

    /// @inheritdoc IExchange
    function listRaffle(address raffle) external onlyRole(FACTORY_ROLE) {
        isListedRaffle[raffle] = true;
        emit RaffleListed(msg.sender, raffle);
    }

    /// @notice The caller (a merchant) agrees, or stops agreeing, that claim vouchers deliver `token` from it.
    function setClaimSource(address token, bool allowed) external {
        isClaimSource[msg.sender][token] = allowed;
        emit ClaimSourceSet(msg.sender, token, allowed);
    }

    /// @notice Replaces one signer by another in a single transaction.
    function rotateSigner(address oldSigner, address newSigner) external onlyRole(DEFAULT_ADMIN_ROLE) {
        _revokeRole(SIGNER_ROLE, oldSigner);
        _grantRole(SIGNER_ROLE, newSigner);
    }

    function pause() external onlyRole(PAUSER_ROLE) {
        _pause();
    }

    function unpause() external onlyRole(PAUSER_ROLE) {
        _unpause();
    }

    /// @inheritdoc IExchange
    function isNonceUsed(bytes32 nonce) external view returns (bool) {
        return _usedNonces[uint256(nonce) >> 8] & (1 << (uint256(nonce) & 0xff)) != 0;
    }

    /// @notice The EIP-712 domain separator of this chain and contract.
    function domainSeparator() external view returns (bytes32) {
        return _domainSeparatorV4();
    }

    /// @dev Checks expiry, nonce and the signer of `structHash` (which binds the voucher's account: the caller, or on
    /// a gasless purchase the buyer who signed), then burns the nonce and returns the voucher's EIP-712 digest.
    /// Purchases and claims share one nonce space.
    function _useVoucher(Params calldata params, bytes32 structHash, bytes calldata signature)
        private
        returns (bytes32 digest)
    {
        if (params.expiresAt == 0) revert ExpiryMissing();
        if (block.timestamp > params.expiresAt) revert SignatureExpired(params.expiresAt);

        uint256 word = uint256(params.nonce) >> 8;
        uint256 bit = 1 << (uint256(params.nonce) & 0xff);
        uint256 bits = _usedNonces[word];
        if (bits & bit != 0) revert NonceAlreadyUsed(params.nonce);

        digest = _hashTypedDataV4(structHash);
        (address signer, ECDSA.RecoverError error,) = ECDSA.tryRecoverCalldata(digest, signature);
        if (error != ECDSA.RecoverError.NoError) revert InvalidSignature();
        if (!hasRole(SIGNER_ROLE, signer)) revert InvalidSigner(signer);

        _usedNonces[word] = bits | bit;
    }

    /// @dev What every purchase checks first, whoever submits it: the receiver is a listed raffle and the platform
    /// signed this voucher for `buyer` (then spent). Returns the voucher's EIP-712 digest.
    function _checkPurchaseVoucher(
        address buyer,
        Params calldata params,
        Asset calldata item,
        Asset calldata price,
        bytes calldata signature
    ) private returns (bytes32 voucher) {
        if (!isListedRaffle[params.receiver]) revert RaffleNotListed(params.receiver);
        return _useVoucher(params, VoucherHashing.hashPurchase(buyer, params, item, price), signature);
    }

    /// @dev A relayed claim or refund: only to a listed raffle (which trusts this Exchange to name the holder), only
    /// before the intent's deadline, only on the holder's signature of exactly this raffle, these tickets and this
    /// kind (`typehash`) on this Exchange's domain.
    function _checkHolderIntent(
        bytes32 typehash,
        address raffle,
        TicketRef[] calldata tickets,
        address holder,
        uint256 deadline,
        bytes calldata signature
    ) private view {
        if (!isListedRaffle[raffle]) revert RaffleNotListed(raffle);
        if (block.timestamp > deadline) revert IntentExpired(deadline);
        bytes32 digest = _hashTypedDataV4(GaslessHashing.hashSettleIntent(typehash, raffle, holder, tickets, deadline));
        if (!SignatureChecker.isValidSignatureNowCalldata(holder, digest, signature)) {
            revert HolderSignatureInvalid(holder);
        }
    }

    /// @dev Calls `raffle` with `holder` appended to the calldata (ERC-2771): the raffle settles as if `holder` called,
    /// and its refusals (custom errors) come back unchanged.
    function _forward(address raffle, bytes memory call, address holder) private {
        Address.functionCall(raffle, abi.encodePacked(call, holder));
    }

    /// @dev Moves the ERC20 price from `payer` (this contract: `transfer`, else `transferFrom`) straight into the
    /// raffle's pot, measured rather than assumed: a listed token that later takes a fee or delivers short can stop
    /// sales, never short a pot.
    function _payPot(Asset calldata price, address payer, address pot) private {
        uint256 balanceBefore = _balanceOf(price.token, pot);
        if (payer == address(this)) {
            IERC20(price.token).safeTransfer(pot, price.amount);
        } else {
            IERC20(price.token).safeTransferFrom(payer, pot, price.amount);
        }
        uint256 balanceAfter = _balanceOf(price.token, pot);
        uint256 received = balanceAfter > balanceBefore ? balanceAfter - balanceBefore : 0;
        if (received != price.amount) revert PaymentShort(price.amount, received);
    }

    /// @dev Ends every purchase: the referral, then the raffle prints the tickets to `buyer`. Last, because the raffle
    /// ends with the buyer's ERC721 receiver check, a call into the buyer's code.
    function _printTickets(address buyer, Params calldata params, Asset calldata item, Asset calldata price) private {
        if (params.referrer != address(0) && params.referrer != buyer) {
            emit Referral(params.referrer, buyer, params.receiver, price);
        }
        IRaffle(params.receiver).printTicket{value: msg.value}(buyer, item, price, params.externalId);
    }

    /// @dev Has the token move the price from the buyer to this contract on the buyer's ERC-3009 authorization whose
    /// nonce is `nonce`. A token without the function reverts without data: refused by name, not as a bare revert.
    function _receiveWithAuthorization(Asset calldata price, ReceiveAuthorization calldata authorization, bytes32 nonce)
        private
    {
        bytes calldata signature = authorization.signature;
        bytes memory call;
        if (signature.length == 65) {
            call = abi.encodeWithSignature(
                "receiveWithAuthorization(address,address,uint256,uint256,uint256,bytes32,uint8,bytes32,bytes32)",
                authorization.from,
                address(this),
                price.amount,
                authorization.validAfter,
                authorization.validBefore,
                nonce,
                uint8(signature[64]),
                bytes32(signature[0:32]),
                bytes32(signature[32:64])
            );
        } else {
            call = abi.encodeWithSignature(
                "receiveWithAuthorization(address,address,uint256,uint256,uint256,bytes32,bytes)",
                authorization.from,
                address(this),
                price.amount,
                authorization.validAfter,
                authorization.validBefore,
                nonce,
                signature
            );
        }
        // A low-level call: a token without the function must be told apart from one that refuses the signature.
        // solhint-disable-next-line avoid-low-level-calls
        (bool ok, bytes memory reason) = price.token.call(call);
        if (!ok) {
            if (reason.length == 0) revert AuthorizationUnsupported(price.token);
            // solhint-disable-next-line no-inline-assembly
            assembly ("memory-safe") {
                revert(add(reason, 0x20), mload(reason))
            }
        }
    }

    /// @dev Applies the buyer's permit if it still can be. Anyone may submit a signed permit, so a failure is
    /// expected when someone did first; the purchase then stands on the allowance, and is refused by name without it.
    function _tryPermit(Asset calldata price, address buyer, PermitSignature calldata permit) private {
        IERC20Permit token = IERC20Permit(price.token);
        // solhint-disable-next-line no-empty-blocks
        try token.permit(buyer, address(this), permit.value, permit.deadline, permit.v, permit.r, permit.s) {}
        catch {
            uint256 allowance = IERC20(price.token).allowance(buyer, address(this));
            if (allowance < price.amount) revert PermitRefused(price.token, allowance);
        }
    }

    /// @dev `IERC20.balanceOf` in scratch space: the purchase path reads it twice, and the ABI-decoding high-level
    /// call costs about 400 gas more for the pair (the gas snapshot's 150k target on a later ticket is that close).
    function _balanceOf(address token, address account) private view returns (uint256 amount) {
        bool ok;
        // solhint-disable-next-line no-inline-assembly
        assembly ("memory-safe") {
            mstore(0x00, 0x70a08231) // balanceOf(address)
            mstore(0x20, account)
            ok := staticcall(gas(), token, 0x1c, 0x24, 0x00, 0x20)
            // A separate statement: Yul evaluates arguments right to left, so inside one `and` this would read the
            // size of the previous call's answer.
            ok := and(ok, gt(returndatasize(), 0x1f))
            amount := mload(0x00)
        }
        if (!ok) revert BalanceUnreadable(token);
    }

    function _deliver(address source, address to, Asset calldata item, uint256 index) private {
        if (!isClaimSource[source][item.token]) revert ClaimSourceNotApproved(source, item.token);
        if (item.tokenType == TokenType.ERC20 && item.tokenId == 0 && item.amount != 0) {
            IERC20(item.token).safeTransferFrom(source, to, item.amount);
        } else if (item.tokenType == TokenType.ERC721 && item.amount == 1) {
            if (item.tokenId == 0) {
                // Mint only from a collection the source itself may mint: it cannot give away another's collection.
                if (!IAccessControl(item.token).hasRole(COLLECTION_MINTER_ROLE, source)) {
                    revert ClaimSourceNotApproved(source, item.token);
                }
                IMintableCollection(item.token).mint(to);
            } else {
                IERC721(item.token).safeTransferFrom(source, to, item.tokenId);
            }
        } else {
            revert UnsupportedClaimItem(index);
        }
    }
}
