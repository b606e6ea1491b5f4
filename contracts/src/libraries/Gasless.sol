// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {Asset, Params} from "./Assets.sol";
import {VoucherHashing} from "./VoucherHashing.sol";
import {TicketRef} from "../interfaces/IRaffle.sol";

/// @notice The buyer's ERC-3009 `ReceiveWithAuthorization`, less what the Exchange fills in itself: `to` is the
/// Exchange, `value` the voucher's price, and `nonce` the purchase voucher's EIP-712 digest (see
/// `Exchange.purchaseRaffleWithAuthorization`).
struct ReceiveAuthorization {
    address from;
    uint256 validAfter;
    uint256 validBefore;
    /// @dev 65 bytes (r ‖ s ‖ v) are passed to the EIP's `v, r, s` function every ERC-3009 token has; any other
    /// length (an ERC-1271 wallet's) to the `bytes signature` form of FiatToken v2.2.
    bytes signature;
}

/// @notice The buyer's consent to one purchase, signed on the Exchange's EIP-712 domain (`PurchaseIntent`).
struct PurchaseIntent {
    address buyer;
    uint256 deadline;
    bytes signature;
}

/// @notice An EIP-2612 permit of the buyer for the Exchange. `value` 0 means none: the buyer already approved.
struct PermitSignature {
    uint256 value;
    uint256 deadline;
    uint8 v;
    bytes32 r;
    bytes32 s;
}

/// @notice EIP-712 struct hash of the purchase intent. Its type string is an interface fact (wallets show it, the
/// SDK signs it): the voucher's fields with the buyer in place of the account, plus the buyer's own deadline.
library GaslessHashing {
    bytes32 internal constant PURCHASE_INTENT_TYPEHASH = keccak256(
        "PurchaseIntent(address buyer,Params params,Asset item,Asset price,uint256 deadline)"
        "Asset(uint256 tokenType,address token,uint256 tokenId,uint256 amount)"
        "Params(uint256 externalId,uint256 expiresAt,bytes32 nonce,bytes32 extra,address receiver,address referrer)"
    );

    function hashIntent(
        address buyer,
        Params calldata params,
        Asset calldata item,
        Asset calldata price,
        uint256 deadline
    ) internal pure returns (bytes32) {
        return keccak256(
            abi.encode(
                PURCHASE_INTENT_TYPEHASH,
                buyer,
                VoucherHashing.hashParams(params),
                VoucherHashing.hashAsset(item),
                VoucherHashing.hashAsset(price),
                deadline
            )
        );
    }

    /// @dev The holder's consent to have `tickets` of `raffle` claimed (or refunded) for it by whoever submits it.
    /// Type strings are interface facts, like the purchase intent's.
    bytes32 internal constant CLAIM_INTENT_TYPEHASH = keccak256(
        "ClaimIntent(address raffle,address holder,TicketRef[] tickets,uint256 deadline)"
        "TicketRef(uint256 roundId,uint256 ticketId)"
    );
    bytes32 internal constant REFUND_INTENT_TYPEHASH = keccak256(
        "RefundIntent(address raffle,address holder,TicketRef[] tickets,uint256 deadline)"
        "TicketRef(uint256 roundId,uint256 ticketId)"
    );
    bytes32 internal constant TICKET_REF_TYPEHASH = keccak256("TicketRef(uint256 roundId,uint256 ticketId)");

    /// @notice EIP-712 struct hash of a `ClaimIntent` or `RefundIntent` (`typehash` says which).
    function hashSettleIntent(
        bytes32 typehash,
        address raffle,
        address holder,
        TicketRef[] calldata tickets,
        uint256 deadline
    ) internal pure returns (bytes32) {
        bytes32[] memory refs = new bytes32[](tickets.length);
        for (uint256 i; i < tickets.length; ++i) {
            refs[i] = keccak256(abi.encode(TICKET_REF_TYPEHASH, tickets[i].roundId, tickets[i].ticketId));
        }
        return keccak256(abi.encode(typehash, raffle, holder, keccak256(abi.encodePacked(refs)), deadline));
    }
}
