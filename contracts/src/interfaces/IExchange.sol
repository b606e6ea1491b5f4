// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {Asset, Params, TokenType} from "../libraries/Assets.sol";
import {PermitSignature, PurchaseIntent, ReceiveAuthorization} from "../libraries/Gasless.sol";
import {TicketRef} from "./IRaffle.sol";

/// @notice Checks vouchers signed by the platform and takes payment for raffle tickets.
interface IExchange {
    /// @notice A purchase named a referrer other than the buyer.
    event Referral(address indexed referrer, address indexed account, address indexed receiver, Asset price);
    /// @notice A claim voucher was redeemed: its items went from `source` to `account`.
    event Claimed(address indexed account, bytes32 indexed nonce, uint256 indexed externalId, address source);
    /// @notice `source` agreed (or stopped agreeing) that claim vouchers deliver `token` from it.
    event ClaimSourceSet(address indexed source, address indexed token, bool allowed);
    /// @notice `factory` deployed `raffle`: purchases may pay it from now on.
    event RaffleListed(address indexed factory, address indexed raffle);

    /// @notice `expiresAt` is zero: a voucher must always expire.
    error ExpiryMissing();
    /// @notice The voucher's `expiresAt` is in the past.
    error SignatureExpired(uint256 expiresAt);
    /// @notice The voucher's nonce was already used.
    error NonceAlreadyUsed(bytes32 nonce);
    /// @notice The signature is malformed (length or high-s).
    error InvalidSignature();
    /// @notice The signature is valid but its signer lacks the signer role.
    error InvalidSigner(address recovered);
    /// @notice `msg.value` is not exactly what the price asks.
    error WrongPaymentValue(uint256 expected, uint256 actual);
    /// @notice The raffle's balance of the price token grew by `received`, not by the price `expected` (a fee, a
    /// rebase or a short transfer): the purchase is refused so the pot always holds what its tickets are owed.
    error PaymentShort(uint256 expected, uint256 received);
    /// @notice The price token did not answer `balanceOf`, so the payment could not be measured.
    error BalanceUnreadable(address token);
    /// @notice Only NATIVE and ERC20 prices can be paid.
    error UnsupportedPriceType(TokenType tokenType);
    /// @notice A purchase named a receiver no platform factory listed (see `listRaffle`): not one of the platform's
    /// raffles, whatever its bytecode.
    error RaffleNotListed(address receiver);
    /// @notice A claim carries 1 to MAX_CLAIM_ITEMS items.
    error InvalidClaimItemCount(uint256 count);
    /// @notice A claim item is not an ERC20 amount, an ERC721 token id, or one ERC721 to mint.
    error UnsupportedClaimItem(uint256 index);
    /// @notice The claim's source did not opt in for this token (or, to mint, is not a minter of the collection).
    error ClaimSourceNotApproved(address source, address token);
    /// @notice Gasless purchase: the price token has no ERC-3009 `receiveWithAuthorization` (the call reverted
    /// without a reason).
    error AuthorizationUnsupported(address token);
    /// @notice Gasless purchase: the buyer's purchase intent is past its deadline.
    error IntentExpired(uint256 deadline);
    /// @notice Gasless purchase: the purchase intent is not `buyer`'s signature of exactly this purchase (another
    /// signer, another purchase, another Exchange or chain).
    error BuyerSignatureInvalid(address buyer);
    /// @notice Gasless purchase: the buyer's permit could not be applied (front-run, expired, for another spender or
    /// value, or the token has none) and the buyer's allowance for this Exchange, `allowance`, is short of the price.
    error PermitRefused(address token, uint256 allowance);
    /// @notice Gasless claim or refund: the intent is not `holder`'s signature (EOA or ERC-1271) of exactly this
    /// settlement (another signer, other tickets, another raffle, a claim signed as a refund or the reverse, another
    /// Exchange or chain).
    error HolderSignatureInvalid(address holder);

    /// @notice Buys one raffle ticket with a voucher signed by a holder of the signer role.
    /// @dev `account` in the signed data is `msg.sender`, so a voucher is useless to anyone else.
    function purchaseRaffle(Params calldata params, Asset calldata item, Asset calldata price, bytes calldata signature)
        external
        payable;

    /// @notice Buys with the buyer's single ERC-3009 signature, submitted by anyone (a relayer paying the gas). The
    /// buyer signed the price token's `ReceiveWithAuthorization` with `to` = this Exchange, `value` = `price.amount`
    /// and `nonce` = the EIP-712 digest of the purchase voucher (the digest the platform signer signed, with
    /// `account` = the buyer), so the signature pays for this purchase only, only through this Exchange. The tickets
    /// go to `authorization.from`; the caller gets nothing.
    function purchaseRaffleWithAuthorization(
        Params calldata params,
        Asset calldata item,
        Asset calldata price,
        bytes calldata voucherSignature,
        ReceiveAuthorization calldata authorization
    ) external;

    /// @notice Buys with the buyer's two signatures, submitted by anyone (a relayer paying the gas): a
    /// `PurchaseIntent` on this Exchange's domain naming exactly this purchase, and an EIP-2612 permit for this
    /// Exchange. A permit that fails (someone submitted it first) is ignored when the allowance is there. The tickets
    /// go to `intent.buyer`; the caller gets nothing.
    function purchaseRaffleWithPermit(
        Params calldata params,
        Asset calldata item,
        Asset calldata price,
        bytes calldata voucherSignature,
        PurchaseIntent calldata intent,
        PermitSignature calldata permit
    ) external;

    /// @notice Claims the prizes of `tickets` on `raffle` on the signature of `holder` (a `ClaimIntent` on this
    /// Exchange's domain, EOA or ERC-1271), submitted by anyone (a relayer paying the gas). The raffle, a listed one,
    /// gets the call with `holder` appended (ERC-2771 style) and checks it as it checks a caller: `holder` must own
    /// each ticket or be approved for it, and each prize goes to the ticket's owner, never to the submitter. Never
    /// paused: a prize must always be claimable. Nothing to replay: a claimed position pays once, and a ticket that
    /// changed hands no longer answers to its former holder's signature.
    function claimPrizesBySig(
        address raffle,
        TicketRef[] calldata tickets,
        address holder,
        uint256 deadline,
        bytes calldata signature
    ) external;

    /// @notice Refunds `tickets` of a refundable round on `raffle` on `holder`'s `RefundIntent` signature, as
    /// `claimPrizesBySig` does for prizes: the refund goes to each ticket's owner, and a burnt ticket pays once.
    function refundTicketsBySig(
        address raffle,
        TicketRef[] calldata tickets,
        address holder,
        uint256 deadline,
        bytes calldata signature
    ) external;

    /// @notice Redeems a claim voucher: delivers `items` from `params.receiver` (the merchant, who approved this
    /// contract and opted in with `setClaimSource`) to `msg.sender`. ERC20: transferred. ERC721 with a token id:
    /// transferred. ERC721 with token id 0: minted (the merchant is a minter of the collection and granted this
    /// contract the minter role too).
    function claim(Params calldata params, Asset[] calldata items, bytes calldata signature) external;

    /// @notice Lists a raffle the caller, a holder of FACTORY_ROLE, just deployed, so purchases may pay it.
    function listRaffle(address raffle) external;

    /// @notice Whether a voucher nonce has been used.
    function isNonceUsed(bytes32 nonce) external view returns (bool);
}
