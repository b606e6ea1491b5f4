// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @notice Test-only: keeps 1% of every transfer (fee-on-transfer), so the receiver gets less than it was sent.
contract FeeOnTransferToken is ERC20 {
    constructor() ERC20("Fee Token", "FEE") {}

    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }

    function _update(address from, address to, uint256 value) internal override {
        if (from == address(0) || to == address(0)) return super._update(from, to, value);
        uint256 fee = value / 100;
        super._update(from, address(0), fee);
        super._update(from, to, value - fee);
    }
}

/// @notice Test-only: delivers 1 wei less than asked on every transfer, like the share rounding of a rebasing token.
contract ShortDeliveryToken is ERC20 {
    constructor() ERC20("Short Token", "SHORT") {}

    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }

    function _update(address from, address to, uint256 value) internal override {
        if (from == address(0) || to == address(0) || value == 0) return super._update(from, to, value);
        super._update(from, to, value - 1);
        super._update(from, address(0), 1);
    }
}

/// @notice Test-only: an issuer can block an address, which can then neither send nor receive (as USDC and USDT do).
contract BlocklistToken is ERC20 {
    mapping(address => bool) public blocked;

    error AddressBlocked(address account);

    constructor() ERC20("Blocklist Token", "BLOCK") {}

    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }

    function setBlocked(address account, bool isBlocked) external {
        blocked[account] = isBlocked;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (blocked[from]) revert AddressBlocked(from);
        if (blocked[to]) revert AddressBlocked(to);
        super._update(from, to, value);
    }
}

/// @notice Test-only: USDT-style ERC20 whose `transfer`, `transferFrom` and `approve` return nothing.
contract NoReturnToken {
    string public constant name = "No Return Token";
    string public constant symbol = "NORET";
    uint8 public constant decimals = 6;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    function mint(address to, uint256 amount) external {
        totalSupply += amount;
        balanceOf[to] += amount;
        emit Transfer(address(0), to, amount);
    }

    function approve(address spender, uint256 amount) external {
        allowance[msg.sender][spender] = amount;
        emit Approval(msg.sender, spender, amount);
    }

    function transfer(address to, uint256 amount) external {
        _move(msg.sender, to, amount);
    }

    function transferFrom(address from, address to, uint256 amount) external {
        uint256 allowed = allowance[from][msg.sender];
        require(allowed >= amount, "allowance");
        if (allowed != type(uint256).max) allowance[from][msg.sender] = allowed - amount;
        _move(from, to, amount);
    }

    function _move(address from, address to, uint256 amount) private {
        require(balanceOf[from] >= amount, "balance");
        balanceOf[from] -= amount;
        balanceOf[to] += amount;
        emit Transfer(from, to, amount);
    }
}

/// @notice Test-only: an honest token until its owner switches on a 1% fee, as USDT's fee switch or an upgrade could.
contract SwitchableFeeToken is ERC20 {
    bool public feeOn;

    constructor() ERC20("Switchable Fee Token", "SWFEE") {}

    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }

    function setFeeOn(bool on) external {
        feeOn = on;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (!feeOn || from == address(0) || to == address(0)) return super._update(from, to, value);
        uint256 fee = value / 100;
        super._update(from, address(0), fee);
        super._update(from, to, value - fee);
    }
}

/// @notice Test-only: a coordinator a hostile platform could point its settings at. It passes the factory's checks
/// and then burns all the gas of every request (any call but the two views lands in the fallback).
contract GasBurningCoordinator {
    // solhint-disable-next-line func-name-mixedcase
    function s_config() external pure returns (uint16, uint32, bool, uint32, uint32, uint32, uint32, uint8, uint8) {
        return (3, 2_500_000, false, 0, 0, 0, 0, 0, 0);
    }

    function getSubscription(uint256)
        external
        view
        returns (uint96, uint96, uint64, address, address[] memory consumers)
    {
        consumers = new address[](1);
        consumers[0] = msg.sender;
        return (0, 0, 0, msg.sender, consumers);
    }

    fallback() external {
        // solhint-disable-next-line no-empty-blocks
        while (true) {}
    }
}
