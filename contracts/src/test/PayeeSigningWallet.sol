// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {SigningWallet} from "./SigningWallet.sol";

/// @notice Test-only ERC-1271 wallet that reacts when ether arrives (a prize or a refund relayed for it): accept it,
/// refuse it, or call any contract (the raffle, the Exchange) with or without swallowing a failure. A told action
/// runs on the first payment only, as an attacker needs no more.
contract PayeeSigningWallet is SigningWallet {
    enum OnPayment {
        Accept,
        Refuse,
        Call
    }

    error WalletRefusesPayment(uint256 amount);

    OnPayment public onPayment;
    address public paymentCallee;
    bytes public paymentCallData;
    bool public swallowPaymentFailure;
    uint256 public paymentsReceived;
    bool public paymentCallSucceeded;
    bytes public lastPaymentFailure;

    constructor(address owner_) SigningWallet(owner_) {}

    function setOnPayment(OnPayment mode, address to, bytes calldata data, bool swallow) external {
        onPayment = mode;
        paymentCallee = to;
        paymentCallData = data;
        swallowPaymentFailure = swallow;
    }

    receive() external payable override {
        OnPayment mode = onPayment;
        if (mode == OnPayment.Refuse) revert WalletRefusesPayment(msg.value);
        paymentsReceived += 1;
        onPayment = OnPayment.Accept;
        if (mode == OnPayment.Call) {
            (bool ok, bytes memory result) = paymentCallee.call(paymentCallData);
            paymentCallSucceeded = ok;
            if (!ok) {
                lastPaymentFailure = result;
                if (!swallowPaymentFailure) {
                    assembly ("memory-safe") {
                        revert(add(result, 0x20), mload(result))
                    }
                }
            }
        }
    }
}
